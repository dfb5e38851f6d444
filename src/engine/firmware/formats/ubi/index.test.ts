// The UBI reader against images from mtd-utils' ubinize (a UBIFS volume from mkfs.ubifs and a static raw
// volume, two header layouts, an aligned volume), hand-made rewrites of LEBs (newer copies, wear-levelling
// copies cut short), damaged volume tables, bad blocks, the whole unpacker, and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import { unpackInMemory } from '../../../../../test/helpers/firmware/unpack.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { Entry, ReadContext } from '../../format.js';
import { ubifsFormat } from '../ubifs/index.js';
import { ubiCrc } from './headers.js';
import { ubiFormat } from './index.js';

const TOOLS = missingTool('ubinize', 'mtd-utils') ?? missingTool('mkfs.ubifs', 'mtd-utils');
const PEB = 128 << 10;

function context(problems: string[] = [], budget = 1 << 30): ReadContext {
  return { remaining: () => budget, password: null, problem: (m) => problems.push(m) };
}

interface Built {
  image: Buffer;
  ubifs: Buffer;
  raw: Buffer;
}

/**
 * A UBI image of a dynamic UBIFS volume ("rootfs", its LEB size matching UBI's) and a static raw volume
 * ("kernel", not a whole number of LEBs), with sub-pages of `subpage` bytes.
 */
function build(dir: string, subpage: number, rawAlignment = 1): Built {
  const rnd = seededRandom(subpage);
  mkdirSync(join(dir, 'src/etc'), { recursive: true });
  writeFileSync(join(dir, 'src/etc/hostname'), 'binlens\n');
  writeFileSync(
    join(dir, 'src/blob'),
    Uint8Array.from({ length: 700_000 }, () => Math.floor(rnd() * 256)),
  );
  symlinkSync('etc/hostname', join(dir, 'src/link'));
  const raw = Buffer.from(Uint8Array.from({ length: 3 * 129024 + 4321 }, () => Math.floor(rnd() * 256)));
  writeFileSync(join(dir, 'kernel.bin'), raw);
  // Headers in the first page's sub-pages, or a page each: the LEB is the PEB less one or two pages.
  const leb = PEB - (subpage < 2048 ? 2048 : 4096);
  runTool('mkfs.ubifs', ['-m', '2048', '-e', String(leb), '-c', '200', '-r', join(dir, 'src'), '-o', join(dir, 'fs')]);
  writeFileSync(
    join(dir, 'ubi.ini'),
    [
      '[rootfs]\nmode=ubi\nimage=fs\nvol_id=0\nvol_type=dynamic\nvol_name=rootfs\nvol_size=8MiB\nvol_flags=autoresize',
      `[kernel]\nmode=ubi\nimage=kernel.bin\nvol_id=1\nvol_type=static\nvol_name=kernel\nvol_alignment=${rawAlignment}`,
    ].join('\n'),
  );
  const args = ['-o', join(dir, 'ubi.img'), '-p', '128KiB', '-m', '2048', '-s', String(subpage), join(dir, 'ubi.ini')];
  runTool('ubinize', args, { cwd: dir });
  return { image: readFileSync(join(dir, 'ubi.img')), ubifs: readFileSync(join(dir, 'fs')), raw };
}

function extract(image: Uint8Array, offset = 0) {
  const probed = ubiFormat.probe(image, offset, context());
  assert.ok(probed, 'probe finds the image');
  const problems: string[] = [];
  const files = new Map([...probed.entries(context(problems))].map((e) => [e.path, e.data!]));
  return { probed, files, problems };
}

/** A UBIFS volume's entries, bytes as arrays so that two readings compare with deepEqual. */
function ubifsEntries(volume: Uint8Array) {
  const probed = ubifsFormat.probe(volume, 0, context());
  assert.ok(probed, 'the volume holds a UBIFS');
  const problems: string[] = [];
  const entries = [...probed.entries(context(problems))].map((e: Entry) => ({ ...e, data: e.data && [...e.data] }));
  assert.deepEqual(problems, []);
  return entries;
}

/** The UBIFS volume: mkfs.ubifs's image, then erased flash to the end of its last LEB. */
function assertVolumes(files: Map<string, Uint8Array>, built: Built): void {
  assert.deepEqual([...files.keys()], ['rootfs.ubivol', 'kernel.ubivol']);
  assert.ok(Buffer.from(files.get('kernel.ubivol')!).equals(built.raw), 'static volume bytes');
  const rootfs = files.get('rootfs.ubivol')!;
  assert.ok(Buffer.from(rootfs.subarray(0, built.ubifs.length)).equals(built.ubifs), 'UBIFS volume bytes');
  assert.ok(
    rootfs.subarray(built.ubifs.length).every((b) => b === 0xff),
    'erased after the UBIFS image',
  );
  assert.deepEqual(ubifsEntries(rootfs), ubifsEntries(built.ubifs));
}

for (const [subpage, alignment] of [
  [512, 4096],
  [2048, 8192],
] as const) {
  test(`ubinize -p 128KiB -m 2048 -s ${subpage}, static volume aligned to ${alignment} (LEBs shortened)`, (t) => {
    if (TOOLS) return t.skip(TOOLS);
    inTempDir((dir) => {
      const built = build(dir, subpage, alignment);
      const { probed, files, problems } = extract(built.image);
      assert.equal(probed.size, built.image.length);
      assert.match(probed.description!, new RegExp(`128 KiB PEBs, ${PEB - (subpage < 2048 ? 2048 : 4096)}-byte LEBs`));
      assert.deepEqual(problems, []);
      assertVolumes(files, built);
    });
  });
}

/** VID header of the PEB at `peb`: its fields, and how to rewrite one and re-seal it. */
function vid(image: Uint8Array, peb: number) {
  const v = new DataView(image.buffer, image.byteOffset + peb * PEB + 512, 64);
  return {
    volId: v.getUint32(8),
    lnum: v.getUint32(12),
    sqnum: v.getUint32(44),
    set(at: number, value: number, bytes: 1 | 4 = 4) {
      if (bytes === 1) v.setUint8(at, value);
      else v.setUint32(at, value);
      v.setUint32(60, ubiCrc(new Uint8Array(v.buffer, v.byteOffset, 60)));
    },
  };
}

test('a LEB written twice: the higher sequence number wins, unless it is a copy cut short', (t) => {
  if (TOOLS) return t.skip(TOOLS);
  inTempDir((dir) => {
    const built = build(dir, 512);
    const pebs = built.image.length / PEB;
    const peb = [...Array(pebs).keys()].find((p) => vid(built.image, p).volId === 1 && vid(built.image, p).lnum === 1)!;
    const maxSqnum = Math.max(...[...Array(pebs).keys()].map((p) => vid(built.image, p).sqnum));
    const copy = Buffer.from(built.image.subarray(peb * PEB, (peb + 1) * PEB));
    copy[2048] = copy[2048]! ^ 0xff;
    const image = Buffer.concat([built.image, copy]);
    const newer = vid(image, pebs);
    newer.set(44, maxSqnum + 1);
    newer.set(32, ubiCrc(image.subarray(pebs * PEB + 2048, pebs * PEB + 2048 + 129024)));
    const changed = Buffer.from(built.raw);
    changed[129024] = changed[129024]! ^ 0xff;
    assert.ok(Buffer.from(extract(image).files.get('kernel.ubivol')!).equals(changed), 'the newer copy');
    // Marked as a wear-levelling copy whose data CRC fails: the move was cut short, the older one stands.
    newer.set(6, 1, 1);
    newer.set(32, 0x12345678);
    const { files, problems } = extract(image);
    assert.deepEqual(problems, []);
    assert.ok(Buffer.from(files.get('kernel.ubivol')!).equals(built.raw), 'the older copy');
  });
});

test('volume table: a damaged copy is passed over; with both gone volumes are named by id', (t) => {
  if (TOOLS) return t.skip(TOOLS);
  inTempDir((dir) => {
    const built = build(dir, 512);
    const one = Buffer.from(built.image);
    one[2048 + 20] = 0x41; // record 0's name, in the first copy
    assertVolumes(extract(one).files, built);
    const both = Buffer.from(one);
    both[PEB + 2048 + 20] = 0x41;
    const { files, problems } = extract(both);
    assert.deepEqual([...files.keys()], ['volume-0.ubivol', 'kernel.ubivol']);
    assert.ok(
      problems.some((p) => /record 0: CRC mismatch/.test(p)) && problems.some((p) => /not in the volume table/.test(p)),
    );
  });
});

test('bad blocks between PEBs and bytes around the image: the volumes are whole, the extent exact', (t) => {
  if (TOOLS) return t.skip(TOOLS);
  inTempDir((dir) => {
    const built = build(dir, 512);
    const { image } = built;
    const bad = Buffer.alloc(PEB, 0xff);
    const noise = Buffer.from(Uint8Array.from({ length: PEB }, (_, i) => (i * 7) & 0xff));
    const gappy = Buffer.concat([image.subarray(0, 3 * PEB), bad, noise, image.subarray(3 * PEB)]);
    const framed = Buffer.concat([Buffer.alloc(5000, 0x5a), gappy, Buffer.alloc(PEB, 0xff), Buffer.from('tail')]);
    const { probed, files, problems } = extract(framed, 5000);
    assert.equal(probed.size, gappy.length);
    assert.deepEqual(problems, []);
    assertVolumes(files, built);
  });
});

test('the unpacker takes the volumes out and recurses into the UBIFS one', (t) => {
  if (TOOLS) return t.skip(TOOLS);
  inTempDir((dir) => {
    const built = build(dir, 512);
    const { report, files } = unpackInMemory(built.image, { formats: [ubiFormat, ubifsFormat] });
    assert.deepEqual(report.problems, []);
    const inside = '0x0-ubi/rootfs.ubivol_extract/0x0-ubifs/';
    assert.equal(Buffer.from(files.get(`${inside}etc/hostname`)!).toString(), 'binlens\n');
    assert.ok(Buffer.from(files.get(`${inside}blob`)!).equals(readFileSync(join(dir, 'src/blob'))));
    assert.ok(Buffer.from(files.get('0x0-ubi/kernel.ubivol')!).equals(built.raw));
    assert.ok(report.links.some((l) => l.path === `${inside}link` && l.target === 'etc/hostname'));
  });
});

test('a volume bigger than the budget ends in OutputLimitError', (t) => {
  if (TOOLS) return t.skip(TOOLS);
  inTempDir((dir) => {
    const { image } = build(dir, 512);
    const probed = ubiFormat.probe(image, 0, context())!;
    assert.throws(() => [...probed.entries(context([], 100_000))], OutputLimitError);
  });
});

test('damaged images end fast with only DecodeError, OutputLimitError or problems', (t) => {
  if (TOOLS) return t.skip(TOOLS);
  inTempDir((dir) => {
    const { image } = build(dir, 512);
    const pebs = image.length / PEB;
    const rnd = seededRandom(0x55424923);
    for (let i = 0; i < 300; i++) {
      let bytes: Buffer;
      if (i < 60) bytes = image.subarray(0, Math.floor(rnd() * image.length));
      else {
        bytes = Buffer.from(image);
        for (let k = 0, n = 1 + Math.floor(rnd() * 4); k < n; k++)
          bytes[Math.floor(rnd() * bytes.length)] = Math.floor(rnd() * 256);
        // Most cases set a header field at random and re-seal the header, so the hostile values get read.
        if (i % 4) {
          const peb = Math.floor(rnd() * pebs);
          const header = i % 2 ? 0 : 512;
          const at = peb * PEB + header;
          bytes[at + 4 + Math.floor(rnd() * 56)] = Math.floor(rnd() * 256);
          bytes.writeUInt32BE(ubiCrc(bytes.subarray(at, at + 60)), at + 60);
        }
      }
      const started = performance.now();
      try {
        const probed = ubiFormat.probe(bytes, 0, context());
        if (probed) {
          assert.ok(probed.size > 0 && probed.size <= bytes.length);
          for (const e of probed.entries(context([], i % 7 ? 1 << 30 : 300_000))) void e;
        }
      } catch (err) {
        if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
      }
      assert.ok(performance.now() - started < 2000, `case ${i} took too long`);
    }
  });
});
