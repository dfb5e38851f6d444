// The JFFS2 reader against images from mtd-utils' mkfs.jffs2 (both byte orders, erase-block sizes,
// compressors, padding, no cleanmarkers, sumtool summaries), hand-built node logs for what mkfs never
// writes (newer versions, deletions, truncation, LZMA, cycles), and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { ContainerFormat, Entry, ReadContext } from '../../format.js';
import { jffs2Format } from './index.js';
import { jffs2Crc, scanNodes } from './nodes.js';

const MKFS = missingTool('mkfs.jffs2', 'mtd-utils');
const XZ = missingTool('xz', 'xz-utils');

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

/** A tree with what a reader gets wrong: nesting, empty files and dirs, pages, links, a fifo. */
function makeTree(root: string, scale = 1): void {
  const rnd = seededRandom(7);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
  for (const d of ['etc/init.d', 'usr/lib/deep/er/still', 'empty-dir']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'etc/hostname'), 'binlens\n');
  writeFileSync(join(root, 'etc/init.d/rcS'), '#!/bin/sh\nmount -a\n');
  writeFileSync(join(root, 'empty'), '');
  const lines = Array.from({ length: 9000 * scale }, (_, i) => `line ${i} ${Math.floor(rnd() * 1000)}\n`);
  writeFileSync(join(root, 'usr/lib/text'), lines.join(''));
  writeFileSync(join(root, 'usr/lib/noise'), bytes(150_000 * scale));
  writeFileSync(join(root, 'usr/lib/deep/er/still/two-pages'), bytes(8192).fill(0x41, 0, 4096));
  symlinkSync('etc/hostname', join(root, 'hostname-link'));
  symlinkSync('/usr/lib/text', join(root, 'absolute-link'));
  symlinkSync('nowhere/at/all', join(root, 'dangling'));
  linkSync(join(root, 'etc/hostname'), join(root, 'etc/hostname-hard'));
  runTool('mkfifo', [join(root, 'etc/fifo')]);
  if (process.getuid?.() === 0) runTool('mknod', [join(root, 'etc/console'), 'c', '5', '1']);
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
      else out.set(path, { kind: st.isFIFO() ? 'fifo' : 'device', ino: st.ino });
    }
  };
  walk('');
  return out;
}

/** Every path, kind, file's bytes and link target as the source tree has them (hard links to a same file). */
function assertSameTree(got: Entry[], root: string): void {
  const want = wanted(root);
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys()].sort());
  for (const [path, w] of want) {
    const e = byPath.get(path)!;
    if (w.kind === 'file' && e.kind === 'hardlink') {
      assert.equal(want.get(e.target!)?.ino, w.ino, `${path} links to ${e.target}`);
      assert.equal(byPath.get(e.target!)?.kind, 'file');
    } else {
      assert.equal(e.kind, w.kind, path);
      if (w.data) assert.ok(Buffer.from(e.data!).equals(w.data), `${path}: bytes differ`);
      assert.equal(e.target, w.target, path);
    }
  }
}

function extract(format: ContainerFormat, image: Uint8Array, offset = 0) {
  const probed = format.probe(image, offset, context());
  assert.ok(probed, 'probe finds the image');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems))];
  return { probed, entries, problems };
}

function mkfs(root: string, out: string, args: string[]): Uint8Array {
  runTool('mkfs.jffs2', ['-r', join(root, 'src'), '-o', out, ...args]);
  return readFileSync(out);
}

const CASES: [string, string[]][] = [
  ['little-endian, zlib and rtime', ['-l']],
  ['big-endian, padded', ['-b', '-p']],
  ['rtime only, 8 KiB erase blocks, padded', ['-x', 'zlib', '-e', '8KiB', '-p']],
  ['zlib only, big-endian, 128 KiB erase blocks', ['-x', 'rtime', '-b', '-e', '128KiB']],
  ['lzo only', ['-X', 'lzo', '-x', 'zlib', '-x', 'rtime']],
  ['uncompressed, no cleanmarkers, padded', ['-m', 'none', '-n', '-p']],
];

for (const [name, args] of CASES) {
  test(`mkfs.jffs2 ${args.join(' ')}: ${name}`, (t) => {
    if (MKFS) return t.skip(MKFS);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'));
      const image = mkfs(dir, join(dir, 'fs.jffs2'), args);
      const { probed, entries, problems } = extract(jffs2Format, image);
      assert.equal(probed.size, image.length);
      assert.deepEqual(problems, []);
      assertSameTree(entries, join(dir, 'src'));
    });
  });
}

test('the compressor cases use the compressors they name', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'));
    const used = (args: string[]) => {
      const image = mkfs(dir, join(dir, 'fs.jffs2'), args);
      const log = scanNodes(image, 0, true);
      return new Set([...log.inodes.values()].flat().map((r) => image[r.at + 56]));
    };
    assert.ok(used(['-x', 'zlib']).has(0x02), 'rtime nodes');
    assert.ok(used(['-X', 'lzo', '-x', 'zlib', '-x', 'rtime']).has(0x07), 'lzo nodes');
    assert.ok(used([]).has(0x06), 'zlib nodes');
  });
});

test('a padded image inside other bytes: its extent runs to the end of its last erase block', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'));
    for (const args of [['-p', '-e', '16KiB'], ['-p', '-n'], []]) {
      const image = mkfs(dir, join(dir, 'fs.jffs2'), args);
      const framed = Buffer.concat([Buffer.alloc(100, 0x5a), image, Buffer.alloc(64 << 10, 0xff), Buffer.from('tail')]);
      const { probed, entries } = extract(jffs2Format, framed, 100);
      const padded = args.includes('-p');
      if (padded) assert.equal(probed.size, image.length, args.join(' '));
      // Unpadded, the erased bytes after it reach the end of the (default 64 KiB) block.
      else assert.equal(probed.size, Math.ceil(image.length / (64 << 10)) * (64 << 10));
      assertSameTree(entries, join(dir, 'src'));
    }
  });
});

test('summary nodes (sumtool) are skipped', (t) => {
  const why = MKFS ?? missingTool('sumtool', 'mtd-utils');
  if (why) return t.skip(why);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'));
    mkfs(dir, join(dir, 'plain.jffs2'), ['-b', '-p']);
    runTool('sumtool', ['-b', '-e', '64KiB', '-i', join(dir, 'plain.jffs2'), '-o', join(dir, 'sum.jffs2')]);
    const image = readFileSync(join(dir, 'sum.jffs2'));
    const { entries, problems } = extract(jffs2Format, image);
    assert.deepEqual(problems, []);
    assertSameTree(entries, join(dir, 'src'));
  });
});

/** Hand-built nodes, for what mkfs.jffs2 never writes. */
class NodeLog {
  private parts: Buffer[] = [];
  constructor(private readonly le: boolean) {}

  private u32(b: Buffer, at: number, v: number) {
    if (this.le) b.writeUInt32LE(v >>> 0, at);
    else b.writeUInt32BE(v >>> 0, at);
  }

  /** A node of `type`, its fields set by `fill`, its node CRC (of the first `crcOf` bytes) at `crcAt`. */
  private node(type: number, size: number, fill: (b: Buffer) => void, crcAt: number, crcOf: number) {
    const b = Buffer.alloc((size + 3) & ~3, 0xff);
    const u16 = (v: number, at: number) => (this.le ? b.writeUInt16LE(v, at) : b.writeUInt16BE(v, at));
    u16(0x1985, 0);
    u16(type, 2);
    this.u32(b, 4, size);
    this.u32(b, 8, jffs2Crc(b.subarray(0, 8)));
    fill(b);
    this.u32(b, crcAt, jffs2Crc(b.subarray(0, crcOf)));
    this.parts.push(b);
    return this;
  }

  dirent(pino: number, version: number, ino: number, type: number, name: string) {
    const n = Buffer.from(name);
    return this.node(
      0xe001,
      40 + n.length,
      (b) => {
        [pino, version, ino].forEach((v, i) => this.u32(b, 12 + 4 * i, v));
        b[28] = n.length;
        b[29] = type;
        b[30] = b[31] = 0;
        n.copy(b, 40);
        this.u32(b, 36, jffs2Crc(n));
      },
      32,
      32,
    );
  }

  inode(o: { ino: number; version: number; mode: number; isize: number; offset?: number; dsize?: number }) {
    return this.data({ ...o, compr: 0, stored: Buffer.alloc(0) });
  }

  data(
    o: { ino: number; version: number; mode: number; isize: number; offset?: number; dsize?: number } & {
      compr: number;
      stored: Uint8Array;
      type?: number;
      badCrc?: boolean;
    },
  ) {
    return this.node(
      o.type ?? 0xe002,
      68 + o.stored.length,
      (b) => {
        b.fill(0, 12, 68);
        [o.ino, o.version, o.mode].forEach((v, i) => this.u32(b, 12 + 4 * i, v));
        this.u32(b, 28, o.isize);
        [o.offset ?? 0, o.stored.length, o.dsize ?? o.stored.length].forEach((v, i) => this.u32(b, 44 + 4 * i, v));
        b[56] = o.compr;
        Buffer.from(o.stored).copy(b, 68);
        this.u32(b, 60, jffs2Crc(o.stored) ^ (o.badCrc ? 1 : 0));
      },
      64,
      60,
    );
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

const REG = 0o100644;
const DIR = 0o040755;

for (const le of [true, false]) {
  test(`node versions, deletions, truncation and cycles (${le ? 'little' : 'big'}-endian)`, () => {
    const text = (s: string) => ({ compr: 0, stored: Buffer.from(s) });
    const log = new NodeLog(le)
      .dirent(1, 1, 2, 8, 'file')
      .data({ ino: 2, version: 1, mode: REG, isize: 8, ...text('AAAAAAAA') })
      .inode({ ino: 2, version: 2, mode: REG, isize: 2 })
      .data({ ino: 2, version: 3, mode: REG, isize: 8, offset: 4, ...text('BBBB') })
      // A newer node whose data CRC fails is left out; an obsolete one (accurate bit clear) is skipped.
      .data({ ino: 2, version: 4, mode: REG, isize: 8, ...text('CCCCCCCC'), badCrc: true })
      .data({ ino: 2, version: 5, mode: REG, isize: 8, ...text('DDDDDDDD'), type: 0xc002 })
      .dirent(1, 2, 3, 8, 'old')
      .data({ ino: 3, version: 1, mode: REG, isize: 3, ...text('abc') })
      .dirent(1, 3, 0, 8, 'old')
      .dirent(1, 4, 3, 8, 'new')
      .dirent(1, 9, 4, 8, 'x')
      .dirent(1, 5, 5, 8, 'x')
      .data({ ino: 4, version: 1, mode: REG, isize: 0, compr: 1, stored: Buffer.alloc(0) })
      .data({
        ino: 4,
        version: 2,
        mode: REG,
        isize: 3000,
        offset: 1000,
        dsize: 2000,
        compr: 1,
        stored: Buffer.alloc(0),
      })
      .data({ ino: 5, version: 1, mode: REG, isize: 1, ...text('5') })
      // A directory that holds itself and the root: each is refused once, nothing loops.
      .dirent(1, 6, 6, 4, 'loop')
      .inode({ ino: 6, version: 1, mode: DIR, isize: 0 })
      .dirent(6, 7, 6, 4, 'self')
      .dirent(6, 8, 1, 4, 'root')
      .dirent(99, 1, 5, 8, 'orphan')
      .bytes();
    const problems: string[] = [];
    const probed = jffs2Format.probe(log, 0, context());
    assert.ok(probed);
    assert.equal(probed.size, log.length);
    const got = [...probed.entries(context(problems))];
    const text2 = (p: string) => Buffer.from(got.find((e) => e.path === p)!.data!).toString('latin1');
    assert.deepEqual(
      got.map((e) => `${e.kind} ${e.path}`),
      ['file file', 'dir loop', 'file new', 'file x'],
    );
    assert.equal(text2('file'), 'AA\0\0BBBB');
    assert.equal(text2('new'), 'abc');
    assert.equal(text2('x'), '\0'.repeat(3000));
    assert.equal(problems.length, 4, problems.join('\n'));
  });
}

test('LZMA nodes (raw LZMA, lc=0 lp=0 pb=0, 8 KiB dictionary, as OpenWrt writes them)', (t) => {
  if (XZ) return t.skip(XZ);
  const text = Buffer.from(Array.from({ length: 900 }, (_, i) => `lzma line ${i}\n`).join(''));
  const log = new NodeLog(false).dirent(1, 1, 2, 8, 'packed');
  for (let offset = 0, version = 1; offset < text.length; offset += 4096, version++) {
    const page = text.subarray(offset, offset + 4096);
    const stored = runTool('xz', ['--format=raw', '--lzma1=lc=0,lp=0,pb=0,dict=8KiB', '-c'], { input: page });
    log.data({ ino: 2, version, mode: REG, isize: text.length, offset, dsize: page.length, compr: 8, stored });
  }
  const problems: string[] = [];
  const got = [...jffs2Format.probe(log.bytes(), 0, context())!.entries(context(problems))];
  assert.deepEqual(problems, []);
  assert.ok(Buffer.from(got[0]!.data!).equals(text));
});

test('an inode bigger than the budget ends in OutputLimitError', () => {
  const log = new NodeLog(true)
    .dirent(1, 1, 2, 8, 'big')
    .data({ ino: 2, version: 1, mode: REG, isize: 1 << 20, dsize: 1 << 20, compr: 1, stored: Buffer.alloc(0) })
    .bytes();
  const probed = jffs2Format.probe(log, 0, context())!;
  assert.throws(() => [...probed.entries(context([], 1000))], OutputLimitError);
});

test('damaged images end fast with only DecodeError or OutputLimitError', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.05);
    const image = mkfs(dir, join(dir, 'fs.jffs2'), ['-e', '8KiB', '-p']);
    const nodes = scanNodes(image, 0, true);
    const starts = [...nodes.dirents.map((d) => d.at), ...[...nodes.inodes.values()].flat().map((r) => r.at)];
    const rnd = seededRandom(1985);
    for (let i = 0; i < 400; i++) {
      let bytes: Uint8Array;
      if (i < 100) bytes = image.subarray(0, Math.floor(rnd() * image.length));
      else {
        bytes = Uint8Array.from(image);
        for (let k = 0, n = 1 + Math.floor(rnd() * 6); k < n; k++)
          bytes[Math.floor(rnd() * bytes.length)] = Math.floor(rnd() * 256);
        // Half the cases damage a node's fields and re-seal its CRCs, so the hostile values get read.
        if (i % 2) reseal(bytes, starts[Math.floor(rnd() * starts.length)]!, rnd);
      }
      const started = performance.now();
      try {
        const probed = jffs2Format.probe(bytes, 0, context());
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

/** Sets one byte of a little-endian node's header fields at random, then recomputes its CRCs. */
function reseal(b: Uint8Array, at: number, rnd: () => number): void {
  const v = new DataView(b.buffer, b.byteOffset);
  const inode = v.getUint16(at + 2, true) === 0xe002;
  b[at + 12 + Math.floor(rnd() * (inode ? 56 : 20))] = Math.floor(rnd() * 256);
  const totlen = v.getUint32(at + 4, true);
  v.setUint32(at + 8, jffs2Crc(b.subarray(at, at + 8)), true);
  const end = Math.min(b.length, at + totlen);
  if (inode) {
    const csize = v.getUint32(at + 48, true);
    v.setUint32(at + 60, jffs2Crc(b.subarray(at + 68, Math.min(end, at + 68 + csize))), true);
    v.setUint32(at + 64, jffs2Crc(b.subarray(at, at + 60)), true);
  } else {
    v.setUint32(at + 36, jffs2Crc(b.subarray(at + 40, Math.min(end, at + 40 + b[at + 28]!))), true);
    v.setUint32(at + 32, jffs2Crc(b.subarray(at, at + 32)), true);
  }
}
