// Damaged and hostile 7z archives: seeded truncations and mutations of real archives (their CRCs recomputed
// so the damage reaches the parsers and decoders instead of stopping at a checksum), and a few patched
// properties that would cost minutes or gigabytes if believed. Each must end fast with entries, problems,
// DecodeError or OutputLimitError, and nothing else.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { crc32Value } from '../../../fuzzy/crc32.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { Entry, ReadContext } from '../../format.js';
import { sevenZipFormat } from './index.js';

const noTool = missingTool('7z', 'p7zip-full');
const PASSWORD = 'secret';

/** mulberry32: the same cases on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A small tree with a bit of everything: text, random bytes, an x86 executable, links, empty entries. */
function buildArchive(options: string[]): Buffer {
  return inTempDir((dir) => {
    const src = join(dir, 'src');
    const next = rng(7);
    mkdirSync(join(src, 'etc/init.d'), { recursive: true });
    mkdirSync(join(src, 'empty-dir'));
    writeFileSync(join(src, 'etc/passwd'), 'root:x:0:0::/root:/bin/sh\n');
    writeFileSync(join(src, 'etc/init.d/rcS'), '#!/bin/sh\nmount -a\n'.repeat(300));
    writeFileSync(
      join(src, 'random'),
      Uint8Array.from({ length: 20_000 }, () => (next() * 256) | 0),
    );
    writeFileSync(join(src, 'ls'), readFileSync('/bin/ls').subarray(0, 40_000));
    writeFileSync(join(src, 'empty'), '');
    symlinkSync('etc/passwd', join(src, 'link'));
    runTool('7z', ['a', '-bd', '-snl', ...options, join(dir, 'out.7z'), '.'], { cwd: src });
    return readFileSync(join(dir, 'out.7z'));
  });
}

/** Recomputes the header's CRC (where the start header says it is) and the start header's own CRC. */
function fixCrcs(b: Buffer): void {
  const offset = Number(b.readBigUInt64LE(12));
  const size = Number(b.readBigUInt64LE(20));
  if (32 + offset + size <= b.length) b.writeUInt32LE(crc32Value(b.subarray(32 + offset, 32 + offset + size)), 28);
  b.writeUInt32LE(crc32Value(b.subarray(12, 32)), 8);
}

interface Outcome {
  entries: Entry[];
  problems: string[];
  error?: Error;
}

/** Probes and reads `data`; any error other than the two typed ones fails the test. */
function readAll(data: Uint8Array, budget = 64 << 20, password: string | null = PASSWORD): Outcome | null {
  const problems: string[] = [];
  const ctx: ReadContext = { remaining: () => budget, password, problem: (m) => problems.push(m) };
  const entries: Entry[] = [];
  try {
    const probed = sevenZipFormat.probe(data, 0, ctx);
    if (!probed) return null;
    for (const e of probed.entries(ctx)) entries.push(e);
  } catch (err) {
    if (err instanceof DecodeError || err instanceof OutputLimitError) return { entries, problems, error: err };
    throw err;
  }
  return { entries, problems };
}

const VARIANTS: Record<string, string[]> = {
  'LZMA2 + BCJ, encoded header': [],
  'plain header': ['-mhc=off'],
  'PPMd in 64 KiB': ['-m0=PPMd:mem=64k', '-mhc=off'],
  BCJ2: ['-mf=BCJ2', '-mhc=off'],
  'BZip2, not solid': ['-m0=BZip2', '-ms=off'],
  'Deflate + Copy': ['-m0=Deflate', '-m1=Copy', '-mhc=off'],
  'encrypted header': [`-p${PASSWORD}`, '-mhe=on'],
};
const CASES = 300;

for (const [what, options] of Object.entries(VARIANTS)) {
  test(`7z hostile: ${CASES} seeded truncations and mutations of a ${what} archive`, (t) => {
    if (noTool) return t.skip(noTool);
    const archive = buildArchive(options);
    const intact = readAll(archive);
    assert.deepEqual(intact?.problems, [], 'the intact archive reads cleanly');
    assert.equal(intact.entries.length, 9);
    const next = rng(0x5eed + what.length);
    const pick = (n: number) => Math.floor(next() * n);
    const headerAt = 32 + Number(archive.readBigUInt64LE(12));
    const outcomes = { entries: 0, problems: 0, errors: 0, refused: 0 };
    let slowest = 0;
    for (let i = 0; i < CASES; i++) {
      let data = Buffer.from(archive);
      const kind = i % 5;
      if (kind === 0) {
        // The header cut short, its size and CRC made to agree.
        const keep = pick(archive.length - headerAt);
        data = data.subarray(0, headerAt + keep);
        data.writeBigUInt64LE(BigInt(keep), 20);
      } else if (kind === 1) {
        // A stretch of packed data cut out, the header moved up to follow.
        const from = 32 + pick(headerAt - 32);
        const to = Math.min(headerAt, from + 1 + pick(4096));
        data = Buffer.concat([data.subarray(0, from), data.subarray(to)]);
        data.writeBigUInt64LE(BigInt(headerAt - 32 - (to - from)), 12);
      } else {
        // Bytes changed in the header, anywhere, or in the start header's offset and size.
        const [from, to] = kind === 2 ? [headerAt, archive.length] : kind === 3 ? [32, archive.length] : [12, 28];
        for (let k = 1 + pick(6); k > 0; k--) data[from + pick(to - from)] = pick(256);
      }
      fixCrcs(data);
      const budget = [64 << 20, 64 << 20, 40_000, 2_000][pick(4)]!;
      const t0 = performance.now();
      const out = readAll(data, budget);
      slowest = Math.max(slowest, performance.now() - t0);
      if (!out) outcomes.refused++;
      else {
        outcomes.entries += out.entries.length;
        outcomes.problems += out.problems.length;
        if (out.error) outcomes.errors++;
      }
    }
    assert.ok(slowest < 1000, `every case ends within a second (slowest ${slowest.toFixed(0)} ms)`);
    t.diagnostic(`${JSON.stringify(outcomes)}, slowest case ${slowest.toFixed(1)} ms`);
  });
}

/** The archive with the properties of its first coder of method `id` (hex) passed to `patch`, CRCs fixed. */
function patchProps(archive: Buffer, id: string, patch: (props: Buffer) => void): Buffer {
  const data = Buffer.from(archive);
  const headerAt = 32 + Number(data.readBigUInt64LE(12));
  const at = data.indexOf(Buffer.from(id, 'hex'), headerAt);
  assert.ok(at > 0, `coder ${id} found in the plain header`);
  const size = data[at + id.length / 2]!;
  patch(data.subarray(at + id.length / 2 + 1, at + id.length / 2 + 1 + size));
  fixCrcs(data);
  return data;
}

test('7z hostile: a key derivation of 2^30 rounds is refused at once', (t) => {
  if (noTool) return t.skip(noTool);
  const archive = buildArchive([`-p${PASSWORD}`, '-mhc=off']);
  const slow = patchProps(archive, '06f10701', (props) => (props[0] = (props[0]! & 0xc0) | 30));
  const t0 = performance.now();
  const out = readAll(slow)!;
  assert.ok(performance.now() - t0 < 1000);
  assert.ok(out.problems.length > 0);
  for (const p of out.problems) assert.match(p, /2\^30 SHA-256 rounds/);
});

test('7z hostile: PPMd models of 4 GiB or order 1 are refused, not allocated', (t) => {
  if (noTool) return t.skip(noTool);
  const archive = buildArchive(['-m0=PPMd', '-mhc=off']);
  const huge = patchProps(archive, '030401', (props) => props.writeUInt32LE(0xffffffff, 1));
  for (const p of readAll(huge)!.problems) assert.match(p, /PPMd order \d+ with 4294967295 bytes/);
  const low = patchProps(archive, '030401', (props) => (props[0] = 1));
  for (const p of readAll(low)!.problems) assert.match(p, /PPMd order 1 /);
});

test('7z hostile: a folder claiming more output than the budget stops before decoding', (t) => {
  if (noTool) return t.skip(noTool);
  const out = readAll(buildArchive(['-mhc=off', '-ms=off']), 1_000)!;
  assert.ok(out.problems.some((p) => /passes 1000 bytes/.test(p)));
  assert.ok(out.entries.some((e) => e.path === 'etc/passwd'));
});
