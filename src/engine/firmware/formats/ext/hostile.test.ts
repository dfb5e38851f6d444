// Damaged and hostile ext volumes: a directory entry patched to name the root (a cycle), an extent tree
// whose index names one leaf twice, then seeded truncations and mutations of ext2, ext4 and inline-data
// images. Each must end fast with entries, problems, DecodeError or OutputLimitError, and nothing else.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, linkSync, truncateSync, writeFileSync } from 'node:fs';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { Entry, ReadContext } from '../../format.js';
import { extFormat } from './index.js';

const MKE2FS = missingTool('mke2fs', 'e2fsprogs');
const GENEXT2FS = missingTool('genext2fs', 'genext2fs');

/** A small tree with a bit of everything, and a file in 8 islands (more extents than i_block's 4). */
function makeTree(src: string): void {
  const next = seededRandom(7);
  mkdirSync(join(src, 'alpha/deeper'), { recursive: true });
  mkdirSync(join(src, 'etc'), { recursive: true });
  writeFileSync(join(src, 'etc/passwd'), 'root:x:0:0::/root:/bin/sh\n');
  writeFileSync(
    join(src, 'alpha/random'),
    Uint8Array.from({ length: 20_000 }, () => next() * 256),
  );
  writeFileSync(join(src, 'alpha/deeper/text'), 'ext '.repeat(3000));
  writeFileSync(join(src, 'alpha/loop-me'), 'x');
  writeFileSync(join(src, 'islands'), '');
  truncateSync(join(src, 'islands'), 200_000);
  const fd = openSync(join(src, 'islands'), 'r+');
  for (let i = 0; i < 8; i++) writeSync(fd, `island ${i}`, i * 24_000);
  closeSync(fd);
  for (let i = 0; i < 40; i++) writeFileSync(join(src, 'alpha', `f${i}`), `${i}`);
  symlinkSync('../etc/passwd', join(src, 'alpha/link'));
  symlinkSync('/'.padEnd(100, 'x'), join(src, 'slow-link'));
  linkSync(join(src, 'etc/passwd'), join(src, 'zz-hardlink'));
}

function buildImage(dir: string, tool: 'mke2fs' | 'genext2fs', options: string[]): Buffer {
  const src = join(dir, 'src');
  makeTree(src);
  const image = join(dir, 'fs.img');
  if (tool === 'genext2fs') runTool('genext2fs', ['-z', '-d', src, '-b', '1024', ...options, image]);
  else runTool('mke2fs', ['-q', '-F', '-d', src, '-b', '1024', ...options, image, '1M']);
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
    const probed = extFormat.probe(data, 0, ctx);
    if (!probed) return null;
    assert.ok(probed.size > 0 && probed.size <= data.length);
    for (const e of probed.entries(ctx)) entries.push(e);
  } catch (err) {
    if (err instanceof DecodeError || err instanceof OutputLimitError) return { entries, problems, error: err };
    throw err;
  }
  return { entries, problems };
}

/** The directory record of `name` (its inode field), found by its bytes in the image. */
function recordOf(image: Buffer, name: string): number {
  const at = image.indexOf(Buffer.from(name));
  assert.ok(at > 0, `${name} found`);
  assert.equal(image[at - 2], name.length, `${name} is a directory record's name`);
  return at - 8;
}

test('ext hostile: a directory entry naming the root is a problem, not a loop', (t) => {
  if (MKE2FS) return t.skip(MKE2FS);
  const image = inTempDir((dir) => buildImage(dir, 'mke2fs', ['-t', 'ext4']));
  const record = recordOf(image, 'loop-me');
  image.writeUInt32LE(2, record);
  const out = readAll(image)!;
  assert.equal(out.error, undefined);
  assert.deepEqual(out.problems, ['ext: alpha/loop-me: directory inode 2 reached a second time (left out)']);
  assert.ok(
    out.entries.some((e) => e.path === 'zz-hardlink' && e.kind === 'hardlink'),
    'the walk went on',
  );
});

test('ext hostile: an extent index naming one leaf block twice is a problem for that file', (t) => {
  if (MKE2FS) return t.skip(MKE2FS);
  inTempDir((dir) => {
    const image = buildImage(dir, 'mke2fs', ['-t', 'ext4']);
    const stat = runTool('debugfs', ['-R', 'imap /islands', join(dir, 'fs.img')]).toString();
    const [, block, offset] = /located at block (\d+), offset (0x[0-9a-f]+)/.exec(stat)!;
    const root = Number(block) * 1024 + Number(offset) + 0x28;
    assert.equal(image.readUInt16LE(root), 0xf30a);
    assert.equal(image.readUInt16LE(root + 6), 1, 'a tree one level deep');
    // A second index entry, after the first, naming the same leaf.
    image.writeUInt16LE(2, root + 2);
    image.copy(image, root + 24, root + 12, root + 24);
    image.writeUInt32LE(100, root + 24);
    const out = readAll(image)!;
    assert.equal(out.error, undefined);
    assert.equal(out.problems.length, 1);
    assert.match(out.problems[0]!, /^ext: islands: extent tree block \d+ met twice/);
    assert.ok(!out.entries.some((e) => e.path === 'islands'));
  });
});

const VARIANTS = {
  'genext2fs ext2': { tool: 'genext2fs', options: [] },
  'mke2fs ext3': { tool: 'mke2fs', options: ['-t', 'ext3'] },
  'mke2fs ext4': { tool: 'mke2fs', options: ['-t', 'ext4'] },
  'mke2fs ext4 inline data': { tool: 'mke2fs', options: ['-t', 'ext4', '-O', 'inline_data'] },
} as const;
const CASES = 300;

for (const [what, { tool, options }] of Object.entries(VARIANTS)) {
  test(`ext hostile: ${CASES} seeded truncations and mutations of a ${what} image`, (t) => {
    const missing = tool === 'genext2fs' ? GENEXT2FS : MKE2FS;
    if (missing) return t.skip(missing);
    const image = inTempDir((dir) => buildImage(dir, tool, [...options]));
    assert.deepEqual(readAll(image)?.problems, [], 'the intact image reads cleanly');
    const next = seededRandom(0xe47 + what.length);
    const pick = (n: number) => Math.floor(next() * n);
    // Where the structures are: the superblock and descriptors, and up to the end of the used blocks.
    const used = Math.max(65536, image.length - (image.readUInt32LE(1024 + 0x0c) - 1) * 1024);
    const outcomes = { entries: 0, problems: 0, errors: 0, refused: 0 };
    let slowest = 0;
    for (let i = 0; i < CASES; i++) {
      let data: Buffer;
      const kind = i % 4;
      if (kind === 0 && i % 8 === 0) data = image.subarray(0, 1024 + pick(image.length - 1024));
      else if (kind === 0) {
        // A run of erased (0xff) or zeroed flash past the superblock.
        data = Buffer.from(image);
        const from = 2048 + pick(used - 2048);
        data.fill(pick(2) ? 0xff : 0, from, Math.min(used, from + 1 + pick(4096)));
      } else {
        data = Buffer.from(image);
        const count = 1 + pick(8);
        // Bytes anywhere used, in the first 64 KiB (descriptors, bitmaps, inode tables), or the superblock.
        const [from, to] = kind === 1 ? [1024, used] : kind === 2 ? [2048, 65536] : [1024, 1024 + 0x180];
        for (let k = 0; k < count; k++) data[from + pick(to - from)] = pick(256);
      }
      const budget = [64 << 20, 64 << 20, 64 << 20, 40_000][pick(4)]!;
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
