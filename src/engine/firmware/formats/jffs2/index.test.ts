// The JFFS2 reader against images from mtd-utils' mkfs.jffs2 (both byte orders, erase-block sizes,
// compressors, padding, no cleanmarkers, sumtool summaries), hand-built node logs for what mkfs never
// writes (newer versions, deletions, truncation, LZMA, cycles), and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../../test/helpers/firmware/hostile.js';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { assertMatchesTree, writeTree } from '../../../../../test/helpers/firmware/tree.js';
import { entriesFound, entriesOf } from '../../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../../test/helpers/samples.js';
import { OutputLimitError } from '../../compression/errors.js';
import { jffs2Format } from './index.js';
import { jffs2Crc, scanNodes } from './nodes.js';

const MKFS = missingTool('mkfs.jffs2', 'mtd-utils');
const XZ = missingTool('xz', 'xz-utils');

/** A tree with what a reader gets wrong: nesting, empty files and dirs, pages, links, a fifo (a device as root). */
function makeTree(root: string, scale = 1): void {
  const lines = Array.from({ length: 9000 * scale }, (_, i) => `line ${i} ${(i * 7919) % 1000}\n`);
  writeTree(root, {
    'etc/hostname': 'binlens\n',
    'etc/init.d/rcS': '#!/bin/sh\nmount -a\n',
    'empty-dir': { dir: true },
    empty: '',
    'usr/lib/text': lines.join(''),
    'usr/lib/noise': noise(150_000 * scale, 7),
    'usr/lib/deep/er/still/two-pages': noise(8192, 8).fill(0x41, 0, 4096),
    'hostname-link': { symlink: 'etc/hostname' },
    'absolute-link': { symlink: '/usr/lib/text' },
    dangling: { symlink: 'nowhere/at/all' },
    'etc/hostname-hard': { hardlink: 'etc/hostname' },
    'etc/fifo': { fifo: true },
    'etc/console': { device: [5, 1] },
  });
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
      const { size, entries, problems } = entriesFound(jffs2Format, image);
      assert.equal(size, image.length);
      assert.deepEqual(problems, []);
      assertMatchesTree(entries, join(dir, 'src'));
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
      const { size, entries } = entriesFound(jffs2Format, framed, 100);
      const padded = args.includes('-p');
      if (padded) assert.equal(size, image.length, args.join(' '));
      // Unpadded, the erased bytes after it reach the end of the (default 64 KiB) block.
      else assert.equal(size, Math.ceil(image.length / (64 << 10)) * (64 << 10));
      assertMatchesTree(entries, join(dir, 'src'));
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
    const { entries, problems } = entriesFound(jffs2Format, image);
    assert.deepEqual(problems, []);
    assertMatchesTree(entries, join(dir, 'src'));
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
    const { size, entries: got, problems } = entriesFound(jffs2Format, log);
    assert.equal(size, log.length);
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
  const { entries: got, problems } = entriesFound(jffs2Format, log.bytes());
  assert.deepEqual(problems, []);
  assert.ok(Buffer.from(got[0]!.data!).equals(text));
});

test('an inode bigger than the budget ends in OutputLimitError', () => {
  const log = new NodeLog(true)
    .dirent(1, 1, 2, 8, 'big')
    .data({ ino: 2, version: 1, mode: REG, isize: 1 << 20, dsize: 1 << 20, compr: 1, stored: Buffer.alloc(0) })
    .bytes();
  assert.throws(() => entriesOf(jffs2Format, log, 0, null, 1000), OutputLimitError);
});

test('damaged images end fast with only DecodeError or OutputLimitError', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.05);
    const image = mkfs(dir, join(dir, 'fs.jffs2'), ['-e', '8KiB', '-p']);
    const nodes = scanNodes(image, 0, true);
    const starts = [...nodes.dirents.map((d) => d.at), ...[...nodes.inodes.values()].flat().map((r) => r.at)];
    assertSurvivesDamage(jffs2Format, image, {
      random: seededRandom(1985),
      cases: 400,
      maxHits: 6,
      budget: (i) => (i % 7 ? 1 << 30 : 5000),
      ms: 2000,
      // Half the cases damage a node's fields and re-seal its CRCs, so the hostile values get read.
      after: (bytes, i, next) => {
        if (i % 2) reseal(bytes, starts[Math.floor(next() * starts.length)]!, next);
      },
    });
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
