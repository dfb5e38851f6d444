// FAT12/16/32 volumes made by mkfs.vfat (dosfstools) and filled by mcopy -s (mtools) from a tree made
// here, read back and compared with the tree byte for byte: long and Unicode names, 8.3 names in either
// case, nested and many-cluster directories, empty files, 512–4096-byte sectors, one or two FATs, deleted
// entries and fragmented chains (files deleted with mdel, a big one copied into the gaps), then damaged
// volumes (a looping directory chain, seeded truncations and mutations).
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { Entry, ReadContext } from '../format.js';
import { fatFormat } from './fat.js';

const MKFS = missingTool('mkfs.vfat', 'dosfstools') ?? missingTool('mcopy', 'mtools');
// mtools checks a volume's geometry against the FAT type its cluster count implies; mkfs.vfat's own
// choices for 4 KiB sectors fail that check, though they are sound.
process.env.MTOOLS_SKIP_CHECK = '1';

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

function randomBytes(seed: number, n: number): Uint8Array {
  const rnd = seededRandom(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rnd() * 256;
  return out;
}

function makeTree(root: string, bigSize = 3 << 20): void {
  const file = (path: string, data: Uint8Array | string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), data);
  };
  file('README.TXT', 'an 8.3 name in upper case\n');
  file('lower.txt', 'an 8.3 name in lower case\n');
  file('MiXeD Case Name.Data', 'a long name\n');
  file('archive.tar.gz', 'dots\n');
  file('.hidden', 'leading dot\n');
  file('café ünïcödé — 名前.txt', 'unicode\n');
  file('L'.repeat(200), '200 characters\n');
  file('empty', '');
  file('big.bin', randomBytes(1, bigSize));
  file(`${'nested/'.repeat(10)}leaf.txt`, 'ten levels down\n');
  for (let i = 0; i < 150; i++) file(`many/a file with a long name number ${i}.txt`, `${i}\n`.repeat(i));
  mkdirSync(join(root, 'empty dir'));
}

/** Every file and directory under `root` (FAT has no links or nodes), by relative path. */
function wanted(root: string): Map<string, Buffer | null> {
  const out = new Map<string, Buffer | null>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(root, path)).isDirectory()) {
        out.set(path, null);
        walk(path);
      } else out.set(path, readFileSync(join(root, path)));
    }
  };
  walk('');
  return out;
}

function assertSameTree(got: Entry[], root: string): void {
  const want = wanted(root);
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.equal(byPath.size, got.length, 'no path given twice');
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys()].sort());
  for (const [path, data] of want) {
    const e = byPath.get(path)!;
    assert.equal(e.kind, data ? 'file' : 'dir', path);
    if (data) assert.ok(Buffer.from(e.data!).equals(data), `${path}: bytes differ`);
  }
}

/** A volume of `kib` KiB made by mkfs.vfat with `args`, holding `src`'s tree. */
function build(dir: string, args: string[], kib: number): Buffer {
  const image = join(dir, 'fs.img');
  runTool('mkfs.vfat', ['-C', ...args, image, String(kib)]);
  const src = join(dir, 'src');
  runTool('mcopy', ['-s', '-i', image, ...readdirSync(src).map((n) => join(src, n)), '::/']);
  return readFileSync(image);
}

function readVolume(image: Uint8Array, offset = 0): { entries: Entry[]; problems: string[]; description: string } {
  const probed = fatFormat.probe(image, offset, context());
  assert.ok(probed, 'probed as FAT');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems))];
  return { entries, problems, description: probed.description! };
}

const VARIANTS: Record<string, { args: string[]; kib: number; type: RegExp }> = {
  FAT12: { args: ['-F', '12'], kib: 8000, type: /^FAT12, / },
  'FAT12, 4 KiB sectors': {
    args: ['-F', '12', '-S', '4096', '-s', '1'],
    kib: 15000,
    type: /^FAT12, \d+ clusters of 4096/,
  },
  FAT16: { args: ['-F', '16'], kib: 16000, type: /^FAT16, / },
  'FAT16, one FAT, 1 KiB sectors': { args: ['-F', '16', '-f', '1', '-S', '1024'], kib: 20000, type: /^FAT16, / },
  'FAT16, 4 KiB sectors': { args: ['-F', '16', '-S', '4096', '-s', '1'], kib: 20000, type: /^FAT16, / },
  'FAT32, 512-byte clusters, labelled': {
    args: ['-F', '32', '-s', '1', '-n', 'FIRMWARE'],
    kib: 40000,
    type: /^FAT32, \d+ clusters of 512 bytes, label "FIRMWARE"$/,
  },
};

for (const [name, v] of Object.entries(VARIANTS)) {
  test(`fat: ${name}`, (t) => {
    if (MKFS) return t.skip(MKFS);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'));
      const image = build(dir, v.args, v.kib);
      const { entries, problems, description } = readVolume(image);
      assert.match(description, v.type);
      assert.deepEqual(problems, []);
      assertSameTree(entries, join(dir, 'src'));
    });
  });
}

test('fat: deleted entries are skipped and fragmented chains followed', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    const src = join(dir, 'src');
    mkdirSync(join(src, 'frag'), { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(join(src, 'frag', `small-${i}`), randomBytes(i, 2000));
    const image = join(dir, 'fs.img');
    runTool('mkfs.vfat', ['-C', '-F', '16', '-s', '4', image, '16000']);
    runTool('mcopy', ['-s', '-i', image, join(src, 'frag'), '::/']);
    for (let i = 0; i < 40; i += 2) {
      runTool('mdel', ['-i', image, `::/frag/small-${i}`]);
      rmSync(join(src, 'frag', `small-${i}`));
    }
    // 20 gaps of one 2 KiB cluster each, then the rest: the big file's chain jumps 20 times.
    writeFileSync(join(src, 'frag', 'big-in-the-gaps'), randomBytes(99, 100_000));
    runTool('mcopy', ['-i', image, join(src, 'frag', 'big-in-the-gaps'), '::/frag/']);
    const bytes = readFileSync(image);
    assert.ok(bytes.includes(Buffer.from([0xe5, ...Buffer.from('MALL-0  ')])), 'deleted entries are on the volume');
    const { entries, problems } = readVolume(bytes);
    assert.deepEqual(problems, []);
    assertSameTree(entries, src);
  });
});

test('fat: a volume inside other bytes, truncated, and over budget', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'));
    const image = build(dir, ['-F', '16'], 16000);
    const framed = Buffer.concat([Buffer.alloc(3000, 0x5a), image, Buffer.from('trailer')]);
    const probed = fatFormat.probe(framed, 3000, context())!;
    assert.equal(probed.size, image.length);
    assertSameTree(readVolume(framed, 3000).entries, join(dir, 'src'));

    const cut = readVolume(image.subarray(0, 1 << 20));
    assert.match(cut.problems[0]!, /truncated/);
    assert.ok(cut.problems.some((p) => /big\.bin: .*past the end of the data/.test(p)));
    assert.ok(cut.entries.some((e) => e.path === 'README.TXT'));

    assert.throws(() => [...probed.entries(context([], 1 << 20))], OutputLimitError);
  });
});

test('fat: a master boot record and other sectors ending in 55 AA are no FAT volume', () => {
  const mbr = Buffer.alloc(512);
  mbr.set([0xfa, 0x33, 0xc0, 0x8e, 0xd0, 0xbc, 0x00, 0x7c], 0);
  mbr.writeUInt8(0x80, 446);
  mbr.writeUInt8(0x0c, 450);
  mbr.writeUInt16LE(0xaa55, 510);
  assert.equal(fatFormat.probe(mbr, 0, context()), null);
  const noise = Buffer.from(randomBytes(5, 512));
  noise.writeUInt16LE(0xaa55, 510);
  assert.equal(fatFormat.probe(noise, 0, context()), null);
});

/** Walks a damaged volume; anything but entries, problems or the two typed errors fails the test. */
function readDamaged(data: Uint8Array, budget: number): { entries: number; problems: number; error: boolean } | null {
  const problems: string[] = [];
  let entries = 0;
  try {
    const probed = fatFormat.probe(data, 0, context(problems, budget));
    if (!probed) return null;
    assert.ok(probed.size > 0 && probed.size <= data.length);
    for (const e of probed.entries(context(problems, budget))) if (e) entries++;
  } catch (err) {
    if (err instanceof DecodeError || err instanceof OutputLimitError)
      return { entries, problems: problems.length, error: true };
    throw err;
  }
  return { entries, problems: problems.length, error: false };
}

test('fat: a directory whose chain loops back on itself lists its clusters once', (t) => {
  if (MKFS) return t.skip(MKFS);
  inTempDir((dir) => {
    const src = join(dir, 'src');
    mkdirSync(join(src, 'd'), { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(join(src, 'd', `file number ${i}`), `${i}`);
    const image = build(dir, ['-F', '12', '-s', '1'], 1440);
    // d's chain is several 512-byte clusters; point its last FAT12 entry back at its first.
    const probed = readVolume(image);
    assert.deepEqual(probed.problems, []);
    const bps = image.readUInt16LE(11);
    const fatAt = image.readUInt16LE(14) * bps;
    const entryAt = image.indexOf(Buffer.from('D          '), fatAt);
    const first = image.readUInt16LE(entryAt + 26);
    const next = (n: number) => {
      const pair = image.readUInt16LE(fatAt + n + (n >> 1));
      return n & 1 ? pair >> 4 : pair & 0xfff;
    };
    let last = first;
    while (next(last) < 0xff8) last = next(last);
    assert.notEqual(last, first, 'the directory spans several clusters');
    const at = fatAt + last + (last >> 1);
    const pair = image.readUInt16LE(at);
    image.writeUInt16LE(last & 1 ? (pair & 0xf) | (first << 4) : (pair & 0xf000) | first, at);
    const { entries, problems } = readVolume(image);
    assert.deepEqual(problems, []);
    assert.equal(entries.length, 41);
  });
});

test('fat: seeded truncations and mutations of FAT12, FAT16 and FAT32 volumes end fast', (t) => {
  if (MKFS) return t.skip(MKFS);
  for (const [args, kib] of [
    [['-F', '12', '-s', '1'], 2000],
    [['-F', '16', '-s', '1'], 4200],
    [['-F', '32', '-s', '1'], 34000],
  ] as const) {
    const image = inTempDir((dir) => {
      makeTree(join(dir, 'src'), 20_000);
      return build(dir, [...args], kib);
    });
    const next = seededRandom(0xfa7 + kib);
    const pick = (n: number) => Math.floor(next() * n);
    // The structures: boot sector, FATs, root directory and the first directory clusters.
    const used = image.indexOf(Buffer.from(randomBytes(1, 64))) + 1;
    assert.ok(used > 0, 'big.bin located');
    const outcomes = { entries: 0, problems: 0, errors: 0, refused: 0 };
    let slowest = 0;
    for (let i = 0; i < 300; i++) {
      // Mutated in place and put back afterwards: copying a 34 MB FAT32 volume per case costs more than reading it.
      let data = image;
      const undo: [number, number][] = [];
      if (i % 5 === 0) data = image.subarray(0, pick(used + 4096));
      else {
        const [from, to] = i % 5 === 1 ? [0, 90] : [512, used];
        for (let k = 0, n = 1 + pick(8); k < n; k++) {
          const at = from + pick(to - from);
          undo.push([at, image[at]!]);
          image[at] = pick(256);
        }
      }
      const t0 = performance.now();
      const out = readDamaged(data, [64 << 20, 64 << 20, 64 << 20, 5000][pick(4)]!);
      slowest = Math.max(slowest, performance.now() - t0);
      for (const [at, byte] of undo.reverse()) image[at] = byte;
      if (!out) outcomes.refused++;
      else {
        outcomes.entries += out.entries;
        outcomes.problems += out.problems;
        if (out.error) outcomes.errors++;
      }
    }
    assert.ok(slowest < 1000, `every case ends within a second (slowest ${slowest.toFixed(0)} ms)`);
    t.diagnostic(`${args.join(' ')}: ${JSON.stringify(outcomes)}, slowest case ${slowest.toFixed(1)} ms`);
  }
});
