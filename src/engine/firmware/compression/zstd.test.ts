import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { compressible } from '../../../../test/helpers/firmware/compressible.js';
import { assertDecoderSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { toolOutput } from '../../../../test/helpers/firmware/tool-output.js';
import { missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from './errors.js';
import { decodeZstd, ZSTD_MAGIC, zstdFrameSize } from './zstd.js';
import { xxh64 } from './zstd-xxh64.js';

const skip = missingTool('zstd', 'zstd') ?? false;

/** The zstd tool's frame for `data` given as a file (so the frame may record its size). */
const zstd = (data: Uint8Array, options: string[]) =>
  toolOutput([data], ([input], output) => runTool('zstd', ['-q', '-f', ...options, input!, '-o', output]));

/** The zstd tool's frame for `data` given on standard input: no content size, window from the level. */
const zstdPiped = (data: Uint8Array, options: string[]) =>
  new Uint8Array(runTool('zstd', ['-q', '-c', ...options], { input: data }));

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

function noise(size: number, seed: number): Uint8Array {
  const next = seededRandom(seed);
  return Uint8Array.from({ length: size }, () => next() * 256);
}

/** Machine code (the node binary, most of it x86-64 or ARM64) and generated text, `size` bytes in all. */
function binariesAndText(size: number): Uint8Array {
  const binary = readFileSync(process.execPath).subarray(0, Math.floor(size * 0.6));
  const next = seededRandom(7);
  const words = ['squashfs', 'inode', 'kernel', 'the', 'of', 'firmware', 'block', '0x', 'error:', 'mtd0'];
  const text = Buffer.alloc(size - binary.length);
  for (let at = 0; at < text.length;) {
    const word = words[Math.floor(next() * words.length)]!;
    at += text.write(next() < 0.1 ? `${word}\n` : `${word} ${Math.floor(next() * 1000)} `, at);
  }
  return concat(binary, text);
}

/** The block types of a frame (0 raw, 1 RLE, 2 compressed), walked from its header. */
function blockTypes(frame: Uint8Array): Set<number> {
  const fhd = frame[4]!;
  const single = (fhd >> 5) & 1;
  let at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3]! + [single, 2, 4, 8][fhd >> 6]!;
  const types = new Set<number>();
  for (;;) {
    const header = frame[at]! | (frame[at + 1]! << 8) | (frame[at + 2]! << 16);
    types.add((header >> 1) & 3);
    at += 3 + (((header >> 1) & 3) === 1 ? 1 : header >>> 3);
    if (header & 1) return types;
  }
}

function roundTrip(data: Uint8Array, frame: Uint8Array, label: string): void {
  const out = decodeZstd(frame, data.length);
  assert.ok(Buffer.from(out.data).equals(Buffer.from(data)), `${label}: bytes differ`);
  assert.equal(out.consumed, frame.length, `${label}: consumed`);
  assert.equal(zstdFrameSize(frame), frame.length, `${label}: frame size`);
}

test('zstd: levels 1, 3, 19 and --ultra -22, with and without checksum and content size', { skip }, () => {
  const data = compressible(400_000, 1);
  for (const level of [['-1'], ['-3'], ['-19'], ['--ultra', '-22']])
    for (const check of ['--check', '--no-check'])
      for (const size of ['--content-size', '--no-content-size']) {
        const frame = zstd(data, [...level, check, size]);
        assert.equal(frame[4]! & 0x04 ? '--check' : '--no-check', check);
        assert.equal(frame[4]! >> 6 || frame[4]! & 0x20 ? '--content-size' : '--no-content-size', size);
        roundTrip(data, frame, [...level, check, size].join(' '));
      }
  roundTrip(data, zstdPiped(data, ['-3']), 'piped');
  // The optimal parser of high levels uses all three repeat offsets on machine code.
  const code = binariesAndText(1_000_000);
  roundTrip(code, zstd(code, ['-19']), 'code -19');
  // Sizes around the 32-byte stripes of XXH64 and the 4-stream Huffman split.
  for (const n of [1, 7, 31, 32, 33, 100, 255, 1023, 1024, 5000])
    roundTrip(data.subarray(0, n), zstd(data.subarray(0, n), ['-19']), `${n} bytes`);
});

test('zstd: --long=27 matches reach 10 MB back through a 128 MiB window', { skip }, () => {
  const block = noise(1 << 20, 2);
  const data = concat(block, compressible(9_000_000, 3, { window: 1 << 16 }), block);
  const frame = zstdPiped(data, ['-3', '--long=27']);
  assert.equal(frame[5]! >> 3, 27 - 10, 'window descriptor of 2^27');
  assert.ok(frame.length < data.length - (900 << 10), 'the repeated megabyte was matched');
  roundTrip(data, frame, '--long=27');
});

test('zstd: 20 MB of machine code and text, with and without its size', { skip }, () => {
  const data = binariesAndText(20_000_000);
  roundTrip(data, zstd(data, ['-3']), '-3');
  roundTrip(data, zstdPiped(data, ['-1', '--no-check']), 'piped -1');
});

test('zstd: an empty input, zeros (RLE blocks), and noise (raw blocks)', { skip }, () => {
  const empty = zstd(new Uint8Array(0), []);
  assert.deepEqual(decodeZstd(empty, 0), { data: new Uint8Array(0), consumed: empty.length });
  const zeros = new Uint8Array(5_000_000);
  const rle = zstd(zeros, ['-3']);
  assert.ok(blockTypes(rle).has(1), 'RLE blocks');
  roundTrip(zeros, rle, 'zeros');
  roundTrip(zeros, zstdPiped(zeros, ['-19']), 'zeros piped');
  const random = noise(1_000_000, 4);
  const raw = zstd(random, ['-3']);
  assert.deepEqual([...blockTypes(raw)], [0], 'raw blocks only');
  roundTrip(random, raw, 'noise');
  // Runs, noise and text in one: RLE and raw literals beside Huffman ones.
  const mixed = concat(zeros.subarray(0, 300_000), random.subarray(0, 300_000), compressible(300_000, 5));
  roundTrip(mixed, zstd(mixed, ['-19']), 'mixed');
});

test('zstd: concatenated frames decode one at a time; trailing junk is not consumed', { skip }, () => {
  const a = compressible(200_000, 6);
  const b = noise(50_000, 7);
  const fa = zstd(a, ['-3']);
  const fb = zstdPiped(b, ['-19', '--no-check']);
  const both = concat(fa, fb, Uint8Array.of(0x13, 0x37));
  const first = decodeZstd(both, 1 << 20);
  assert.ok(Buffer.from(first.data).equals(Buffer.from(a)));
  assert.equal(first.consumed, fa.length);
  const second = decodeZstd(both.subarray(first.consumed), 1 << 20);
  assert.ok(Buffer.from(second.data).equals(Buffer.from(b)));
  assert.equal(second.consumed, fb.length);
  assert.equal(zstdFrameSize(both), fa.length);
  assert.equal(zstdFrameSize(Uint8Array.of(0x13, 0x37, 0, 0, 0, 0, 0, 0, 0, 0)), null);
  assert.throws(() => decodeZstd(Uint8Array.of(0x28, 0xb5, 0x2f), 100), /not a Zstandard frame/);
});

test('zstd: the input that hung fzstd (Huffman weights read no bits) ends in DecodeError', () => {
  const hex =
    '28b52ffd606405d50400a24b1922f137ad010fd0a5feff7dddf23fe9b819553e43e3627c6c41317fc2ba8990bdb74c010784' +
    '42cde0fd40e477fecda138b3281ffb5d899684207993b070f6bfff55f97fd2fc6ef8fa2fc8bb8cbacead417df5c5dbe39226e9' +
    '990ecf73e677162d08c65f95051200c0904332074004e5ec4b3d729c5778b63f5c3f58bae76056c8780b0e165776e0525ddbc8' +
    '9696663a5e35b9e06c14ea09';
  const inputs = [new Uint8Array(Buffer.from(hex, 'hex'))];
  if (existsSync('/tmp/sqt/zstd-hang.bin')) inputs.push(new Uint8Array(readFileSync('/tmp/sqt/zstd-hang.bin')));
  for (const input of inputs) {
    const started = performance.now();
    assert.throws(() => decodeZstd(input, 8192), DecodeError);
    assert.ok(performance.now() - started < 200);
  }
});

test('zstd: a bomb ends in OutputLimitError, declared or not', { skip }, () => {
  const zeros = new Uint8Array(200 << 20);
  for (const bomb of [zstdPiped(zeros, ['-3', `--stream-size=${zeros.length}`]), zstdPiped(zeros, ['-3'])]) {
    assert.ok(bomb.length < 20_000);
    const started = performance.now();
    assert.throws(() => decodeZstd(bomb, 1 << 20), OutputLimitError);
    assert.ok(performance.now() - started < 2000);
  }
  const data = compressible(100_000, 8);
  for (const frame of [zstd(data, ['-3']), zstdPiped(data, ['-3'])]) {
    assert.equal(decodeZstd(frame, data.length).data.length, data.length);
    assert.throws(() => decodeZstd(frame, data.length - 1), OutputLimitError);
  }
});

test('zstd: dictionaries, a wrong checksum or size, and reserved fields are refused by name', { skip }, () => {
  // Magic, FHD with a 1-byte dictionary ID, window descriptor, dictionary 42, an empty last raw block.
  const withDictionary = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 1, 0, 42, 1, 0, 0);
  assert.equal(new DataView(withDictionary.buffer).getUint32(0, true), ZSTD_MAGIC);
  assert.throws(() => decodeZstd(withDictionary, 100), /dictionaries are not supported/);
  const noDictionary = withDictionary.slice();
  noDictionary[6] = 0; // ID 0: no dictionary
  assert.equal(decodeZstd(noDictionary, 100).consumed, noDictionary.length);

  const data = compressible(50_000, 9);
  const frame = zstd(data, ['-3']);
  const badCheck = frame.slice();
  badCheck[badCheck.length - 1] = frame[frame.length - 1]! ^ 1;
  assert.throws(() => decodeZstd(badCheck, 1 << 20), /checksum does not match/);
  assert.throws(() => decodeZstd(frame.subarray(0, frame.length - 1), 1 << 20), /checksum truncated/);
  const reserved = frame.slice();
  reserved[4] = frame[4]! | 0x08;
  assert.throws(() => decodeZstd(reserved, 1 << 20), /reserved/);

  // Frames declaring a byte more, or less, than they hold. 2-byte content sizes (less 256) at 5, 4-byte at 6
  // after the window descriptor (frames larger than their window).
  const resized = (frame: Uint8Array, by: number) => {
    const copy = frame.slice();
    const [at, bytes] = frame[4]! >> 6 === 1 ? [5, 2] : [6, 4];
    assert.equal(frame[4]! >> 6, bytes >> 1, 'the content size is where it is expected');
    const v = new DataView(copy.buffer);
    if (bytes === 2) v.setUint16(at, v.getUint16(at, true) + by, true);
    else v.setUint32(at, v.getUint32(at, true) + by, true);
    return copy;
  };
  const raw = zstd(noise(1000, 10), ['--no-check']);
  assert.throws(() => decodeZstd(resized(raw, 1), 1 << 20), /its blocks hold at most 1000/);
  const small = zstd(data, ['-3', '--no-check']);
  // Single-segment: the window, and so the largest block, is the content size.
  assert.throws(() => decodeZstd(resized(small, -1), 1 << 20), /block decodes to more than 49999 bytes/);
  assert.throws(() => decodeZstd(resized(small, 1), 1 << 20), /decodes to 50000 bytes, not its declared 50001/);
  const large = zstd(compressible(3_000_000, 14), ['-1', '--no-check']);
  assert.equal(large[4]! & 0x20, 0, 'not single-segment');
  assert.throws(() => decodeZstd(resized(large, -1), 1 << 30), /more than its declared 2999999 bytes/);
});

test('zstd: XXH64 matches its published values', () => {
  const hex = (s: string) => {
    const [low, high] = xxh64(new TextEncoder().encode(s));
    return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
  };
  assert.equal(hex(''), 'ef46db3751d8e999');
  assert.equal(hex('a'), 'd24ec4f1a98c6e5b');
  assert.equal(hex('abc'), '44bc2cf5ad770999');
  assert.equal(hex('Nobody inspects the spammish repetition'), 'fbcea83c8a378bf1');
});

test('zstd: 1000 truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip }, () => {
  const random = seededRandom(11);
  const data = compressible(60_000, 12);
  const frames = [
    zstd(data, ['-1']),
    zstd(data, ['-19', '--no-check']),
    zstdPiped(concat(data.subarray(0, 20_000), noise(5000, 13), new Uint8Array(5000)), ['-3', '--no-check']),
    zstd(binariesAndText(80_000), ['--ultra', '-22']),
  ];
  let threw = 0;
  for (const frame of frames) {
    threw += assertDecoderSurvivesDamage((input) => decodeZstd(input, 1 << 20), frame, {
      random,
      cases: 250,
      truncations: 60,
      // A third of the changes land in the first 64 bytes: the frame header and first tables.
      span: (i, next) => (next() < 0.3 ? 64 : frame.length),
      truncatedFail: true,
    });
  }
  assert.ok(threw > 700, `${threw} of 1000 refused`);
});
