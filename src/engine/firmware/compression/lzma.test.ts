import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { compressible } from '../../../../test/helpers/firmware/compressible.js';
import { assertDecoderSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { toolOutput } from '../../../../test/helpers/firmware/tool-output.js';
import { missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from './errors.js';
import { decodeLzmaAlone, decodeLzmaRaw, lzmaAloneHeader } from './lzma.js';

const noXz = missingTool('xz', 'xz-utils') ?? false;
const noLzmaAlone = missingTool('lzma_alone', 'lzma-alone') ?? false;

const xz = (data: Uint8Array, args: string[]) => new Uint8Array(runTool('xz', ['-c', ...args], { input: data }));

const lzmaAlone = (data: Uint8Array, args: string[]) =>
  toolOutput([data], ([input], output) => runTool('lzma_alone', ['e', input!, output, ...args]));

const text = new TextEncoder().encode('LZMA is in most router firmware. '.repeat(3000));

test('lzma-alone: xz --format=lzma output decodes exactly, at several presets', { skip: noXz }, () => {
  for (const [seed, preset] of [
    [1, '-0'],
    [2, '-6'],
    [3, '-9e'],
  ] as const) {
    for (const data of [compressible(300_000, seed), text, new Uint8Array(0)]) {
      const packed = xz(data, ['--format=lzma', preset]);
      const header = lzmaAloneHeader(packed);
      assert.ok(header);
      assert.equal(header.unpackedSize, null);
      const out = decodeLzmaAlone(packed, 1 << 24);
      assert.deepEqual(out.data, data);
      assert.equal(out.consumed, packed.length);
      // Trailing junk is left alone: consumed is the stream's own extent.
      const junk = Buffer.concat([packed, Uint8Array.of(0x5d, 0, 0, 0x80, 0, 1, 2, 3)]);
      assert.equal(decodeLzmaAlone(junk, 1 << 24).consumed, packed.length);
    }
  }
});

test(
  'lzma-alone: 7-Zip SDK streams with a known size and no end marker, lc/lp/pb at their limits',
  {
    skip: noLzmaAlone,
  },
  () => {
    const data = compressible(200_000, 4);
    for (const args of [['-d16'], ['-lc8', '-lp4', '-pb4', '-d20'], ['-lc0', '-lp0', '-pb0'], ['-a0', '-d12']]) {
      const packed = lzmaAlone(data, args);
      const header = lzmaAloneHeader(packed);
      assert.equal(header?.unpackedSize, data.length);
      const out = decodeLzmaAlone(Buffer.concat([packed, new Uint8Array(64).fill(0xff)]), 1 << 24);
      assert.deepEqual(out.data, data);
      assert.equal(out.consumed, packed.length);
      // The same stream without its size ends, leniently, where its input ends.
      const raw = decodeLzmaRaw(packed.subarray(13), header!.props, 1 << 24, null);
      assert.deepEqual(raw.data, data);
      assert.equal(raw.consumed, packed.length - 13);
    }
    // -eos: an end marker, and an unknown size.
    const eos = lzmaAlone(data, ['-eos']);
    assert.deepEqual(decodeLzmaAlone(eos, 1 << 24).data, data);
  },
);

test('lzma-alone: a known size followed by an end marker is accepted', { skip: noXz }, () => {
  const data = compressible(50_000, 5);
  const packed = xz(data, ['--format=lzma', '-6']);
  new DataView(packed.buffer).setUint32(5, data.length, true);
  new DataView(packed.buffer).setUint32(9, 0, true);
  const out = decodeLzmaAlone(packed, 1 << 20);
  assert.deepEqual(out.data, data);
  assert.equal(out.consumed, packed.length);
  // One byte short of the size: the end marker comes too early.
  new DataView(packed.buffer).setUint32(5, data.length + 1, true);
  assert.throws(() => decodeLzmaAlone(packed, 1 << 20), DecodeError);
  new DataView(packed.buffer).setUint32(5, data.length - 1, true);
  assert.throws(() => decodeLzmaAlone(packed, 1 << 20), DecodeError);
});

test('lzma raw: xz --format=raw --lzma1 with the options spelled out', { skip: noXz }, () => {
  const data = compressible(120_000, 6);
  for (const [lc, lp, pb, dict] of [
    [3, 0, 2, 1 << 16],
    [0, 2, 0, 1 << 20],
    [4, 0, 4, 4096],
    [1, 3, 1, 3 << 15],
  ] as const) {
    const packed = xz(data, ['--format=raw', `--lzma1=lc=${lc},lp=${lp},pb=${pb},dict=${dict}`]);
    const props = { lc, lp, pb, dictSize: dict };
    const out = decodeLzmaRaw(Buffer.concat([packed, Uint8Array.of(1, 2, 3)]), props, 1 << 20, null);
    assert.deepEqual(out.data, data);
    assert.equal(out.consumed, packed.length);
    assert.deepEqual(decodeLzmaRaw(packed, props, 1 << 20, data.length).data, data);
  }
});

test('lzma: a 15 KiB stream of 100 MiB ends in OutputLimitError at a small bound', { skip: noXz }, () => {
  const bomb = xz(new Uint8Array(100 << 20), ['--format=lzma', '-0']);
  assert.ok(bomb.length < 20_000);
  const started = performance.now();
  assert.throws(() => decodeLzmaAlone(bomb, 1 << 20), OutputLimitError);
  assert.ok(performance.now() - started < 2000);
});

test('lzma-alone header: only plausible headers count (carving meets these bytes by chance)', () => {
  const header = (props: number, dict: number, lo: number, hi: number, first = 0) => {
    const b = new Uint8Array(32);
    const v = new DataView(b.buffer);
    b[0] = props;
    v.setUint32(1, dict, true);
    v.setUint32(5, lo, true);
    v.setUint32(9, hi, true);
    b[13] = first;
    return b;
  };
  assert.deepEqual(lzmaAloneHeader(header(0x5d, 1 << 23, 1234, 0)), {
    props: { lc: 3, lp: 0, pb: 2, dictSize: 1 << 23 },
    unpackedSize: 1234,
  });
  assert.equal(lzmaAloneHeader(header(0x5d, 3 << 20, -1, -1))?.unpackedSize, null);
  assert.equal(lzmaAloneHeader(header(0x5d, 4096, 0, 255))?.unpackedSize, 255 * 2 ** 32);
  assert.equal(lzmaAloneHeader(header(225, 1 << 23, 0, 0)), null); // props past 4·45 + 4·9 + 8
  assert.equal(lzmaAloneHeader(header(0x5d, 1000, 0, 0)), null); // dictionary too small
  assert.equal(lzmaAloneHeader(header(0x5d, 0x12345, 0, 0)), null); // neither 2^n nor 2^n + 2^(n-1)
  assert.equal(lzmaAloneHeader(header(0x5d, 1 << 31, 0, 0)), null); // past 1.5 GiB
  assert.equal(lzmaAloneHeader(header(0x5d, 1 << 23, 0, 256)), null); // 2^40 bytes
  assert.equal(lzmaAloneHeader(header(0x5d, 1 << 23, 0, 0, 1)), null); // range coder's first byte not 0
  assert.equal(lzmaAloneHeader(header(0x5d, 1 << 23, 0, 0).subarray(0, 17)), null);
  assert.throws(() => decodeLzmaAlone(header(0xe1, 1 << 23, 0, 0), 100), DecodeError);
});

test('lzma: matches must stay within the data, and sizes within the bound', () => {
  // Range-coded bytes that decode to a match at distance 1 before any literal.
  const props = { lc: 3, lp: 0, pb: 2, dictSize: 1 << 16 };
  assert.throws(
    () => decodeLzmaRaw(Uint8Array.of(0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), props, 100, null),
    DecodeError,
  );
  assert.throws(() => decodeLzmaRaw(Uint8Array.of(0, 0, 0, 0, 0), props, 100, 101), OutputLimitError);
  assert.throws(() => decodeLzmaRaw(Uint8Array.of(1, 0, 0, 0, 0), props, 100, null), DecodeError);
  assert.deepEqual(decodeLzmaRaw(Uint8Array.of(0, 0, 0, 0, 0), props, 100, 0), {
    data: new Uint8Array(0),
    consumed: 5,
  });
});

test('lzma: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip: noXz }, () => {
  const packed = xz(compressible(40_000, 7), ['--format=lzma', '-6']);
  // A fifth of the changes land in the 13-byte header.
  assertDecoderSurvivesDamage((b) => decodeLzmaAlone(b, 1 << 20), packed, {
    random: seededRandom(8),
    cases: 400,
    span: (_, next) => (next() < 0.2 ? 13 : Infinity),
  });
});
