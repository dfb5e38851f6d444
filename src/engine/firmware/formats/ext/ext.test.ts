// ext2/3/4 images built by genext2fs and mke2fs -d (e2fsprogs) from a tree made here, read back and
// compared with the tree byte for byte: block sizes 1–64 KiB, block maps and extent trees, 32- and 64-bit
// descriptors, meta_bg, bigalloc, 128-byte inodes, inline data, htree directories (e2fsck -D),
// uninitialised extents (debugfs fallocate), sparse files, every link and node kind, an image inside
// other bytes.
import assert from 'node:assert/strict';
import {
  chmodSync,
  closeSync,
  linkSync,
  openSync,
  writeSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
} from 'node:fs';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { OutputLimitError } from '../../compression/errors.js';
import type { Entry, EntryKind, ReadContext } from '../../format.js';
import { extFormat } from './index.js';

const MKE2FS = missingTool('mke2fs', 'e2fsprogs');
const GENEXT2FS = missingTool('genext2fs', 'genext2fs');
const ROOT = process.getuid?.() === 0;
const MiB = 1 << 20;

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

/** Nested and empty dirs, a 255-byte name, empty, random and sparse files, links of all kinds, nodes. */
function makeTree(root: string, far = false): void {
  const rnd = seededRandom(0xe4);
  const bytes = (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = rnd() * 256;
    return out;
  };
  const file = (path: string, data: Uint8Array | string, mode = 0o644) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), data);
    chmodSync(join(root, path), mode);
  };
  file('etc/motd', 'ext\n');
  file('etc/shadow', 'root:*:0:0:::::\n', 0o600);
  file('etc/empty', '');
  file('bin/busybox', bytes(3 * MiB + 123), 0o4755);
  file(`share/${'n'.repeat(255)}`, 'a name of 255 bytes\n');
  file(`${'d/'.repeat(12)}leaf`, 'twelve levels down\n');
  file('inline/fits', 'x'.repeat(50));
  file('inline/overflows', bytes(120));
  mkdirSync(join(root, 'empty-dir'));
  for (let i = 0; i < 400; i++) file(`big-dir/entry-with-a-fairly-long-name-${i}`, `${i}\n`);
  // Several MB with holes: data at 0, in the middle, at the end; whole blocks of zeros become holes too.
  const sparse = join(root, 'sparse');
  writeFileSync(sparse, bytes(5000));
  truncateSync(sparse, 6 * MiB + 17);
  const holes = Buffer.from(readFileSync(sparse));
  holes.set(bytes(70_000), 3 * MiB + 5);
  holes.set(bytes(17), 6 * MiB);
  writeFileSync(sparse, holes);
  writeFileSync(join(root, 'zeros'), '');
  truncateSync(join(root, 'zeros'), 200_000);
  if (far) {
    // With 1 KiB blocks, block maps reach past 64 MiB only through the triple-indirect block.
    writeFileSync(join(root, 'far'), '');
    truncateSync(join(root, 'far'), 65 * MiB);
    const fd = openSync(join(root, 'far'), 'r+');
    writeSync(fd, 'the end', 65 * MiB - 7);
    closeSync(fd);
  }
  linkSync(join(root, 'etc/motd'), join(root, 'motd-hard'));
  symlinkSync('../etc/motd', join(root, 'share/fast-link'));
  symlinkSync(`/${'long/'.repeat(30)}target`, join(root, 'slow-link'));
  symlinkSync('/missing', join(root, 'dangling'));
  mkdirSync(join(root, 'dev'));
  runTool('mkfifo', [join(root, 'dev/fifo')]);
  if (ROOT) runTool('mknod', [join(root, 'dev/null'), 'c', '1', '3']);
  if (ROOT) runTool('mknod', [join(root, 'dev/sda'), 'b', '8', '0']);
}

interface Want {
  kind: EntryKind;
  ino: number;
  mode: number;
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
      const base = { ino: st.ino, mode: st.mode & 0o7777 };
      if (st.isDirectory()) {
        out.set(path, { kind: 'dir', ...base });
        walk(path);
      } else if (st.isSymbolicLink()) out.set(path, { kind: 'symlink', ...base, target: readlinkSync(full) });
      else if (st.isFile()) out.set(path, { kind: 'file', ...base, data: readFileSync(full) });
      else out.set(path, { kind: st.isFIFO() ? 'fifo' : 'device', ...base });
    }
  };
  walk('');
  return out;
}

/** Paths, kinds, modes, bytes and targets as in the tree (plus mke2fs's lost+found); hard links by inode. */
function assertSameTree(got: Entry[], root: string): void {
  const want = wanted(root);
  want.set('lost+found', { kind: 'dir', ino: -1, mode: 0o700 });
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.equal(byPath.size, got.length, 'no path given twice');
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys()].sort());
  let hardLinks = 0;
  for (const [path, w] of want) {
    const e = byPath.get(path)!;
    if (w.kind === 'file' && e.kind === 'hardlink') {
      hardLinks++;
      assert.equal(want.get(e.target!)?.ino, w.ino, `${path} links to ${e.target}`);
      assert.equal(byPath.get(e.target!)?.kind, 'file');
      continue;
    }
    assert.equal(e.kind, w.kind, path);
    if (path !== 'lost+found') assert.equal(e.mode, w.mode, `${path}: mode`);
    if (w.data) assert.ok(Buffer.from(e.data!).equals(w.data), `${path}: bytes differ`);
    assert.equal(e.target, w.target, path);
  }
  assert.equal(hardLinks, 1, 'the hard link is one');
}

function readImage(image: Uint8Array, offset = 0): { entries: Entry[]; problems: string[]; size: number } {
  const probed = extFormat.probe(image, offset, context());
  assert.ok(probed, 'probed as ext');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems))];
  return { entries, problems, size: probed.size };
}

interface Variant {
  /** mke2fs -t type and options, or genext2fs's options. */
  tool: 'mke2fs' | 'genext2fs';
  args: string[];
  /** A step after building: e2fsck -D (index big directories), debugfs fallocate (uninitialised extents). */
  after?: 'htree' | 'fallocate';
  /** What the description should say. */
  version: RegExp;
  /** mke2fs's volume size (24M unless given). */
  size?: string;
  /** Add a 65 MiB sparse file, its last bytes mapped through the triple-indirect block. */
  far?: boolean;
}

const VARIANTS: Record<string, Variant> = {
  'genext2fs ext2, 1 KiB blocks, holes': {
    tool: 'genext2fs',
    args: ['-z', '-b', '24576', '-N', '1024'],
    version: /ext2, 1 KiB/,
    far: true,
  },
  'genext2fs ext2, 4 KiB blocks': {
    tool: 'genext2fs',
    args: ['-B', '4096', '-b', '6144', '-N', '1024'],
    version: /ext2, 4 KiB/,
  },
  'mke2fs ext2': { tool: 'mke2fs', args: ['-t', 'ext2', '-b', '1024'], version: /ext2, 1 KiB/, far: true },
  'mke2fs ext3, 4 KiB blocks': { tool: 'mke2fs', args: ['-t', 'ext3', '-b', '4096'], version: /ext3, 4 KiB/ },
  'mke2fs ext4, 1 KiB blocks': { tool: 'mke2fs', args: ['-t', 'ext4', '-b', '1024'], version: /ext4, 1 KiB/ },
  'mke2fs ext4, 2 KiB blocks': { tool: 'mke2fs', args: ['-t', 'ext4', '-b', '2048'], version: /ext4, 2 KiB/ },
  'mke2fs ext4, 4 KiB blocks': { tool: 'mke2fs', args: ['-t', 'ext4', '-b', '4096'], version: /ext4, 4 KiB/ },
  // Every small file takes a whole 64 KiB block: 400 of them need a bigger volume.
  'mke2fs ext4, 64 KiB blocks': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-b', '65536'],
    version: /ext4, 64 KiB/,
    size: '64M',
  },
  'mke2fs ext4 without extents (block maps), 32-bit': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-b', '4096', '-O', '^extent,^64bit'],
    version: /ext4, 4 KiB/,
  },
  'mke2fs ext4, 128-byte inodes, 32-bit descriptors': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-I', '128', '-O', '^64bit'],
    version: /ext4/,
  },
  'mke2fs ext4, meta_bg with inodes past the first meta group': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-b', '1024', '-g', '1024', '-N', '800', '-O', 'meta_bg,^resize_inode'],
    version: /ext4, 1 KiB/,
  },
  'mke2fs ext4, bigalloc (16 KiB clusters of 1 KiB blocks)': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-b', '1024', '-O', 'bigalloc', '-C', '16384'],
    version: /ext4, 1 KiB/,
    size: '48M',
  },
  'mke2fs ext4, inline data': { tool: 'mke2fs', args: ['-t', 'ext4', '-O', 'inline_data'], version: /ext4/ },
  'mke2fs ext4, htree directories (e2fsck -D)': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-b', '1024'],
    after: 'htree',
    version: /ext4, 1 KiB/,
  },
  'mke2fs ext4, uninitialised extents (debugfs fallocate)': {
    tool: 'mke2fs',
    args: ['-t', 'ext4', '-b', '4096'],
    after: 'fallocate',
    version: /ext4, 4 KiB/,
  },
};

function build(dir: string, v: Variant): Buffer {
  const src = join(dir, 'src');
  const image = join(dir, 'fs.img');
  if (v.tool === 'genext2fs') runTool('genext2fs', ['-d', src, ...v.args, image]);
  else runTool('mke2fs', ['-q', '-F', '-d', src, ...v.args, image, v.size ?? '24M']);
  if (v.after === 'htree') {
    // e2fsck exits 1 when it changed the volume (it indexed the directories), which execFileSync throws on.
    try {
      runTool('e2fsck', ['-f', '-y', '-D', image]);
    } catch (err) {
      if ((err as { status?: number }).status !== 1) throw err;
    }
    assert.match(runTool('debugfs', ['-R', 'htree /big-dir', image]).toString(), /Root node dump/);
  }
  if (v.after === 'fallocate') {
    // The sparse file's holes between 4 KiB and 3 MiB become allocated, uninitialised extents.
    runTool('debugfs', ['-w', '-R', 'fallocate /sparse 1 760', image]);
    assert.match(runTool('debugfs', ['-R', 'ex /sparse', image]).toString(), /Uninit/);
  }
  return readFileSync(image);
}

for (const [name, variant] of Object.entries(VARIANTS)) {
  test(`ext: ${name}`, (t) => {
    const missing = variant.tool === 'genext2fs' ? GENEXT2FS : MKE2FS;
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'), variant.far);
      const image = build(dir, variant);
      const probed = extFormat.probe(image, 0, context());
      assert.ok(probed);
      assert.match(probed.description!, variant.version);
      assert.equal(probed.size, image.length);
      const { entries, problems } = readImage(image);
      assert.deepEqual(problems, []);
      assertSameTree(entries, join(dir, 'src'));
    });
  });
}

test('ext: an image inside other bytes, truncated, and over budget', (t) => {
  if (MKE2FS) return t.skip(MKE2FS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'));
    const image = build(dir, VARIANTS['mke2fs ext4, 4 KiB blocks']!);
    const framed = Buffer.concat([Buffer.alloc(4096, 0x5a), image, Buffer.from('trailer')]);
    const inside = readImage(framed, 4096);
    assert.equal(inside.size, image.length);
    assertSameTree(inside.entries, join(dir, 'src'));

    // Cut at 2 MiB: what lies in the first 2 MiB still reads; the rest are problems, not exceptions.
    const cut = readImage(image.subarray(0, 2 * MiB));
    assert.equal(cut.size, 2 * MiB);
    assert.match(cut.problems[0]!, /truncated/);
    assert.ok(cut.problems.some((p) => /past the end of the data/.test(p)));
    assert.ok(cut.entries.some((e) => e.path === 'lost+found'));

    const probed = extFormat.probe(image, 0, context())!;
    assert.throws(() => [...probed.entries(context([], MiB))], OutputLimitError);
  });
});

test('ext: a superblock with an absurd field is no ext', () => {
  const image = Buffer.alloc(4096);
  image.writeUInt16LE(0xef53, 0x438);
  image.writeUInt32LE(64, 1024); // inodes
  image.writeUInt32LE(1024, 1024 + 4); // blocks
  image.writeUInt32LE(1, 1024 + 0x14); // first data block
  image.writeUInt32LE(8192, 1024 + 0x20); // blocks per group
  image.writeUInt32LE(64, 1024 + 0x28); // inodes per group
  assert.ok(extFormat.probe(image, 0, context()), 'a sane revision-0 superblock probes');
  for (const [at, value] of [
    [0x18, 7], // 128 KiB blocks
    [0x20, 0], // no blocks per group
    [0x28, 9000], // more inodes per group than a bitmap block holds
    [0x4c, 2], // unknown revision
    [0x14, 5], // first data block past 1
  ] as const) {
    const bad = Buffer.from(image);
    bad.writeUInt32LE(value, 1024 + at);
    assert.equal(extFormat.probe(bad, 0, context()), null, `field 0x${at.toString(16)} = ${value}`);
  }
});

test('ext: an inline directory whose entries overflow into the system.data attribute', (t) => {
  if (MKE2FS) return t.skip(MKE2FS);
  inTempDir((dir) => {
    // mke2fs moves a directory out of the inode once i_block is full; the kernel instead spills it into the
    // system.data attribute. Rewrite a 60-byte inline directory that way: "fits" takes the rest of i_block,
    // "spills" moves to a 20-byte attribute value at the inode's end.
    mkdirSync(join(dir, 'src/inline'), { recursive: true });
    writeFileSync(join(dir, 'src/inline/fits'), 'in i_block\n');
    writeFileSync(join(dir, 'src/inline/spills'), 'in the attribute\n');
    const path = join(dir, 'fs.img');
    runTool('mke2fs', ['-q', '-F', '-t', 'ext4', '-O', 'inline_data', '-I', '256', '-d', join(dir, 'src'), path, '4M']);
    const image = readFileSync(path);
    const where = runTool('debugfs', ['-R', 'imap /inline', path]).toString();
    const [, block, offset] = /located at block (\d+), offset (0x[0-9a-f]+)/.exec(where)!;
    const at = Number(block) * 1024 + Number(offset);
    const inodeOf = (name: string) =>
      Number(/Inode: (\d+)/.exec(runTool('debugfs', ['-R', `stat ${name}`, path]).toString())![1]);
    assert.equal(image.readUInt32LE(at + 0x20) & 0x10000000, 0x10000000, 'the directory is inline');
    const iBlock = at + 0x28;
    image.fill(0, iBlock + 4, iBlock + 60);
    image.writeUInt32LE(inodeOf('/inline/fits'), iBlock + 4);
    image.writeUInt16LE(56, iBlock + 8);
    image.write('\x04\x01fits', iBlock + 10, 'latin1');
    // The attribute "data" (index 7) after the 4-byte magic; its value moved to the inode's last 20 bytes.
    const first = at + 128 + image.readUInt16LE(at + 128) + 4;
    assert.equal(image.toString('latin1', first + 16, first + 20), 'data');
    const valueAt = at + 256 - 20;
    image.writeUInt16LE(valueAt - first, first + 2);
    image.writeUInt32LE(20, first + 8);
    image.writeUInt32LE(inodeOf('/inline/spills'), valueAt);
    image.writeUInt16LE(20, valueAt + 4);
    image.write('\x06\x01spills', valueAt + 6, 'latin1');
    image.writeUInt32LE(80, at + 4);
    const { entries, problems } = readImage(image);
    assert.deepEqual(problems, []);
    const files = entries.filter((e) => e.kind === 'file').map((e) => `${e.path}=${Buffer.from(e.data!)}`);
    assert.deepEqual(files.sort(), ['inline/fits=in i_block\n', 'inline/spills=in the attribute\n']);
  });
});
