import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { compressible as sample } from '../../../../test/helpers/firmware/compressible.js';
import { assertDecoderSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { toolOutput } from '../../../../test/helpers/firmware/tool-output.js';
import { missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from './errors.js';
import {
  LZ4_FRAME_MAGIC,
  LZ4_LEGACY_MAGIC,
  LZ4_SKIPPABLE_MAGIC,
  decodeLz4Block,
  decodeLz4Frame,
  decodeLz4Legacy,
  decodeLz4Stream,
  xxHash32,
} from './lz4.js';

const skip = missingTool('lz4', 'lz4') ?? false;

/** The lz4 tool's output for `data` with `options`. */
const lz4 = (data: Uint8Array, options: string[]) =>
  toolOutput([data], ([input], output) => runTool('lz4', ['-q', '-f', ...options, input!, output]));

const le32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};

/** The blocks of a frame without content size, dictionary ID or block checksums: [compressed, raw] each. */
function blocksOf(frame: Uint8Array): { data: Uint8Array; compressed: boolean }[] {
  const v = new DataView(frame.buffer, frame.byteOffset);
  const blocks = [];
  for (let at = 7; ;) {
    const word = v.getUint32(at, true);
    if (word === 0) return blocks;
    const size = word & 0x7fffffff;
    blocks.push({ data: frame.subarray(at + 4, at + 4 + size), compressed: !(word & 0x80000000) });
    at += 4 + size;
  }
}

test('xxHash32 of the empty input is its published value', () => {
  assert.equal(xxHash32(new Uint8Array(0)), 0x02cc5d05);
});

test('lz4 frames: every level, block size and flag the tool writes decode to its input', { skip }, () => {
  const data = sample(1_500_000);
  const cases = [
    [],
    ['-1'],
    ['-9'],
    ['-12'],
    ['-B4'],
    ['-B5'],
    ['-B6'],
    ['-B7'],
    ['--content-size'],
    ['--no-frame-crc'],
    ['-BD'],
    ['-BD', '-B4', '-9'],
    ['-BX', '-B4'],
    ['-BD', '-BX', '--content-size', '-B5', '--no-frame-crc'],
  ];
  for (const options of cases) {
    const frame = lz4(data, options);
    const r = decodeLz4Frame(frame, data.length);
    assert.ok(Buffer.from(r.data).equals(data), options.join(' '));
    assert.equal(r.consumed, frame.length, options.join(' '));
  }
});

test('lz4 frames: empty and incompressible inputs', { skip }, () => {
  for (const data of [new Uint8Array(0), new Uint8Array(200_000).map((_, i) => (i * 2654435761) >>> 24)]) {
    const frame = lz4(data, ['-B4']);
    assert.ok(Buffer.from(decodeLz4Frame(frame, data.length).data).equals(data));
  }
});

test('lz4: trailing bytes are left alone (consumed stops at the frame end)', { skip }, () => {
  const data = sample(100_000, 2);
  const frame = lz4(data, []);
  const junk = Buffer.concat([frame, Buffer.from('trailing junk after the frame')]);
  const r = decodeLz4Frame(junk, data.length);
  assert.equal(r.consumed, frame.length);
  assert.ok(Buffer.from(r.data).equals(data));
  const s = decodeLz4Stream(junk, data.length);
  assert.equal(s.consumed, frame.length);
});

test('lz4 streams: frames, a skippable frame and a legacy stream, concatenated', { skip }, () => {
  const a = sample(300_000, 3);
  const b = sample(50_000, 4);
  const c = sample(70_000, 5);
  const skippable = Buffer.concat([le32(LZ4_SKIPPABLE_MAGIC + 7), le32(5), Buffer.from('hello')]);
  const stream = Buffer.concat([lz4(a, ['-BD']), skippable, lz4(b, ['-B4']), lz4(c, ['-l'])]);
  const withJunk = Buffer.concat([stream, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8])]);
  const r = decodeLz4Stream(withJunk, 1 << 20);
  assert.ok(Buffer.from(r.data).equals(Buffer.concat([a, b, c])));
  assert.equal(r.consumed, stream.length);
  assert.throws(() => decodeLz4Stream(Buffer.from('not lz4 at all'), 100), DecodeError);
  assert.throws(() => decodeLz4Stream(Buffer.concat([le32(LZ4_SKIPPABLE_MAGIC), le32(99)]), 100), DecodeError);
});

test('lz4 legacy: 8 MiB blocks, ending at the input, a short block, or the next magic', { skip }, () => {
  const data = sample(9 << 20, 6);
  const legacy = lz4(data, ['-l']);
  assert.equal(new DataView(legacy.buffer, legacy.byteOffset).getUint32(0, true), LZ4_LEGACY_MAGIC);
  const r = decodeLz4Legacy(legacy, data.length);
  assert.ok(Buffer.from(r.data).equals(data));
  assert.equal(r.consumed, legacy.length);
  // Linux appends the decompressed size after a legacy-compressed kernel: it is no part of the stream.
  const kernel = Buffer.concat([legacy, le32(data.length)]);
  assert.equal(decodeLz4Legacy(kernel, data.length).consumed, legacy.length);
  const two = Buffer.concat([legacy, lz4(data.subarray(0, 1000), ['-l'])]);
  assert.equal(decodeLz4Legacy(two, data.length).consumed, legacy.length);
  assert.equal(decodeLz4Stream(two, data.length + 1000).data.length, data.length + 1000);
});

test('lz4 raw blocks: one block of a frame, and a linked block with its dictionary', { skip }, () => {
  const data = sample(300_000, 7);
  const independent = blocksOf(lz4(data, ['-B4', '--no-frame-crc']));
  const first = independent[0]!;
  assert.ok(first.compressed);
  const r = decodeLz4Block(first.data, 64 << 10);
  assert.ok(Buffer.from(r.data).equals(data.subarray(0, 64 << 10)));
  assert.equal(r.consumed, first.data.length);

  const linked = blocksOf(lz4(data, ['-B4', '-BD', '--no-frame-crc']));
  const second = linked.slice(1).find((b) => b.compressed)!;
  const index = linked.indexOf(second);
  const start = index * (64 << 10);
  const withDictionary = decodeLz4Block(second.data, 64 << 10, data.subarray(0, start));
  assert.ok(Buffer.from(withDictionary.data).equals(data.subarray(start, start + (64 << 10))));
  assert.throws(() => decodeLz4Block(second.data, 64 << 10), DecodeError);
});

test('lz4 raw blocks: malformed sequences are DecodeErrors', () => {
  const cases: [string, number[]][] = [
    ['empty', []],
    ['literal run past the end', [0x50, 1, 2]],
    ['offset zero', [0x10, 0x41, 0x00, 0x00, 0x00]],
    ['offset before the start', [0x10, 0x41, 0x05, 0x00, 0x00]],
    ['ends after a match', [0x10, 0x41, 0x01, 0x00]],
    ['ends inside a length', [0xf0, 0xff]],
    ['ends inside an offset', [0x10, 0x41, 0x01]],
  ];
  for (const [name, bytes] of cases)
    assert.throws(() => decodeLz4Block(new Uint8Array(bytes), 1000), DecodeError, name);
  assert.ok(
    Buffer.from(decodeLz4Block(new Uint8Array([0x10, 0x41, 0x01, 0x00, 0x10, 0x42]), 100).data).equals(
      Buffer.from('AAAAAB'),
    ),
  );
});

test('lz4 bombs end at the bound', { skip }, () => {
  // One literal, then a match of 255 · 4000 bytes from one byte back: 1 MB from 4 KB.
  const bomb = new Uint8Array([0x1f, 0x41, 0x01, 0x00, ...new Array(4000).fill(255), 0, 0x10, 0x42]);
  assert.throws(() => decodeLz4Block(bomb, 100_000), OutputLimitError);
  assert.equal(decodeLz4Block(bomb, 2_000_000).data.length, 1 + 255 * 4000 + 15 + 4 + 1);
  const zeros = new Uint8Array(20 << 20);
  for (const options of [['-B7'], ['--content-size'], ['-l']]) {
    const frame = lz4(zeros, options);
    assert.throws(() => decodeLz4Stream(frame, 1 << 20), OutputLimitError, options.join(' '));
  }
});

test('lz4: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip }, () => {
  const data = sample(40_000, 8);
  const random = seededRandom(9);
  const inputs = [
    lz4(data, ['-B4', '--no-frame-crc']),
    lz4(data, ['-B4', '-BD', '-BX', '--content-size']),
    lz4(data, ['-l']),
  ];
  let failures = 0;
  for (const input of inputs) {
    failures += assertDecoderSurvivesDamage((b) => decodeLz4Stream(b, 1 << 20), input, {
      random,
      cases: 250,
      truncatedFail: true,
    });
    // The same bytes past a frame header, as one raw block.
    const block = (b: Uint8Array) => decodeLz4Block(b.subarray(11), 1 << 20);
    failures += assertDecoderSurvivesDamage(block, input, { random, cases: 150, truncations: 0 });
  }
  assert.ok(failures > 0);
});

test('lz4 frames: a header that lies is refused', () => {
  const header = (flg: number, bd: number, extra: number[] = []) => {
    const d = new Uint8Array([flg, bd, ...extra]);
    return new Uint8Array([...le32(LZ4_FRAME_MAGIC), ...d, (xxHash32(d) >>> 8) & 0xff]);
  };
  const end = [0, 0, 0, 0];
  assert.equal(decodeLz4Frame(new Uint8Array([...header(0x60, 0x40), ...end]), 10).data.length, 0);
  assert.throws(() => decodeLz4Frame(new Uint8Array([...header(0x80, 0x40), ...end]), 10), DecodeError);
  assert.throws(() => decodeLz4Frame(new Uint8Array([...header(0x60, 0x30), ...end]), 10), DecodeError);
  assert.throws(() => decodeLz4Frame(new Uint8Array([...header(0x61, 0x40, [1, 2, 3, 4]), ...end]), 10), DecodeError);
  const badChecksum = header(0x60, 0x40);
  badChecksum[6]! ^= 1;
  assert.throws(() => decodeLz4Frame(new Uint8Array([...badChecksum, ...end]), 10), DecodeError);
  // A content size past the bound stops before any block is read.
  const huge = header(0x68, 0x40, [0, 0, 0, 0, 1, 0, 0, 0]);
  assert.throws(() => decodeLz4Frame(new Uint8Array([...huge, ...end]), 1 << 20), OutputLimitError);
  const wrong = header(0x68, 0x40, [5, 0, 0, 0, 0, 0, 0, 0]);
  assert.throws(() => decodeLz4Frame(new Uint8Array([...wrong, ...end]), 1 << 20), DecodeError);
  // A block larger than the frame's maximum.
  assert.throws(
    () => decodeLz4Frame(new Uint8Array([...header(0x60, 0x40), ...le32(0x80010001)]), 1 << 20),
    DecodeError,
  );
});
