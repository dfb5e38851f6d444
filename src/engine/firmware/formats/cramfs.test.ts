// The cramfs reader against util-linux mkfs.cramfs images (little- and big-endian, boot pad, holes),
// cramfsswap's byte-swapped copies, a hand-built image with extended block pointers (which Debian's
// tools never write), and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { seededRandom } from '../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { Entry, ReadContext } from '../format.js';
import { cramfsFormat } from './cramfs.js';

const MKFS = missingTool('mkfs.cramfs', 'util-linux') ?? missingTool('cramfsswap', 'cramfsswap');

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

/** Nesting, empty files and dirs, files of many pages, a zero page (a hole with -z), links, a fifo. */
function makeTree(root: string, scale = 1): void {
  const rnd = seededRandom(28);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
  for (const d of ['bin', 'lib/modules/deep/er', 'empty-dir']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'bin/sh'), '#!/bin/sh\necho cramfs\n');
  writeFileSync(join(root, 'empty'), '');
  const lines = Array.from({ length: 12000 * scale }, (_, i) => `entry ${i} = ${Math.floor(rnd() * 1e6)}\n`);
  writeFileSync(join(root, 'lib/text'), lines.join(''));
  writeFileSync(join(root, 'lib/modules/noise'), bytes(100_000 * scale));
  const sparse = bytes(3 * 4096 + 100);
  sparse.fill(0, 4096, 8192);
  writeFileSync(join(root, 'lib/modules/deep/er/sparse'), sparse);
  writeFileSync(join(root, 'lib/page'), bytes(4096));
  symlinkSync('../lib/text', join(root, 'bin/text-link'));
  symlinkSync('/' + 'x'.repeat(300), join(root, 'long-absolute-link'));
  runTool('mkfifo', [join(root, 'fifo')]);
  if (process.getuid?.() === 0) runTool('mknod', [join(root, 'bin/console'), 'c', '5', '1']);
}

function wanted(root: string): Map<string, { kind: Entry['kind']; data?: Buffer; target?: string }> {
  const out = new Map<string, { kind: Entry['kind']; data?: Buffer; target?: string }>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, path));
      if (st.isDirectory()) out.set(path, { kind: 'dir' });
      else if (st.isSymbolicLink()) out.set(path, { kind: 'symlink', target: readlinkSync(join(root, path)) });
      else if (st.isFile()) out.set(path, { kind: 'file', data: readFileSync(join(root, path)) });
      else out.set(path, { kind: st.isFIFO() ? 'fifo' : 'device' });
      if (st.isDirectory()) walk(path);
    }
  };
  walk('');
  return out;
}

function assertSameTree(got: Entry[], root: string): void {
  const want = wanted(root);
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys()].sort());
  for (const [path, w] of want) {
    const e = byPath.get(path)!;
    assert.equal(e.kind, w.kind, path);
    if (w.data) assert.ok(Buffer.from(e.data!).equals(w.data), `${path}: bytes differ`);
    assert.equal(e.target, w.target, path);
  }
}

function extract(image: Uint8Array, offset = 0) {
  const probed = cramfsFormat.probe(image, offset, context());
  assert.ok(probed, 'probe finds the image');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems))];
  return { probed, entries, problems };
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
      const { probed, entries, problems } = extract(framed, 100);
      assert.equal(probed.size, image.length);
      assert.deepEqual(problems, []);
      assertSameTree(entries, join(dir, 'src'));
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
    assert.equal(cramfsFormat.probe(image, 512, context()), null);
    assert.equal(cramfsFormat.probe(image, 0, context())?.size, image.length);
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
  const rnd = seededRandom(5);
  const a = Buffer.from(Uint8Array.from({ length: 5000 }, () => Math.floor(rnd() * 256)));
  const b = Buffer.from('cramfs '.repeat(900));
  const image = extendedImage(a, b);
  const { entries, problems } = extract(image);
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
    const probed = cramfsFormat.probe(readFileSync(join(dir, 'fs')), 0, context())!;
    assert.throws(() => [...probed.entries(context([], 1000))], OutputLimitError);
  });
});

test('damaged images end fast with only DecodeError or OutputLimitError', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.1);
    runTool('mkfs.cramfs', ['-N', 'big', join(dir, 'src'), join(dir, 'fs')]);
    const image = readFileSync(join(dir, 'fs'));
    const rnd = seededRandom(0x28cd);
    for (let i = 0; i < 400; i++) {
      let bytes: Uint8Array;
      if (i < 100) bytes = image.subarray(0, Math.floor(rnd() * image.length));
      else {
        bytes = Uint8Array.from(image);
        // Half the cases hit the superblock and inodes (the first KiB), the rest anywhere.
        const span = i % 2 ? 1024 : bytes.length;
        for (let k = 0, n = 1 + Math.floor(rnd() * 6); k < n; k++)
          bytes[Math.floor(rnd() * span)] = Math.floor(rnd() * 256);
      }
      const started = performance.now();
      try {
        const probed = cramfsFormat.probe(bytes, 0, context());
        if (probed) {
          assert.ok(probed.size > 0 && probed.size <= bytes.length);
          for (const e of probed.entries(context([], i % 7 ? 1 << 30 : 5000))) void e;
        }
      } catch (err) {
        if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
      }
      assert.ok(performance.now() - started < 2000, `case ${i} took too long`);
    }
  });
});
