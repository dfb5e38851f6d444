// Damaged and hostile images: directory cycles patched into a real image, then seeded truncations and
// mutations of images from every compressor. Each must end fast with entries, problems, DecodeError or
// OutputLimitError, and nothing else.
import assert from 'node:assert/strict';
import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { readDamaged, tallyDamage } from '../../../../../test/helpers/firmware/hostile.js';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { writeTree } from '../../../../../test/helpers/firmware/tree.js';
import { noise } from '../../../../../test/helpers/samples.js';
import { squashfsFormat } from './index.js';

const noTool = missingTool('mksquashfs', 'squashfs-tools');

/** A small tree with a bit of everything, in 4 KiB blocks so the structures are a large share of the bytes. */
function buildImage(dir: string, options: string[]): Buffer {
  const src = join(dir, 'src');
  writeTree(src, {
    'alpha/loop': { dir: true },
    'etc/passwd': 'root:x:0:0::/root:/bin/sh\n',
    'etc/init.d/rcS': '#!/bin/sh\nmount -a\n'.repeat(300),
    'alpha/random': noise(20_000, 7),
    'alpha/loop/text': 'squashfs '.repeat(2000),
    sparse: 'head',
    'alpha/link': { symlink: '../etc/passwd' },
    'zz-hardlink': { hardlink: 'etc/passwd' },
  });
  truncateSync(join(src, 'sparse'), 30_000);
  const image = join(dir, 'image.sqfs');
  const pseudo = ['dev d 755 0 0', 'dev/null c 666 0 0 1 3', 'dev/fifo i 644 0 0 f'].flatMap((p) => ['-p', p]);
  runTool('mksquashfs', [src, image, '-noappend', '-quiet', '-b', '4096', ...pseudo, ...options]);
  return readFileSync(image);
}

const readAll = (data: Uint8Array) => readDamaged(squashfsFormat, data, 64 << 20);

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

/** Damaged copies of a squashfs image, each with a budget (some small) to read it with. */
function* damagedImages(image: Buffer, seed: number): Generator<{ bytes: Uint8Array; budget: number }> {
  const next = seededRandom(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const tablesAt = Number(image.readBigUInt64LE(64));
  const used = Number(image.readBigUInt64LE(40));
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
    yield { bytes: data, budget: [64 << 20, 64 << 20, 40_000, 2_000][pick(4)]! };
  }
}

for (const [what, options] of Object.entries(VARIANTS)) {
  test(`squashfs hostile: ${CASES} seeded truncations and mutations of a ${what} image`, (t) => {
    if (noTool) return t.skip(noTool);
    const image = inTempDir((dir) => buildImage(dir, options));
    assert.equal(readAll(image)?.problems.length, 0, 'the intact image reads cleanly');
    t.diagnostic(tallyDamage(squashfsFormat, damagedImages(image, 0x5eed + what.length)));
  });
}
