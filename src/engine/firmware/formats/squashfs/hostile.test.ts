// Damaged and hostile images: directory cycles patched into a real image, then seeded truncations and
// mutations of images from every compressor. Each must end fast with entries, problems, DecodeError or
// OutputLimitError, and nothing else.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, linkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { Entry, ReadContext } from '../../format.js';
import { squashfsFormat } from './index.js';

const noTool = missingTool('mksquashfs', 'squashfs-tools');

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

/** A small tree with a bit of everything, in 4 KiB blocks so the structures are a large share of the bytes. */
function buildImage(dir: string, options: string[]): Buffer {
  const src = join(dir, 'src');
  const next = rng(7);
  mkdirSync(join(src, 'alpha/loop'), { recursive: true });
  mkdirSync(join(src, 'etc/init.d'), { recursive: true });
  writeFileSync(join(src, 'etc/passwd'), 'root:x:0:0::/root:/bin/sh\n');
  writeFileSync(join(src, 'etc/init.d/rcS'), '#!/bin/sh\nmount -a\n'.repeat(300));
  writeFileSync(
    join(src, 'alpha/random'),
    Uint8Array.from({ length: 20_000 }, () => (next() * 256) | 0),
  );
  writeFileSync(join(src, 'alpha/loop/text'), 'squashfs '.repeat(2000));
  writeFileSync(join(src, 'sparse'), 'head');
  truncateSync(join(src, 'sparse'), 30_000);
  symlinkSync('../etc/passwd', join(src, 'alpha/link'));
  linkSync(join(src, 'etc/passwd'), join(src, 'zz-hardlink'));
  const image = join(dir, 'image.sqfs');
  const pseudo = ['dev d 755 0 0', 'dev/null c 666 0 0 1 3', 'dev/fifo i 644 0 0 f'].flatMap((p) => ['-p', p]);
  runTool('mksquashfs', [src, image, '-noappend', '-quiet', '-b', '4096', ...pseudo, ...options]);
  return readFileSync(image);
}

interface Outcome {
  entries: Entry[];
  problems: string[];
  error?: Error;
}

/** Probes and walks `data`; any error other than the two typed ones fails the test. */
function readAll(data: Uint8Array, budget = 64 << 20): Outcome | null {
  const problems: string[] = [];
  const ctx: ReadContext = { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
  const entries: Entry[] = [];
  try {
    const probed = squashfsFormat.probe(data, 0, ctx);
    if (!probed) return null;
    for (const e of probed.entries(ctx)) entries.push(e);
  } catch (err) {
    if (err instanceof DecodeError || err instanceof OutputLimitError) return { entries, problems, error: err };
    throw err;
  }
  return { entries, problems };
}

/** The 8-byte entry header of the directory entry named `name` (searched in the stored directory table). */
function entryHeaderAt(image: Buffer, name: string): number {
  const dirStart = Number(image.readBigUInt64LE(72));
  const at = image.indexOf(Buffer.from(name), dirStart);
  assert.ok(at > dirStart, `entry ${name} found`);
  assert.equal(image.readUInt16LE(at - 2) + 1, name.length, `${name} is a directory entry's name`);
  return at - 8;
}

test('squashfs hostile: a directory listing itself or the root is a problem, not a loop', (t) => {
  if (noTool) return t.skip(noTool);
  inTempDir((dir) => {
    const image = buildImage(dir, ['-noI']);
    const root = Number(image.readBigUInt64LE(32)) & 0xffff;
    const alpha = image.readUInt16LE(entryHeaderAt(image, 'alpha'));
    for (const [to, offset] of [
      ['its parent', alpha],
      ['the root', root],
    ] as const) {
      const bad = Buffer.from(image);
      // alpha/loop's entry now names the inode of alpha (or of the root): both sit in the first inode block.
      bad.writeUInt16LE(offset, entryHeaderAt(bad, 'loop'));
      const out = readAll(bad)!;
      assert.equal(out.error, undefined, to);
      assert.equal(out.problems.length, 1, to);
      assert.match(out.problems[0]!, /alpha\/loop: directory inode \d+ reached a second time/);
      assert.ok(
        out.entries.some((e) => e.path === 'zz-hardlink' && e.kind === 'hardlink'),
        'the walk went on',
      );
    }
  });
});

const VARIANTS: Record<string, string[]> = {
  gzip: [],
  'stored metadata': ['-noI', '-noD', '-noF'],
  lzma: ['-comp', 'lzma'],
  lzo: ['-comp', 'lzo'],
  xz: ['-comp', 'xz'],
  lz4: ['-comp', 'lz4'],
  zstd: ['-comp', 'zstd'],
};
const CASES = 300;

for (const [what, options] of Object.entries(VARIANTS)) {
  test(`squashfs hostile: ${CASES} seeded truncations and mutations of a ${what} image`, (t) => {
    if (noTool) return t.skip(noTool);
    const image = inTempDir((dir) => buildImage(dir, options));
    assert.equal(readAll(image)?.problems.length, 0, 'the intact image reads cleanly');
    const next = rng(0x5eed + what.length);
    const pick = (n: number) => Math.floor(next() * n);
    const tablesAt = Number(image.readBigUInt64LE(64));
    const used = Number(image.readBigUInt64LE(40));
    const outcomes = { entries: 0, problems: 0, errors: 0, refused: 0 };
    let slowest = 0;
    for (let i = 0; i < CASES; i++) {
      let data: Buffer;
      const kind = i % 4;
      if (kind === 0 && i % 8 === 0) {
        // Truncated, with bytes_used made to agree so the reader meets the missing bytes itself.
        const n = 96 + pick(used - 96);
        data = Buffer.from(image.subarray(0, n));
        data.writeBigUInt64LE(BigInt(n), 40);
      } else if (kind === 0) {
        // A run of erased (0xff) or zeroed flash somewhere past the superblock.
        data = Buffer.from(image);
        const from = 96 + pick(used - 96);
        data.fill(pick(2) ? 0xff : 0, from, Math.min(used, from + 1 + pick(4096)));
      } else {
        data = Buffer.from(image);
        const count = 1 + pick(8);
        // Bytes anywhere, in the tables (inodes, directories, fragments, ids), or in the superblock.
        const [from, to] = kind === 1 ? [0, used] : kind === 2 ? [tablesAt, used] : [4, 96];
        for (let k = 0; k < count; k++) data[from + pick(to - from)] = pick(256);
      }
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
