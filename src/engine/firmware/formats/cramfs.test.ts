// The cramfs reader against util-linux mkfs.cramfs images (little- and big-endian, boot pad, holes),
// cramfsswap's byte-swapped copies, a hand-built image with extended block pointers (which Debian's
// tools never write), and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { seededRandom } from '../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { assertMatchesTree, writeTree } from '../../../../test/helpers/firmware/tree.js';
import { entriesFound, entriesOf, readContext } from '../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../test/helpers/samples.js';
import { OutputLimitError } from '../compression/errors.js';
import { cramfsFormat } from './cramfs.js';

const MKFS = missingTool('mkfs.cramfs', 'util-linux') ?? missingTool('cramfsswap', 'cramfsswap');

/** Nesting, empty files and dirs, files of many pages, a zero page (a hole with -z), links, a fifo. */
function makeTree(root: string, scale = 1): void {
  const lines = Array.from({ length: 12000 * scale }, (_, i) => `entry ${i} = ${(i * 104_729) % 1_000_000}\n`);
  writeTree(root, {
    'bin/sh': '#!/bin/sh\necho cramfs\n',
    empty: '',
    'empty-dir': { dir: true },
    'lib/text': lines.join(''),
    'lib/modules/noise': noise(100_000 * scale, 28),
    'lib/modules/deep/er/sparse': noise(3 * 4096 + 100, 29).fill(0, 4096, 8192),
    'lib/page': noise(4096, 30),
    'bin/text-link': { symlink: '../lib/text' },
    'long-absolute-link': { symlink: '/' + 'x'.repeat(300) },
    fifo: { fifo: true },
    'bin/console': { device: [5, 1] },
  });
}

const CASES: [string, string[], boolean][] = [
  ['little-endian', [], false],
  ['big-endian (-N big)', ['-N', 'big'], false],
  ['big-endian (cramfsswap)', [], true],
  ['boot pad (-p)', ['-p'], false],
  ['holes (-z), big-endian', ['-z', '-N', 'big'], false],
];

for (const [name, args, swap] of CASES) {
  test(`mkfs.cramfs ${args.join(' ')}${swap ? ' | cramfsswap' : ''}: ${name}`, (t) => {
    if (MKFS) return t.skip(MKFS);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'));
      runTool('mkfs.cramfs', [...args, join(dir, 'src'), join(dir, 'fs')]);
      if (swap) runTool('cramfsswap', [join(dir, 'fs'), join(dir, 'fs.swapped')]);
      const image = readFileSync(join(dir, swap ? 'fs.swapped' : 'fs'));
      const framed = Buffer.concat([Buffer.alloc(100, 0xa5), image, Buffer.from('tail')]);
      const { size, entries, problems } = entriesFound(cramfsFormat, framed, 100);
      assert.equal(size, image.length);
      assert.deepEqual(problems, []);
      assertMatchesTree(entries, join(dir, 'src'));
    });
  });
}

test('the boot-padded image is found from its magic 512 bytes in, and not from the superblock itself', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.1);
    runTool('mkfs.cramfs', ['-p', join(dir, 'src'), join(dir, 'fs')]);
    const image = readFileSync(join(dir, 'fs'));
    const magic = cramfsFormat.magics.find((m) => m.at === 512 && m.bytes[0] === image[512])!;
    assert.deepEqual(magic.bytes, [...image.subarray(512, 516)]);
    assert.equal(cramfsFormat.probe(image, 512, readContext()), null);
    assert.equal(cramfsFormat.probe(image, 0, readContext())?.size, image.length);
  });
});

/** A little-endian image whose files use extended block pointers: direct, stored, and mixed with relative. */
function extendedImage(a: Buffer, b: Buffer): Uint8Array {
  const out = Buffer.alloc(64 << 10);
  const inode = (at: number, mode: number, size: number, nameLen: number, offset: number) => {
    out.writeUInt32LE(mode, at);
    out.writeUInt32LE(size, at + 4);
    out.writeUInt32LE(((offset / 4) << 6) | (nameLen / 4), at + 8);
  };
  const page = (buf: Buffer, i: number) => buf.subarray(i * 4096, (i + 1) * 4096);
  // Root's two inodes after the superblock; then each file's pointers and pages.
  inode(76, 0o100644, a.length, 8, 116);
  out.write('direct', 88);
  inode(96, 0o100644, b.length, 8, 116 + 8 + 4096 + 4096);
  out.write('mixed', 108);
  let at = 124;
  out.writeUInt32LE((0xc0000000 | (at / 4)) >>> 0, 116); // direct and stored
  page(a, 0).copy(out, at);
  at += 4096;
  const a1 = deflateSync(page(a, 1));
  out.writeUInt32LE((0x40000000 | (at / 4)) >>> 0, 120); // direct and compressed: length first
  out.writeUInt16LE(a1.length, at);
  a1.copy(out, at + 2);
  at = 116 + 8 + 4096 + 4096 + 8;
  const b0 = deflateSync(page(b, 0));
  out.writeUInt32LE((0x40000000 | (at / 4)) >>> 0, at - 8);
  out.writeUInt16LE(b0.length, at);
  b0.copy(out, at + 2);
  const b1 = deflateSync(page(b, 1));
  b1.copy(out, at + 2 + b0.length);
  out.writeUInt32LE(at + 2 + b0.length + b1.length, at - 4); // relative: where page 1 ends
  const size = (at + 2 + b0.length + b1.length + 4095) & ~4095;
  out.writeUInt32LE(0x28cd3d45, 0);
  out.writeUInt32LE(size, 4);
  out.writeUInt32LE(0x801, 8);
  out.write('Compressed ROMFS', 16);
  out.writeUInt32LE(2, 44);
  inode(64, 0o40755, 40, 0, 76);
  const image = out.subarray(0, size);
  image.writeUInt32LE(crc32(image), 32);
  return image;
}

test('extended block pointers: direct, stored and mixed pages', () => {
  const a = noise(5000, 5);
  const b = Buffer.from('cramfs '.repeat(900));
  const image = extendedImage(a, b);
  const { entries, problems } = entriesFound(cramfsFormat, image);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    entries.map((e) => e.path),
    ['direct', 'mixed'],
  );
  assert.ok(Buffer.from(entries[0]!.data!).equals(a));
  assert.ok(Buffer.from(entries[1]!.data!).equals(b));
});

test('a file bigger than the budget ends in OutputLimitError', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.1);
    runTool('mkfs.cramfs', [join(dir, 'src'), join(dir, 'fs')]);
    assert.throws(() => entriesOf(cramfsFormat, readFileSync(join(dir, 'fs')), 0, null, 1000), OutputLimitError);
  });
});

test('damaged images end fast with only DecodeError or OutputLimitError', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.1);
    runTool('mkfs.cramfs', ['-N', 'big', join(dir, 'src'), join(dir, 'fs')]);
    const image = readFileSync(join(dir, 'fs'));
    assertSurvivesDamage(cramfsFormat, image, {
      random: seededRandom(0x28cd),
      cases: 400,
      maxHits: 6,
      // Half the cases hit the superblock and inodes (the first KiB), the rest anywhere.
      span: (i) => (i % 2 ? 1024 : Infinity),
      budget: (i) => (i % 7 ? 1 << 30 : 5000),
      ms: 2000,
    });
  });
});
