import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepAddressable } from './addressable.js';
import { parseRaw } from './raw.js';

const image = parseRaw(new Uint8Array(16), 0x1000, { architecture: 'x86_64' });
const HIGH = 2 ** 63;

test('keepAddressable: an image with exact addresses is returned as it is', () => {
  assert.equal(keepAddressable(image), image);
});

test('keepAddressable: entries at or past 2^53 are dropped, with one diagnostic', () => {
  const section = image.sections[0]!;
  const out = keepAddressable({
    ...image,
    sections: [section, { ...section, name: 'high', vaddr: HIGH }, { ...section, name: 'edge', vaddr: 2 ** 53 - 8 }],
    symbols: [
      { name: 'ok', vaddr: 0x1000, size: 0, kind: 'function', binding: 'global', source: 'symtab' },
      { name: 'high', vaddr: HIGH, size: 0, kind: 'function', binding: 'global', source: 'symtab' },
    ],
    entryPoints: [{ vaddr: -1, kind: 'entry' }],
    pointers: [{ at: 0x1000, target: HIGH }],
    functionStarts: [0x1000, HIGH],
  });
  // `edge` runs 16 bytes from 2^53 - 8: its last bytes are past 2^53.
  assert.deepEqual(
    out.sections.map((s) => s.name),
    ['raw'],
  );
  assert.deepEqual(
    out.symbols.map((s) => s.name),
    ['ok'],
  );
  assert.deepEqual(out.entryPoints, []);
  assert.deepEqual(out.pointers, []);
  assert.deepEqual(out.functionStarts, [0x1000]);
  assert.deepEqual(out.diagnostics, ['6 entries at addresses of 2^53 or more dropped']);
});
