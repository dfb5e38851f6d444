// Inputs for the fuzzy-digest known-answer tests (src/engine/fuzzy/known-answers.test.ts), generated so that no
// binary fixture is committed. The expected digests there were computed from exactly these bytes by the reference
// tools, so changing a generator here means recomputing them.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, ssdeepDigest, tlshDigest } from '../../../src/engine/fuzzy/index.js';

/** Marsaglia's xorshift32 (shifts 13, 17, 5); each byte is the top 8 bits of the next state. */
function xorshiftBytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x >>> 24;
  }
  return out;
}

function repeatedText(length: number): Uint8Array {
  const unit = new TextEncoder().encode('The quick brown fox jumps over the lazy dog. 0123456789\n');
  return new Uint8Array(length).map((_, i) => unit[i % unit.length] as number);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Sizes around the thresholds: TLSH's 50-byte minimum, ssdeep block sizes 3 to 49,152 (random data
 * ends a piece about every blocksize bytes). The two zero-tailed inputs end with the rolling hash at 0,
 * which takes ssdeep's other path for the last letter.
 */
export const GENERATED = {
  empty: () => new Uint8Array(0),
  'random-49': () => xorshiftBytes(1, 49),
  'random-50': () => xorshiftBytes(2, 50),
  'random-256': () => xorshiftBytes(3, 256),
  'random-4096': () => xorshiftBytes(4, 4096),
  'random-65536': () => xorshiftBytes(5, 65536),
  'random-1mib': () => xorshiftBytes(6, 1 << 20),
  'random-3000000': () => xorshiftBytes(7, 3_000_000),
  'text-10000': () => repeatedText(10_000),
  'zeros-1000': () => new Uint8Array(1000),
  'random-100000-then-zeros': () => concat([xorshiftBytes(8, 100_000), new Uint8Array(16)]),
  'blocks-200000': () =>
    concat(Array.from({ length: 50 }, (_, i) => (i % 2 ? new Uint8Array(4000) : xorshiftBytes(100 + i, 4000)))),
} satisfies Record<string, () => Uint8Array>;

export type GeneratedInput = keyof typeof GENERATED;

const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');

/** A developer-corpus file (../shared/corpus, see its README), or null after skipping `t` when absent. */
export function corpusFile(t: TestContext, relative: string): Uint8Array | null {
  const file = path.join(CORPUS, relative);
  if (!existsSync(file)) {
    t.skip(`${file} absent`);
    return null;
  }
  return new Uint8Array(readFileSync(file));
}

/** The corpus binaries the tests digest: a small ELF, a static ELF, a PE and an AArch64 busybox. */
export const CORPUS_FILES = {
  smallElf: 'bin/samples/sample-file_crypt_linux-x86_64_gcc12_O2_stripped',
  staticElf: 'bin/debian/debian-zlib-bzip2-zstd_linux-x86_64_gcc12_O2_stripped',
  pe: 'bin/sqlite/sqlite-3.50.4_win-x86_64_mingw-gcc12_O2.exe',
  busybox: 'bin/busybox/busybox-static_1_1.35.0-4+deb12u1+b1_arm64',
} as const;

/** The three digests of one input, as the reference tools print them. */
export interface Digests {
  crc32: string;
  tlsh: string;
  ssdeep: string;
}

const DIGESTS: Record<keyof Digests, (bytes: Uint8Array) => string> = { crc32, tlsh: tlshDigest, ssdeep: ssdeepDigest };

/**
 * Registers the known-answer tests: each digest of each generated input and of each corpus file (skipped when
 * the corpus is absent) against the reference tools' output.
 */
export function knownAnswers(
  generated: Record<GeneratedInput, Digests>,
  corpus: Record<keyof typeof CORPUS_FILES, Digests>,
): void {
  for (const [digest, run] of Object.entries(DIGESTS) as [keyof Digests, (bytes: Uint8Array) => string][]) {
    for (const [input, want] of Object.entries(generated) as [GeneratedInput, Digests][]) {
      test(`${digest}: ${input}`, () => assert.equal(run(GENERATED[input]()), want[digest]));
    }
    for (const [key, want] of Object.entries(corpus) as [keyof typeof CORPUS_FILES, Digests][]) {
      const file = CORPUS_FILES[key];
      test(`${digest}: corpus ${file}`, (t) => {
        const bytes = corpusFile(t, file);
        if (bytes) assert.equal(run(bytes), want[digest]);
      });
    }
  }
}
