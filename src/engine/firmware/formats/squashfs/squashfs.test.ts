// Images built by mksquashfs (squashfs-tools) from a tree made here, read back and compared with the tree
// byte for byte: every compressor, several block sizes, stored/fragment-less variants, all 14 inode types,
// and a big-endian twin of a little-endian image made by byte-swapping every field of its structures.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { assertMatchesTree, writeTree } from '../../../../../test/helpers/firmware/tree.js';
import { entriesFound, entriesOf, readContext } from '../../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../../test/helpers/samples.js';
import { OutputLimitError } from '../../compression/errors.js';
import type { EntryKind } from '../../format.js';
import { COMPRESSORS } from './compressors.js';
import { squashfsFormat } from './index.js';

const noTool = missingTool('mksquashfs', 'squashfs-tools');

/** Text that compresses about 3:1 (words drawn at random), as binaries and configs do. */
function wordy(bytes: (n: number) => Uint8Array, n: number): Uint8Array {
  const words = ['busybox', 'httpd', 'libc.so.0', 'nvram', 'wan_proto', 'dhcp', '\n', ' ', '0x00', 'eth0'];
  const parts: string[] = [];
  let size = 0;
  for (const r of bytes(n)) {
    const w = words[r % words.length]!;
    parts.push(w);
    size += w.length;
    if (size >= n) break;
  }
  return Buffer.from(parts.join('')).subarray(0, n);
}

/** Device, fifo and socket entries given to mksquashfs as pseudo definitions (no root needed). */
const PSEUDO = ['dev/null c 666 0 0 1 3', 'dev/sda b 660 0 0 8 0', 'dev/fifo i 644 0 0 f', 'dev/sock i 600 0 0 s'];
const PSEUDO_KINDS: Record<string, [EntryKind, number]> = {
  'dev/null': ['device', 0o666],
  'dev/sda': ['device', 0o660],
  'dev/fifo': ['fifo', 0o644],
  'dev/sock': ['socket', 0o600],
};

/** A firmware-like tree whose file sizes sit on and around `blockSize`'s boundaries. */
function makeTree(root: string, blockSize: number): void {
  let seed = blockSize;
  const bytes = (n: number) => noise(n, seed++);
  // Sparse: whole blocks of zeros are stored as size word 0, whatever the source's holes.
  const holes = Buffer.alloc(5 * blockSize + 100);
  holes.set(bytes(blockSize + 7));
  holes.set(bytes(100), 3 * blockSize + 5);
  let deep = 'deep';
  for (let i = 1; i <= 40; i++) deep += `/d${i}`;
  // 600 entries of 28-byte names: several 256-entry runs and a listing past one 8 KiB metadata block.
  const many = Array.from({ length: 600 }, (_, i) => [
    `many/entry-with-a-long-name-${String(i).padStart(4, '0')}`,
    `${i}\n`,
  ]);
  writeTree(root, {
    empty: '',
    'etc/hostname': 'router\n',
    'etc/passwd': { data: 'root:x:0:0:root:/root:/bin/sh\n', mode: 0o600 },
    'bin/busybox': { data: wordy(bytes, 200_000), mode: 0o4755 },
    'lib/random.bin': bytes(300_000),
    'block/exact': bytes(blockSize),
    'block/plus-one': bytes(blockSize + 1),
    'block/minus-one': wordy(bytes, blockSize - 1),
    'block/three': wordy(bytes, 3 * blockSize),
    'sparse/holes': holes,
    'sparse/all-zero': Buffer.alloc(3 * blockSize + 100),
    [`${deep}/leaf`]: 'bottom\n',
    'bin/sh': { symlink: 'busybox' },
    'abs-link': { symlink: '/etc/passwd' },
    dangling: { symlink: 'no/such/file' },
    'dir-link': { symlink: 'etc' },
    'bin/ls': { hardlink: 'bin/busybox' },
    'etc/hostname.bak': { hardlink: 'etc/hostname' },
    ...Object.fromEntries(many),
    'names/ünïcødé ✓': 'utf-8\n',
    'names/with space': 'space\n',
    private: { dir: true, mode: 0o700 },
    dev: { dir: true },
  });
}

/** The image's entries, problems, extent and description. */
function readImage(data: Uint8Array) {
  const read = entriesFound(squashfsFormat, data);
  return { ...read, description: read.description ?? '' };
}

/** Builds an image of a fresh tree (`blockSize`) with `options`, and checks the reader against it. */
function roundTrip(options: string[], blockSize = 128 << 10) {
  return inTempDir((dir) => {
    const src = join(dir, 'src');
    makeTree(src, blockSize);
    const image = join(dir, 'image.sqfs');
    const pseudo = PSEUDO.flatMap((p) => ['-p', p]);
    runTool('mksquashfs', [src, image, '-noappend', '-quiet', '-b', String(blockSize), ...pseudo, ...options]);
    const data = readFileSync(image);
    const read = readImage(data);
    assert.deepEqual(read.problems, []);
    assertMatchesTree(read.entries, src, { modes: true, pseudo: PSEUDO_KINDS });
    assert.equal(read.size, data.length, 'the chunk is the whole padded image');
    const links = read.entries.filter((e) => e.kind === 'hardlink').length;
    assert.equal(links, options.includes('-no-hardlinks') ? 0 : 2);
    return read;
  });
}

for (const [id, { name }] of Object.entries(COMPRESSORS)) {
  test(`squashfs: ${name} image (compressor ${id}) reads back as its tree`, (t) => {
    if (noTool) return t.skip(noTool);
    const read = roundTrip(['-comp', name]);
    assert.match(read.description, new RegExp(`little endian\\), ${name},`));
  });
}

for (const blockSize of [4 << 10, 64 << 10, 1 << 20]) {
  test(`squashfs: ${blockSize >> 10} KiB blocks`, (t) => {
    if (noTool) return t.skip(noTool);
    assert.match(roundTrip([], blockSize).description, new RegExp(`${blockSize >> 10} KiB blocks`));
  });
}

const VARIANTS: Record<string, string[]> = {
  'everything stored (-noI -noD -noF)': ['-noI', '-noD', '-noF'],
  'no fragments': ['-no-fragments'],
  'fragments for every tail': ['-always-use-fragments'],
  'no sparse detection, no duplicate merging': ['-no-sparse', '-no-duplicates'],
  'no hard links kept': ['-no-hardlinks'],
  'gzip options stored after the superblock': ['-Xcompression-level', '1', '-Xwindow-size', '10'],
  'xz with the x86 BCJ filter': ['-comp', 'xz', '-Xbcj', 'x86'],
  'lz4 high compression': ['-comp', 'lz4', '-Xhc'],
};
for (const [what, options] of Object.entries(VARIANTS)) {
  test(`squashfs: ${what}`, (t) => {
    if (noTool) return t.skip(noTool);
    roundTrip(options);
  });
}

/** A tree with every inode type in basic and extended form (xattrs make them extended): root only. */
function allTypesImage(dir: string, options: string[] = []): { src: string; data: Uint8Array } {
  const src = join(dir, 'src');
  mkdirSync(src);
  for (const n of [1, 2]) {
    mkdirSync(join(src, `d${n}`));
    writeFileSync(join(src, `r${n}`), `regular ${n}\n`);
    symlinkSync(`r${n}`, join(src, `l${n}`));
    runTool('mknod', [join(src, `b${n}`), 'b', '8', String(n)]);
    runTool('mknod', [join(src, `c${n}`), 'c', '1', String(n)]);
    runTool('mknod', [join(src, `f${n}`), 'p']);
    runTool('python3', [
      '-c',
      `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(join(src, `s${n}`))})`,
    ]);
  }
  for (const p of ['d2', 'r2', 'l2', 'b2', 'c2', 'f2', 's2'])
    runTool('setfattr', ['-h', '-n', 'trusted.binlens', '-v', 'x', join(src, p)]);
  const image = join(dir, 'types.sqfs');
  runTool('mksquashfs', [src, image, '-noappend', '-quiet', ...options]);
  return { src, data: readFileSync(image) };
}

const allTypesMissing = () =>
  noTool ??
  missingTool('setfattr', 'attr') ??
  missingTool('python3', 'python3') ??
  (process.getuid?.() === 0 ? null : 'devices and trusted.* xattrs need root');

test('squashfs: all 14 inode types (basic and extended)', (t) => {
  const why = allTypesMissing();
  if (why) return t.skip(why);
  inTempDir((dir) => {
    const { src, data } = allTypesImage(dir);
    const read = readImage(data);
    assert.deepEqual(read.problems, []);
    assertMatchesTree(read.entries, src, { modes: true });
  });
});

/** A metadata table of stored blocks as one stream: fields are read and byte-reversed at stream offsets. */
function storedStream(le: Uint8Array, be: Uint8Array, start: number, end: number) {
  const spans: { at: number; from: number; size: number }[] = [];
  let length = 0;
  for (let at = start; at < end;) {
    const header = le[at]! | (le[at + 1]! << 8);
    assert.ok(header & 0x8000, `metadata block at ${at} is stored`);
    be.set([le[at + 1]!, le[at]!], at);
    spans.push({ at: at + 2, from: length, size: header & 0x7fff });
    length += header & 0x7fff;
    at += 2 + (header & 0x7fff);
  }
  const abs = (i: number) => {
    const s = spans.find((x) => i >= x.from && i < x.from + x.size)!;
    return s.at + i - s.from;
  };
  return {
    length,
    read(i: number, n: number): number {
      let x = 0;
      for (let k = n - 1; k >= 0; k--) x = x * 256 + le[abs(i + k)]!;
      return x;
    },
    /** Reverses the fields of `widths` from `i` (they may straddle blocks); returns the offset after them. */
    flip(i: number, widths: number[]): number {
      for (const n of widths) {
        for (let k = 0; k < n; k++) be[abs(i + k)] = le[abs(i + n - 1 - k)]!;
        i += n;
      }
      return i;
    },
  };
}

/**
 * The big-endian twin of a little-endian image whose metadata blocks are all stored (-noI -noF): every
 * field of the superblock, the inode and directory tables and the fragment, export and id tables reversed
 * in place. Data blocks are byte streams and stay; so do xattrs, which the reader skips.
 */
function toBigEndian(le: Uint8Array): { be: Uint8Array; inodeTypes: Set<number> } {
  const be = Uint8Array.from(le);
  const v = new DataView(le.buffer, le.byteOffset, le.byteLength);
  const flip = (at: number, n: number) => be.set(Array.from(le.subarray(at, at + n)).reverse(), at);
  const u64 = (at: number) => Number(v.getBigUint64(at, true));
  for (const at of [0, 4, 8, 12, 16]) flip(at, 4);
  for (let at = 20; at < 32; at += 2) flip(at, 2);
  for (let at = 32; at < 96; at += 8) flip(at, 8);
  assert.equal(v.getUint16(24, true) & 0x400, 0, 'no compressor options block');
  const blockSize = v.getUint32(12, true);
  /** Swaps a lookup table (index of u64 block addresses, stored blocks of entries); returns its first block. */
  const lookup = (indexAt: number, count: number, widths: number[]) => {
    const perBlock = 8192 / widths.reduce((a, b) => a + b);
    let first = indexAt;
    for (let k = 0; k * perBlock < count; k++) {
      const at = u64(indexAt + 8 * k);
      flip(indexAt + 8 * k, 8);
      first = Math.min(first, at);
      const entries = storedStream(le, be, at, at + 2 + (v.getUint16(at, true) & 0x7fff));
      for (let p = 0; p < entries.length;) p = entries.flip(p, widths);
    }
    return first;
  };
  const tableStarts = [lookup(u64(80), v.getUint32(16, true), [8, 4, 4]), lookup(u64(48), v.getUint16(26, true), [4])];
  if (v.getBigUint64(88, true) !== 0xffffffffffffffffn) tableStarts.push(lookup(u64(88), v.getUint32(4, true), [8]));

  const inodeTypes = new Set<number>();
  const inodes = storedStream(le, be, u64(64), u64(72));
  for (let p = 0; p < inodes.length;) {
    const type = inodes.read(p, 2);
    inodeTypes.add(type);
    p = inodes.flip(p, [2, 2, 2, 2, 4, 4]);
    if (type === 1) p = inodes.flip(p, [4, 4, 2, 2, 4]);
    else if (type === 8) {
      const indexCount = inodes.read(p + 16, 2);
      p = inodes.flip(p, [4, 4, 4, 4, 2, 2, 4]);
      for (let i = 0; i < indexCount; i++) {
        const nameSize = inodes.read(p + 8, 4) + 1;
        p = inodes.flip(p, [4, 4, 4]) + nameSize;
      }
    } else if (type === 2 || type === 9) {
      const ext = type === 9;
      const size = inodes.read(p + (ext ? 8 : 12), ext ? 8 : 4);
      const fragment = inodes.read(p + (ext ? 28 : 4), 4);
      p = inodes.flip(p, ext ? [8, 8, 8, 4, 4, 4, 4] : [4, 4, 4, 4]);
      const blocks = (fragment === 0xffffffff ? Math.ceil : Math.floor)(size / blockSize);
      p = inodes.flip(p, new Array<number>(blocks).fill(4));
    } else if (type === 3 || type === 10) {
      p = inodes.flip(p, [4, 4]) + inodes.read(p + 4, 4);
      if (type === 10) p = inodes.flip(p, [4]);
    } else p = inodes.flip(p, new Array<number>({ 4: 2, 5: 2, 6: 1, 7: 1, 11: 3, 12: 3, 13: 2, 14: 2 }[type]!).fill(4));
  }
  const dirs = storedStream(le, be, u64(72), Math.min(...tableStarts));
  for (let p = 0; p < dirs.length;) {
    const count = dirs.read(p, 4) + 1;
    p = dirs.flip(p, [4, 4, 4]);
    for (let i = 0; i < count; i++) p = dirs.flip(p, [2, 2, 2, 2]) + dirs.read(p + 6, 2) + 1;
  }
  return { be, inodeTypes };
}

test('squashfs: a big-endian twin (every field byte-swapped) reads as the little-endian image does', (t) => {
  const why = allTypesMissing();
  if (why) return t.skip(why);
  inTempDir((dir) => {
    const big = join(dir, 'big');
    makeTree(big, 4096);
    const image = join(dir, 'big.sqfs');
    // Stored metadata keeps every structure where it was, so swapping fields in place leaves offsets valid.
    runTool('mksquashfs', [big, image, '-noappend', '-quiet', '-b', '4096', '-noI', '-noF']);
    const seen = new Set<number>();
    for (const le of [readFileSync(image), allTypesImage(dir, ['-noI', '-noF']).data]) {
      const { be, inodeTypes } = toBigEndian(le);
      for (const type of inodeTypes) seen.add(type);
      assert.ok(!Buffer.from(be).equals(le));
      const a = readImage(le);
      const b = readImage(be);
      assert.match(b.description, /big endian/);
      assert.deepEqual(b.problems, []);
      assert.deepEqual(b.entries, a.entries);
    }
    assert.deepEqual(
      [...seen].sort((x, y) => x - y),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
    );
  });
});

test('squashfs: found inside a larger image; the chunk ends at bytes_used without -nopad padding', (t) => {
  if (noTool) return t.skip(noTool);
  inTempDir((dir) => {
    writeFileSync(join(dir, 'f'), 'x'.repeat(5000));
    for (const [pad, options] of [
      [true, []],
      [false, ['-nopad']],
    ] as const) {
      runTool('mksquashfs', [join(dir, 'f'), join(dir, 'i'), '-noappend', '-quiet', ...options]);
      const image = readFileSync(join(dir, 'i'));
      const host = new Uint8Array(1000 + image.length + 300).fill(0xa5);
      host.set(image, 1000);
      const probed = squashfsFormat.probe(host, 1000, readContext())!;
      const bytesUsed = Number(image.readBigUInt64LE(40));
      assert.equal(probed.size, pad ? image.length : bytesUsed);
      assert.equal(pad, image.length % 4096 === 0 && image.length > bytesUsed);
      const entries = [...probed.entries(readContext())];
      assert.deepEqual(
        entries.map((e) => [e.path, Buffer.from(e.data!).toString()]),
        [['f', 'x'.repeat(5000)]],
      );
    }
  });
});

test('squashfs: directories nested past 64 levels are left out with a problem', (t) => {
  if (noTool) return t.skip(noTool);
  inTempDir((dir) => {
    let path = join(dir, 'src');
    for (let i = 1; i <= 70; i++) path = join(path, 'd');
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, 'bottom'), 'x');
    runTool('mksquashfs', [join(dir, 'src'), join(dir, 'i'), '-noappend', '-quiet']);
    const read = readImage(readFileSync(join(dir, 'i')));
    const depths = read.entries.map((e) => e.path.split('/').length);
    assert.equal(Math.max(...depths), 65);
    assert.equal(read.problems.length, 1);
    assert.match(read.problems[0]!, /nested past 64 levels/);
  });
});

test('squashfs: a file larger than the budget ends as OutputLimitError', (t) => {
  if (noTool) return t.skip(noTool);
  inTempDir((dir) => {
    writeFileSync(join(dir, 'f'), Buffer.alloc(100_000, 7));
    runTool('mksquashfs', [join(dir, 'f'), join(dir, 'i'), '-noappend', '-quiet']);
    assert.throws(() => entriesOf(squashfsFormat, readFileSync(join(dir, 'i')), 0, null, 50_000), OutputLimitError);
  });
});

test('squashfs: probe refuses what is not a consistent 4.0 superblock', (t) => {
  if (noTool) return t.skip(noTool);
  inTempDir((dir) => {
    writeFileSync(join(dir, 'f'), 'x');
    runTool('mksquashfs', [join(dir, 'f'), join(dir, 'i'), '-noappend', '-quiet']);
    const good = readFileSync(join(dir, 'i'));
    assert.ok(squashfsFormat.probe(good, 0, readContext()));
    const patched = (at: number, bytes: number[]) => {
      const b = Buffer.from(good);
      b.set(bytes, at);
      return b;
    };
    const cases: [string, Uint8Array][] = [
      ['version 3.1', patched(28, [3, 0, 1, 0])],
      ['block_log not matching block_size', patched(22, [16, 0])],
      ['block size 2 MiB', patched(12, [0, 0, 0x20, 0, 21, 0])],
      ['compressor 9', patched(20, [9, 0])],
      ['bytes_used past the data', patched(40, [0, 0, 0, 1])],
      ['directory table before the inode table', patched(72, [0x60, 0, 0, 0, 0, 0, 0, 0])],
      ['truncated', good.subarray(0, Number(good.readBigUInt64LE(40)) - 1)],
      ['only the magic', Buffer.from('hsqs')],
    ];
    for (const [what, data] of cases) assert.equal(squashfsFormat.probe(data, 0, readContext()), null, what);
  });
});
