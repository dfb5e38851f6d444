// ISO 9660 images made by genisoimage and xorriso from a tree made here, read back and compared with the
// tree byte for byte: Rock Ridge (names, modes, symlinks, nodes, directories relocated past 8 levels),
// Joliet's UCS-2 names, plain ISO names, then hand-built images for what the tools only write for files
// over 4 GiB (multi-extent files) and hostile cases (a directory listing itself, seeded damage).
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { Entry, EntryKind, ReadContext } from '../format.js';
import { iso9660Format } from './iso9660.js';

const GENISOIMAGE = missingTool('genisoimage', 'genisoimage');
const XORRISO = missingTool('xorriso', 'xorriso');
const ROOT = process.getuid?.() === 0;

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

function randomBytes(seed: number, n: number): Uint8Array {
  const rnd = seededRandom(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rnd() * 256;
  return out;
}

interface TreeOptions {
  /** Symlinks, a fifo and a device (Rock Ridge only); `long`: a 400-byte target genisoimage hangs on. */
  links?: 'short' | 'long';
  /** Directory levels (ISO without Rock Ridge drops what is deeper than 6). */
  depth: number;
  /** Names ISO level 1 keeps as they are (upper case 8.3), for plain images. */
  plain?: boolean;
}

function makeTree(root: string, o: TreeOptions): void {
  const file = (path: string, data: Uint8Array | string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), data);
  };
  const n = (name: string, plain: string) => (o.plain ? plain : name);
  file(n('README.txt', 'README.TXT'), 'iso\n');
  file(n('empty', 'EMPTY'), '');
  file(n('big.bin', 'BIG.BIN'), randomBytes(1, 3 << 20));
  file(
    `${n('level', 'LEVEL')
      .concat('/')
      .repeat(o.depth - 1)}${n('leaf.txt', 'LEAF.TXT')}`,
    'deep\n',
  );
  for (let i = 0; i < 120; i++)
    file(`${n('many', 'MANY')}/${n(`a file with a long name number ${i}.txt`, `F${i}.TXT`)}`, `${i}\n`);
  if (!o.plain) {
    file('café ünïcödé — 名前.txt', 'unicode\n');
    file('L'.repeat(60), 'sixty characters\n');
  }
  mkdirSync(join(root, n('empty dir', 'EMPTYDIR')));
  if (o.links) {
    symlinkSync('README.txt', join(root, 'link'));
    symlinkSync('../many/a file with a long name number 7.txt', join(root, 'level/up-link'));
    symlinkSync('/', join(root, 'to-root'));
    if (o.links === 'long') symlinkSync(`/abs/${'component/'.repeat(44)}end`, join(root, 'long-link'));
    runTool('mkfifo', [join(root, 'fifo')]);
    if (ROOT) runTool('mknod', [join(root, 'null'), 'c', '1', '3']);
  }
}

interface Want {
  kind: EntryKind;
  mode: number;
  data?: Buffer;
  target?: string;
}

function wanted(root: string): Map<string, Want> {
  const out = new Map<string, Want>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, path));
      const mode = st.mode & 0o7777;
      if (st.isDirectory()) {
        out.set(path, { kind: 'dir', mode });
        walk(path);
      } else if (st.isSymbolicLink()) out.set(path, { kind: 'symlink', mode, target: readlinkSync(join(root, path)) });
      else if (st.isFile()) out.set(path, { kind: 'file', mode, data: readFileSync(join(root, path)) });
      else out.set(path, { kind: st.isFIFO() ? 'fifo' : 'device', mode });
    }
  };
  walk('');
  return out;
}

/** Paths, kinds, bytes and targets as in the tree; modes too when `modes` (Rock Ridge). */
function assertSameTree(got: Entry[], root: string, modes: boolean, extra: string[] = []): void {
  const want = wanted(root);
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.equal(byPath.size, got.length, 'no path given twice');
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys(), ...extra].sort());
  for (const [path, w] of want) {
    const e = byPath.get(path)!;
    assert.equal(e.kind, w.kind, path);
    if (w.data) assert.ok(Buffer.from(e.data!).equals(w.data), `${path}: bytes differ`);
    assert.equal(e.target, w.target, path);
    assert.equal(e.mode, modes ? w.mode : undefined, `${path}: mode`);
  }
}

function readImage(image: Uint8Array, offset = 0): { entries: Entry[]; problems: string[]; description: string } {
  const probed = iso9660Format.probe(image, offset, context());
  assert.ok(probed, 'probed as ISO 9660');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems))];
  return { entries, problems, description: probed.description! };
}

interface Variant {
  tool: 'genisoimage' | 'xorriso';
  args: string[];
  tree: TreeOptions;
  modes: boolean;
  /** Paths the image adds (genisoimage's rr_moved, where relocated directories live). */
  extra?: string[];
  description: RegExp;
}

const VARIANTS: Record<string, Variant> = {
  'genisoimage -R: Rock Ridge, directories relocated past 8 levels': {
    tool: 'genisoimage',
    args: ['-R'],
    tree: { links: 'short', depth: 11 },
    modes: true,
    extra: ['rr_moved'],
    description: /^ISO 9660, \d+ blocks of 2048 bytes, volume "CDROM"$/,
  },
  'genisoimage -J: Joliet names': {
    tool: 'genisoimage',
    args: ['-J'],
    tree: { depth: 6 },
    modes: false,
    description: /, Joliet/,
  },
  'genisoimage -R -J: Rock Ridge over Joliet': {
    tool: 'genisoimage',
    args: ['-R', '-J', '-V', 'FIRMWARE'],
    tree: { links: 'short', depth: 5 },
    modes: true,
    description: /, Joliet, volume "FIRMWARE"/,
  },
  'genisoimage: plain ISO names': {
    tool: 'genisoimage',
    args: [],
    tree: { depth: 6, plain: true },
    modes: false,
    description: /ISO/,
  },
  'xorriso: Rock Ridge, deep tree, long symlink target': {
    tool: 'xorriso',
    args: ['-joliet', 'on'],
    tree: { links: 'long', depth: 12 },
    modes: true,
    description: /, Joliet, volume "ISOIMAGE"/,
  },
  'xorriso: Joliet only': {
    tool: 'xorriso',
    args: ['-rockridge', 'off', '-joliet', 'on'],
    tree: { depth: 6 },
    modes: false,
    description: /, Joliet/,
  },
};

function build(dir: string, v: Variant): Buffer {
  const src = join(dir, 'src');
  const image = join(dir, 'image.iso');
  if (v.tool === 'genisoimage') runTool('genisoimage', ['-quiet', ...v.args, '-o', image, src]);
  else runTool('xorriso', ['-report_about', 'SORRY', ...v.args, '-padding', '0', '-outdev', image, '-map', src, '/']);
  return readFileSync(image);
}

for (const [name, v] of Object.entries(VARIANTS)) {
  test(`iso9660: ${name}`, (t) => {
    const missing = v.tool === 'genisoimage' ? GENISOIMAGE : XORRISO;
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'), v.tree);
      const image = build(dir, v);
      const { entries, problems, description } = readImage(image);
      assert.match(description, v.description);
      assert.deepEqual(problems, []);
      assertSameTree(entries, join(dir, 'src'), v.modes, v.extra);
    });
  });
}

test('iso9660: an image inside other bytes, truncated, and over budget', (t) => {
  if (XORRISO) return t.skip(XORRISO);
  inTempDir((dir) => {
    const v = VARIANTS['xorriso: Rock Ridge, deep tree, long symlink target']!;
    makeTree(join(dir, 'src'), v.tree);
    const image = build(dir, v);
    const framed = Buffer.concat([Buffer.alloc(5000, 0x5a), image, Buffer.from('trailer')]);
    const probed = iso9660Format.probe(framed, 5000, context())!;
    // The volume's blocks (xorriso pads the file past them to a multiple of 64 KiB).
    assert.equal(probed.size, image.readUInt32LE(16 * 2048 + 80) * 2048);
    assert.ok(probed.size <= image.length && probed.size > image.length - 65536);
    assertSameTree(readImage(framed, 5000).entries, join(dir, 'src'), true);

    const cut = readImage(image.subarray(0, 1 << 20));
    assert.match(cut.problems[0]!, /truncated/);
    assert.ok(cut.problems.some((p) => /big\.bin: .*past the end of the data/.test(p)));
    assert.ok(cut.entries.some((e) => e.path === 'many' && e.kind === 'dir'));

    assert.throws(() => [...probed.entries(context([], 1 << 20))], OutputLimitError);
  });
});

/** A record: length, extent and size both-endian, flags, name, padded to an even length. */
function record(name: Buffer, extent: number, size: number, flags: number): Buffer {
  const length = 33 + name.length + (name.length % 2 === 0 ? 1 : 0);
  const r = Buffer.alloc(length);
  r[0] = length;
  r.writeUInt32LE(extent, 2);
  r.writeUInt32BE(extent, 6);
  r.writeUInt32LE(size, 10);
  r.writeUInt32BE(size, 14);
  r[25] = flags;
  r.writeUInt16LE(1, 28);
  r.writeUInt16BE(1, 30);
  r[32] = name.length;
  name.copy(r, 33);
  return r;
}

/** A hand-built image: descriptors at 16–17, the root directory (its records given) at block 18, data after. */
function handBuilt(rootRecords: Buffer[], blocks: number): Buffer {
  const image = Buffer.alloc(blocks * 2048);
  const pvd = image.subarray(16 * 2048);
  pvd[0] = 1;
  pvd.write('CD001', 1, 'latin1');
  pvd[6] = 1;
  pvd.writeUInt32LE(blocks, 80);
  pvd.writeUInt32BE(blocks, 84);
  pvd.writeUInt16LE(2048, 128);
  pvd.writeUInt16BE(2048, 130);
  record(Buffer.from([0]), 18, 2048, 2).copy(pvd, 156);
  image[17 * 2048] = 255;
  image.write('CD001', 17 * 2048 + 1, 'latin1');
  Buffer.concat([record(Buffer.from([0]), 18, 2048, 2), record(Buffer.from([1]), 18, 2048, 2), ...rootRecords]).copy(
    image,
    18 * 2048,
  );
  return image;
}

test('iso9660: a multi-extent file is its records joined', () => {
  const parts = [randomBytes(1, 4096), randomBytes(2, 2048), randomBytes(3, 100)];
  const image = handBuilt(
    [
      record(Buffer.from('SPLIT.BIN;1'), 20, 4096, 0x80),
      record(Buffer.from('SPLIT.BIN;1'), 23, 2048, 0x80),
      record(Buffer.from('SPLIT.BIN;1'), 19, 100, 0),
      record(Buffer.from('AFTER.TXT;1'), 22, 5, 0),
    ],
    25,
  );
  image.set(parts[0]!, 20 * 2048);
  image.set(parts[1]!, 23 * 2048);
  image.set(parts[2]!, 19 * 2048);
  image.write('after', 22 * 2048);
  const { entries, problems } = readImage(image);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    entries.map((e) => [e.path, e.kind, Buffer.from(e.data!).length]),
    [
      ['SPLIT.BIN', 'file', 6244],
      ['AFTER.TXT', 'file', 5],
    ],
  );
  assert.ok(Buffer.from(entries[0]!.data!).equals(Buffer.concat(parts)));
});

test('iso9660: a directory listing itself or the root is a problem, not a loop', () => {
  const image = handBuilt([record(Buffer.from('LOOP'), 18, 2048, 2), record(Buffer.from('SUB'), 19, 2048, 2)], 21);
  Buffer.concat([
    record(Buffer.from([0]), 19, 2048, 2),
    record(Buffer.from([1]), 18, 2048, 2),
    record(Buffer.from('SELF'), 19, 2048, 2),
    record(Buffer.from('FILE.TXT;1'), 20, 2, 0),
  ]).copy(image, 19 * 2048);
  image.write('ok', 20 * 2048);
  const problems: string[] = [];
  const entries = [...iso9660Format.probe(image, 0, context())!.entries(context(problems))];
  assert.deepEqual(
    entries.map((e) => `${e.kind} ${e.path}`),
    ['dir LOOP', 'dir SUB', 'dir SUB/SELF', 'file SUB/FILE.TXT'],
  );
  assert.equal(problems.length, 2, problems.join('\n'));
});

test('iso9660: seeded truncations and mutations of Rock Ridge and Joliet images end fast', (t) => {
  if (XORRISO) return t.skip(XORRISO);
  for (const args of [[], ['-rockridge', 'off', '-joliet', 'on']]) {
    const image = inTempDir((dir) => {
      makeTree(join(dir, 'src'), { links: args.length ? undefined : 'long', depth: 6 });
      return build(dir, { tool: 'xorriso', args, tree: { depth: 6 }, modes: false, description: /./ });
    });
    const next = seededRandom(0x150 + args.length);
    const pick = (n: number) => Math.floor(next() * n);
    // The descriptors and directories lie before the first file's data (xorriso writes them first).
    const used = image.indexOf(Buffer.from(randomBytes(1, 64)));
    assert.ok(used > 0, 'big.bin located');
    const outcomes = { entries: 0, problems: 0, errors: 0, refused: 0 };
    let slowest = 0;
    for (let i = 0; i < 300; i++) {
      let data: Buffer;
      if (i % 5 === 0) data = image.subarray(0, 32768 + pick(used));
      else {
        data = Buffer.from(image);
        const [from, to] = i % 5 === 1 ? [32768, 32768 + 4096] : [32768, used];
        for (let k = 0, n = 1 + pick(8); k < n; k++) data[from + pick(to - from)] = pick(256);
      }
      const problems: string[] = [];
      const budget = [64 << 20, 64 << 20, 64 << 20, 5000][pick(4)]!;
      const t0 = performance.now();
      try {
        const probed = iso9660Format.probe(data, 0, context(problems, budget));
        if (!probed) outcomes.refused++;
        else {
          assert.ok(probed.size > 0 && probed.size <= data.length);
          for (const e of probed.entries(context(problems, budget))) if (e) outcomes.entries++;
        }
      } catch (err) {
        if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
        outcomes.errors++;
      }
      outcomes.problems += problems.length;
      slowest = Math.max(slowest, performance.now() - t0);
    }
    assert.ok(slowest < 1000, `every case ends within a second (slowest ${slowest.toFixed(0)} ms)`);
    t.diagnostic(`xorriso ${args.join(' ')}: ${JSON.stringify(outcomes)}, slowest case ${slowest.toFixed(1)} ms`);
  }
});
