import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { compressible } from '../../../../test/helpers/firmware/compressible.js';
import { assertDecoderSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { noise } from '../../../../test/helpers/samples.js';
import { DecodeError, OutputLimitError } from './errors.js';
import { LZOP_MAGIC, adler32, decodeLzo1x, decodeLzop } from './lzo.js';

const skip = missingTool('lzop', 'lzop') ?? false;

/** Every LZO instruction: copies from up to 48 KiB back give the far (0001HLLL) matches. */
const sample = (size: number, seed = 1) => compressible(size, seed, { stretch: 6000, window: 48_000 });

/** lzop's output for the files `data` (named f0, f1 …) with `options`, all written to one stream. */
function lzop(data: Uint8Array[], options: string[]): Uint8Array {
  return inTempDir((dir) => {
    const names = data.map((d, i) => {
      writeFileSync(join(dir, `f${i}`), d);
      return `f${i}`;
    });
    return new Uint8Array(runTool('lzop', ['-c', ...options, ...names], { cwd: dir }));
  });
}

/** The compressed payloads of an lzop file's first member whose blocks carry only an uncompressed Adler-32. */
function blocks(file: Uint8Array, nameLength: number): { packed: Uint8Array; size: number }[] {
  const v = new DataView(file.buffer, file.byteOffset);
  const out = [];
  for (let at = 9 + 25 + nameLength + 4; ;) {
    const size = v.getUint32(at);
    if (size === 0) return out;
    const packed = v.getUint32(at + 4);
    out.push({ packed: file.subarray(at + 12, at + 12 + packed), size });
    at += 12 + packed;
  }
}

test('adler32 agrees with its definition on a known value', () => {
  assert.equal(adler32(Buffer.from('Wikipedia')), 0x11e60398);
});

test('lzop files: every level and checksum kind decodes to the input', { skip }, () => {
  const data = sample(1_200_000);
  for (const options of [['-1'], [], ['-7'], ['-9'], ['-CC'], ['--crc32'], ['--crc32', '-CC'], ['-F'], ['-9', '-CC']]) {
    const file = lzop([data], options);
    const r = decodeLzop(file, data.length);
    assert.ok(Buffer.from(r.data).equals(data), options.join(' '));
    assert.equal(r.consumed, file.length, options.join(' '));
    assert.equal(r.name, 'f0');
  }
});

test('lzop files: several members, stored blocks, empty files and trailing bytes', { skip }, () => {
  // Noise does not compress: lzop stores those blocks as they are.
  const incompressible = noise(300_000, 11);
  const parts = [sample(400_000, 2), incompressible, new Uint8Array(0), sample(5, 3)];
  const file = lzop(parts, ['-9']);
  const withJunk = Buffer.concat([file, Buffer.from('junk that is not lzop')]);
  const stored = blocks(lzop([incompressible], ['-9']), 2);
  assert.ok(stored.some((b) => b.packed.length === b.size));
  const r = decodeLzop(withJunk, 1 << 20);
  assert.ok(Buffer.from(r.data).equals(Buffer.concat(parts)));
  assert.equal(r.consumed, file.length);
  assert.equal(r.name, 'f0');
});

test('lzo1x streams: each lzop block alone, at -1 and -9, consumed up to its end marker', { skip }, () => {
  const data = sample(600_000, 4);
  for (const level of ['-1', '-9']) {
    const file = lzop([data], [level]);
    let at = 0;
    for (const block of blocks(file, 2)) {
      const original = data.subarray(at, at + block.size);
      at += block.size;
      if (block.packed.length === block.size) continue;
      const trailing = Buffer.concat([block.packed, Buffer.from([0x11, 0, 0, 0xff, 0x42])]);
      const r = decodeLzo1x(trailing, block.size);
      assert.ok(Buffer.from(r.data).equals(original), level);
      assert.equal(r.consumed, block.packed.length, level);
      assert.throws(() => decodeLzo1x(block.packed, block.size - 1), OutputLimitError);
    }
  }
});

test('lzo1x: the shortest streams, and malformed ones', () => {
  assert.equal(decodeLzo1x(new Uint8Array([0x11, 0, 0]), 10).data.length, 0);
  const abc = decodeLzo1x(new Uint8Array([0x14, 0x61, 0x62, 0x63, 0x11, 0, 0]), 10);
  assert.equal(Buffer.from(abc.data).toString(), 'abc');
  const cases: [string, number[]][] = [
    ['empty', []],
    ['no end marker', [0x14, 0x61, 0x62, 0x63]],
    ['literal run past the end', [0x20, 0x61]],
    ['match before the start', [0x12, 0x61, 0x40, 0x10, 0x11, 0, 0]],
    ['far match on an empty window', [0x10, 0x04, 0x00, 0x11, 0, 0]],
    ['end marker cut short', [0x11, 0]],
  ];
  for (const [name, bytes] of cases) assert.throws(() => decodeLzo1x(new Uint8Array(bytes), 100), DecodeError, name);
});

test('lzo1x bombs end at the bound', () => {
  // 'a', then a 001LLLLL match of 31 + 255 · 3000 bytes one byte back: 765 KB from 3 KB.
  const bomb = new Uint8Array([0x12, 0x61, 0x20, ...new Array(3000).fill(0), 1, 0, 0, 0x11, 0, 0]);
  assert.throws(() => decodeLzo1x(bomb, 100_000), OutputLimitError);
  assert.equal(decodeLzo1x(bomb, 1 << 20).data.length, 1 + 2 + 31 + 255 * 3000 + 1);
});

test('lzop: headers and blocks that lie are refused', { skip }, () => {
  const data = sample(100_000, 5);
  const file = lzop([data], []);
  const v = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset);
  assert.throws(() => decodeLzop(file.subarray(1), 1 << 20), DecodeError);
  const badHeader = file.slice();
  badHeader[22]! ^= 4; // the mode: covered by the header checksum
  assert.throws(() => decodeLzop(badHeader, 1 << 20), DecodeError);
  const firstBlock = 9 + 25 + 2 + 4;
  const bigger = file.slice();
  v(bigger).setUint32(firstBlock, 100 << 20);
  assert.throws(() => decodeLzop(bigger, 1 << 30), DecodeError);
  const badSum = file.slice();
  badSum[firstBlock + 8]! ^= 1;
  assert.throws(() => decodeLzop(badSum, 1 << 20), DecodeError);
  assert.throws(() => decodeLzop(file, data.length - 1), OutputLimitError);
  assert.ok(LZOP_MAGIC.every((m, i) => file[i] === m));
});

test('lzop and lzo1x: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip }, () => {
  const data = sample(60_000, 6);
  const random = seededRandom(7);
  const unchecked = lzop([data], ['-F']);
  const checked = lzop([data], ['--crc32', '-CC', '-9']);
  const raw = blocks(lzop([data], ['-1']), 2)[0]!.packed;
  let failures = 0;
  for (const [input, decode] of [
    [unchecked, decodeLzop],
    [checked, decodeLzop],
    [raw, decodeLzo1x],
  ] as const)
    failures += assertDecoderSurvivesDamage((b) => decode(b, 1 << 20), input, {
      random,
      cases: 250,
      truncatedFail: true,
    });
  assert.ok(failures > 0);
});
