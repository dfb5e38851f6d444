import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { seededRandom } from '../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { toolOutput } from '../../../../test/helpers/firmware/tool-output.js';
import { missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { entriesOf, onlyFile, readContext } from '../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../test/helpers/samples.js';
import { OutputLimitError } from '../compression/errors.js';
import { androidSparseFormat } from './android-sparse.js';

const skip = missingTool('img2simg', 'android-sdk-libsparse-utils') ?? false;

/** Noise, a hole, a 4-byte pattern, noise, a hole: img2simg writes RAW, DONT_CARE, FILL, RAW, DONT_CARE. */
function image(blockSize: number, seed = 1): Uint8Array {
  const pattern = new Uint8Array(7 * blockSize);
  for (let i = 0; i < pattern.length; i += 4) pattern.set([0xde, 0xad, 0xbe, 0xef], i);
  const holes = (blocks: number) => new Uint8Array(blocks * blockSize);
  return Buffer.concat([noise(10 * blockSize, seed), holes(20), pattern, noise(3 * blockSize, seed + 1), holes(2)]);
}

const img2simg = (raw: Uint8Array, blockSize: number) =>
  toolOutput([raw], ([input], output) => runTool('img2simg', [input!, output, String(blockSize)]));

/** The expanded image of a sparse image at data[offset]. */
const extract = (data: Uint8Array, offset = 0) => onlyFile(androidSparseFormat, 'image.raw', data, offset);

/** A sparse image built by hand: a header, then chunks of [type, blocks, data]. */
function build(blockSize: number, chunks: [number, number, Uint8Array][], checksum = 0): Uint8Array {
  const totalBlocks = chunks.reduce((n, [, blocks]) => n + blocks, 0);
  const parts: Uint8Array[] = [];
  const header = new DataView(new ArrayBuffer(28));
  header.setUint32(0, 0xed26ff3a, true);
  header.setUint16(4, 1, true);
  header.setUint16(8, 28, true);
  header.setUint16(10, 12, true);
  header.setUint32(12, blockSize, true);
  header.setUint32(16, totalBlocks, true);
  header.setUint32(20, chunks.length, true);
  header.setUint32(24, checksum, true);
  parts.push(new Uint8Array(header.buffer));
  for (const [type, blocks, data] of chunks) {
    const c = new DataView(new ArrayBuffer(12));
    c.setUint16(0, type, true);
    c.setUint32(4, blocks, true);
    c.setUint32(8, 12 + data.length, true);
    parts.push(new Uint8Array(c.buffer), data);
  }
  return Buffer.concat(parts);
}

const le32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0, true);
  return b;
};

test('android sparse: img2simg output expands to its input, at two block sizes', { skip }, () => {
  for (const blockSize of [4096, 1024]) {
    const raw = image(blockSize);
    const sparse = img2simg(raw, blockSize);
    const withJunk = Buffer.concat([Buffer.from('prefix'), sparse, Buffer.from('trailing junk')]);
    const r = extract(withJunk, 6);
    assert.equal(r.size, sparse.length);
    assert.ok(r.data.equals(raw));
    assert.deepEqual(r.problems, []);
  }
});

test('android sparse: CRC32 chunks and the header checksum are verified', () => {
  const raw = Uint8Array.from({ length: 8192 }, (_, i) => (i * 7) & 0xff);
  const fill = new Uint8Array(4096 * 3);
  for (let i = 0; i < fill.length; i += 4) fill.set([1, 2, 3, 4], i);
  const whole = Buffer.concat([raw, new Uint8Array(4096), fill]);
  const good = build(
    4096,
    [
      [0xcac1, 2, raw],
      [0xcac4, 0, le32(crc32(raw))],
      [0xcac3, 1, new Uint8Array(0)],
      [0xcac2, 3, new Uint8Array([1, 2, 3, 4])],
      [0xcac4, 0, le32(crc32(whole))],
    ],
    crc32(whole),
  );
  const read = extract(good);
  assert.ok(read.data.equals(whole));
  assert.deepEqual(read.problems, []);
  const bad = build(4096, [
    [0xcac1, 2, raw],
    [0xcac4, 0, le32(crc32(raw) ^ 1)],
  ]);
  const badRead = extract(bad);
  assert.ok(badRead.data.equals(raw));
  assert.equal(badRead.problems.length, 1);
});

test('android sparse: headers and chunks that disagree are no sparse image', () => {
  const raw = new Uint8Array(4096).fill(9);
  const cases: [string, Uint8Array][] = [
    ['block count', build(4096, [[0xcac1, 2, raw]])],
    ['unknown chunk type', build(4096, [[0xcac9, 1, raw]])],
    ['fill without its pattern', build(4096, [[0xcac2, 1, new Uint8Array(0)]])],
    ['block size not a multiple of 4', build(4098, [[0xcac3, 1, new Uint8Array(0)]])],
  ];
  const lying = build(4096, [[0xcac1, 1, raw]]);
  new DataView(lying.buffer).setUint32(16, 2, true);
  cases.push(['total blocks', lying]);
  const countLies = build(4096, [[0xcac1, 1, raw]]);
  new DataView(countLies.buffer).setUint32(20, 0xffffffff, true);
  cases.push(['chunk count', countLies]);
  for (const [name, data] of cases) assert.equal(androidSparseFormat.probe(data, 0, readContext()), null, name);
});

test('android sparse: the expanded size is bounded by the budget', () => {
  // 12 bytes of chunk that stand for 4 GiB of hole.
  const hole = build(4096, [[0xcac3, 1 << 20, new Uint8Array(0)]]);
  assert.ok(androidSparseFormat.probe(hole, 0, readContext()));
  assert.throws(() => entriesOf(androidSparseFormat, hole, 0, null, 64 << 20), OutputLimitError);
});

test('android sparse: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip }, () => {
  const sparse = img2simg(image(1024, 2), 1024);
  assertSurvivesDamage(androidSparseFormat, sparse, {
    random: seededRandom(3),
    cases: 300,
    // Half the hits land in the file and first chunk headers, where a wrong byte matters most.
    span: (_, next) => (next() < 0.5 ? 64 : Infinity),
    budget: () => 8 << 20,
    truncatedRefused: true,
  });
});
