// Known answers for crc32, computed once from the inputs of fixtures.ts and the corpus files by
// Python 3.11's `zlib.crc32` (zlib 1.2.13).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CORPUS_FILES, GENERATED, corpusFile, type GeneratedInput } from '../../../test/helpers/engine/fuzzy.js';
import { crc32 } from './crc32.js';

// The standard check value of CRC-32 (IEEE) and two short strings, then the generated inputs.
const TEXT: [string, string][] = [
  ['123456789', 'cbf43926'],
  ['a', 'e8b7be43'],
  ['The quick brown fox jumps over the lazy dog', '414fa339'],
];
for (const [text, want] of TEXT) {
  test(`crc32: ${JSON.stringify(text)} → ${want}`, () => assert.equal(crc32(new TextEncoder().encode(text)), want));
}

const GENERATED_WANT: Record<GeneratedInput, string> = {
  empty: '00000000',
  'random-49': '76d65de7',
  'random-50': 'e6827c61',
  'random-256': '839cb9e6',
  'random-4096': '6a82d781',
  'random-65536': '342060a9',
  'random-1mib': '20f3d9cf',
  'random-3000000': '73d497de',
  'text-10000': '6a79a364',
  'zeros-1000': '060b1780',
  'random-100000-then-zeros': '148e956c',
  'blocks-200000': '22775008',
};
for (const [name, want] of Object.entries(GENERATED_WANT) as [GeneratedInput, string][]) {
  test(`crc32: ${name}`, () => assert.equal(crc32(GENERATED[name]()), want));
}

const CORPUS_WANT: Record<keyof typeof CORPUS_FILES, string> = {
  smallElf: 'bd22aad0',
  staticElf: '7d2e474b',
  pe: 'b4133b73',
  busybox: '7f1d2c52',
};
for (const [key, want] of Object.entries(CORPUS_WANT)) {
  const file = CORPUS_FILES[key as keyof typeof CORPUS_FILES];
  test(`crc32: corpus ${file}`, (t) => {
    const bytes = corpusFile(t, file);
    if (bytes) assert.equal(crc32(bytes), want);
  });
}
