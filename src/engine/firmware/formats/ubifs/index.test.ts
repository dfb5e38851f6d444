// The UBIFS reader against images from mtd-utils' mkfs.ubifs (every compressor, other LEB and I/O sizes),
// a damaged master copy, an image inside other bytes, the budget, and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32Update } from '../../../fuzzy/crc32.js';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool, toolPath } from '../../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { Entry, ReadContext } from '../../format.js';
import { ubifsFormat } from './index.js';

const MKFS = missingTool('mkfs.ubifs', 'mtd-utils');
const LEB = 126976;

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

/** A tree with what a reader gets wrong: nesting, empty files and dirs, several-MB files, holes, links. */
function makeTree(root: string, scale = 1): void {
  const rnd = seededRandom(31);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
  for (const d of ['etc/init.d', 'usr/lib/deep/er/still/deeper', 'empty-dir'])
    mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'etc/hostname'), 'binlens\n');
  writeFileSync(join(root, 'etc/init.d/rcS'), '#!/bin/sh\nmount -a\n');
  writeFileSync(join(root, 'empty'), '');
  const lines = Array.from({ length: Math.ceil(90_000 * scale) }, (_, i) => `line ${i} ${Math.floor(rnd() * 1e6)}\n`);
  writeFileSync(join(root, 'usr/lib/text'), lines.join(''));
  writeFileSync(join(root, 'usr/lib/noise'), bytes(Math.ceil(2_000_000 * scale)));
  // Whole zero blocks between data: mkfs.ubifs writes no node for them (a hole).
  const holes = bytes(5 * 4096 + 100);
  holes.fill(0, 4096, 3 * 4096);
  writeFileSync(join(root, 'usr/lib/deep/er/still/holes'), holes);
  writeFileSync(join(root, 'usr/lib/deep/er/still/deeper/one-block'), bytes(4096));
  symlinkSync('etc/hostname', join(root, 'hostname-link'));
  symlinkSync('/usr/lib/text', join(root, 'absolute-link'));
  symlinkSync('nowhere/at/all', join(root, 'dangling'));
  symlinkSync('x'.repeat(300), join(root, 'long-link'));
  linkSync(join(root, 'etc/hostname'), join(root, 'etc/hostname-hard'));
  linkSync(join(root, 'usr/lib/noise'), join(root, 'noise-hard'));
  runTool('mkfifo', [join(root, 'etc/fifo')]);
  if (process.getuid?.() === 0) runTool('mknod', [join(root, 'etc/console'), 'c', '5', '1']);
  if (toolPath('python3'))
    runTool('python3', [
      '-c',
      'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])',
      join(root, 'sock'),
    ]);
}

interface Want {
  kind: Entry['kind'];
  ino: number;
  data?: Buffer;
  target?: string;
}

function wanted(root: string): Map<string, Want> {
  const out = new Map<string, Want>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const full = join(root, path);
      const st = lstatSync(full);
      if (st.isDirectory()) {
        out.set(path, { kind: 'dir', ino: st.ino });
        walk(path);
      } else if (st.isSymbolicLink()) out.set(path, { kind: 'symlink', ino: st.ino, target: readlinkSync(full) });
      else if (st.isFile()) out.set(path, { kind: 'file', ino: st.ino, data: readFileSync(full) });
      else out.set(path, { kind: st.isFIFO() ? 'fifo' : st.isSocket() ? 'socket' : 'device', ino: st.ino });
    }
  };
  walk('');
  return out;
}

/** Every path, kind, file's bytes and link target as the source tree has them (hard links to a same file). */
function assertSameTree(got: Entry[], root: string): void {
  const want = wanted(root);
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.equal(byPath.size, got.length, 'no path twice');
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys()].sort());
  let hardlinks = 0;
  for (const [path, w] of want) {
    const e = byPath.get(path)!;
    if (w.kind === 'file' && e.kind === 'hardlink') {
      hardlinks++;
      assert.equal(want.get(e.target!)?.ino, w.ino, `${path} links to ${e.target}`);
      assert.equal(byPath.get(e.target!)?.kind, 'file');
    } else {
      assert.equal(e.kind, w.kind, path);
      if (w.data) assert.ok(Buffer.from(e.data!).equals(w.data), `${path}: bytes differ`);
      assert.equal(e.target, w.target, path);
    }
  }
  assert.equal(hardlinks, 2, 'both hard links come out as hardlink entries');
}

function extract(image: Uint8Array, offset = 0, budget = 1 << 30) {
  const probed = ubifsFormat.probe(image, offset, context());
  assert.ok(probed, 'probe finds the image');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems, budget))];
  return { probed, entries, problems };
}

function mkfs(dir: string, args: string[]): Buffer {
  const out = join(dir, 'fs.ubifs');
  runTool('mkfs.ubifs', ['-r', join(dir, 'src'), '-o', out, ...args]);
  return readFileSync(out);
}

/** Data nodes by compressor (the u16 at 44 of node type 1), found by walking every 8-aligned magic. */
function compressorsUsed(image: Uint8Array): Set<number> {
  const used = new Set<number>();
  const hay = Buffer.from(image);
  for (let at = hay.indexOf(MAGIC); at >= 0; at = hay.indexOf(MAGIC, at + 1))
    if (at % 8 === 0 && image[at + 20] === 1) used.add(image[at + 44]!);
  return used;
}
const MAGIC = Buffer.from([0x31, 0x18, 0x10, 0x06]);

const CASES: [string, string[], number][] = [
  ['lzo (the default)', ['-x', 'lzo'], 1],
  ['zlib (raw deflate)', ['-x', 'zlib'], 2],
  ['zstd', ['-x', 'zstd'], 3],
  ['uncompressed', ['-x', 'none'], 0],
];

for (const [name, args, compr] of CASES) {
  test(`mkfs.ubifs -m 2048 -e 126976 ${args.join(' ')}: ${name}`, (t) => {
    if (MKFS) return t.skip(MKFS);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'));
      const image = mkfs(dir, ['-m', '2048', '-e', String(LEB), '-c', '200', ...args]);
      assert.ok(compressorsUsed(image).has(compr), `data nodes use compressor ${compr}`);
      const { probed, entries, problems } = extract(image);
      assert.equal(probed.size, image.length);
      assert.deepEqual(problems, []);
      assertSameTree(entries, join(dir, 'src'));
    });
  });
}

test('other geometries: 512-byte pages with 15.5 KiB LEBs, 4 KiB pages with 248 KiB LEBs, fanout 3', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.2);
    for (const args of [
      ['-m', '512', '-e', '15872', '-c', '1000', '-x', 'favor_lzo'],
      ['-m', '4096', '-e', '253952', '-c', '100', '-f', '3'],
    ]) {
      const image = mkfs(dir, args);
      const { entries, problems } = extract(image);
      assert.deepEqual(problems, [], args.join(' '));
      assertSameTree(entries, join(dir, 'src'));
    }
  });
});

test('inside other bytes: found at its offset, its extent its LEBs', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.1);
    const image = mkfs(dir, ['-m', '2048', '-e', String(LEB), '-c', '200']);
    const framed = Buffer.concat([Buffer.alloc(4096, 0x5a), image, Buffer.from('trailing bytes')]);
    const { probed, entries } = extract(framed, 4096);
    assert.equal(probed.size, image.length);
    assertSameTree(entries, join(dir, 'src'));
  });
});

/** Recomputes the CRC of the node at `at` (its length at +16) after its bytes were changed. */
function reseal(b: Uint8Array, at: number): void {
  const v = new DataView(b.buffer, b.byteOffset);
  const len = v.getUint32(at + 16, true);
  if (len < 24 || at + len > b.length) return;
  v.setUint32(at + 4, crc32Update(-1, b.subarray(at + 8, at + len)) >>> 0, true);
}

const flip = (b: Uint8Array, at: number) => (b[at] = b[at]! ^ 0xff);

/** Where the master nodes (type 7) are. */
const masters = (image: Uint8Array) => {
  const out: number[] = [];
  for (let at = 0; at < 3 * LEB; at += 8)
    if (MAGIC.equals(image.subarray(at, at + 4)) && image[at + 20] === 7) out.push(at);
  return out;
};

test('master nodes: a damaged copy is passed over; with both gone the image is unreadable', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.1);
    const image = mkfs(dir, ['-m', '2048', '-e', String(LEB), '-c', '200']);
    assert.equal(masters(image).length, 2);
    const [first, second] = masters(image) as [number, number];
    assert.ok(first < LEB * 2 && second >= LEB * 2);
    const one = Uint8Array.from(image);
    flip(one, first + 60);
    assertSameTree(extract(one).entries, join(dir, 'src'));
    // A newer master (higher sqnum) pointing at nothing wins over the good one, so the root is missing.
    const newer = Uint8Array.from(image);
    newer.copyWithin(second + 512, second, second + 512);
    new DataView(newer.buffer).setUint32(second + 512 + 8, 0xffff, true);
    new DataView(newer.buffer).setUint32(second + 512 + 52, 8, true);
    reseal(newer, second + 512);
    assert.throws(() => extract(newer), DecodeError);
    const none = Uint8Array.from(image);
    flip(none, first + 60);
    flip(none, second + 60);
    const probed = ubifsFormat.probe(none, 0, context());
    assert.match(probed!.description!, /no valid master/);
    assert.throws(() => [...probed!.entries(context())], DecodeError);
  });
});

test('a file bigger than the budget ends in OutputLimitError', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/big'), Buffer.alloc(1 << 20, 1));
    const image = mkfs(dir, ['-m', '2048', '-e', String(LEB), '-c', '200']);
    assert.throws(() => extract(image, 0, 1000), OutputLimitError);
  });
});

test('damaged images end fast with only DecodeError, OutputLimitError or problems', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.02);
    const image = mkfs(dir, ['-m', '512', '-e', '15872', '-c', '400']);
    const nodes: number[] = [];
    for (let at = image.indexOf(MAGIC); at >= 0; at = image.indexOf(MAGIC, at + 1)) if (at % 8 === 0) nodes.push(at);
    const rnd = seededRandom(0x06101831);
    for (let i = 0; i < 400; i++) {
      let bytes: Uint8Array;
      if (i < 100) bytes = image.subarray(0, Math.floor(rnd() * image.length));
      else {
        bytes = Uint8Array.from(image);
        for (let k = 0, n = 1 + Math.floor(rnd() * 6); k < n; k++)
          bytes[Math.floor(rnd() * bytes.length)] = Math.floor(rnd() * 256);
        // Most cases damage a node's fields and re-seal its CRC, so the hostile values get read.
        if (i % 4) {
          const at = nodes[Math.floor(rnd() * nodes.length)]!;
          const len = new DataView(bytes.buffer).getUint32(at + 16, true);
          bytes[at + 8 + Math.floor(rnd() * Math.min(160, len - 8))] = Math.floor(rnd() * 256);
          reseal(bytes, at);
        }
      }
      const started = performance.now();
      try {
        const probed = ubifsFormat.probe(bytes, 0, context());
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
