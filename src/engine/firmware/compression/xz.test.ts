import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { compressible } from '../../../../test/helpers/firmware/compressible.js';
import { assertDecoderSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { missingTool, runTool, toolPath } from '../../../../test/helpers/firmware/tools.js';
import { noise } from '../../../../test/helpers/samples.js';
import { crc32Value } from '../../fuzzy/crc32.js';
import { DecodeError, OutputLimitError } from './errors.js';
import { decodeLzma2 } from './lzma2.js';
import { crc64, decodeXz, XZ_MAGIC } from './xz.js';

const skip = missingTool('xz', 'xz-utils') ?? false;

// Bytes that make every branch converter's patterns common: E8/E9 with 00/FF tops (x86), EB (ARM), F0/F8
// (Thumb), 48/4B … 01 (PowerPC), 40/7F (SPARC), 94/97 and 90/B0 (ARM64 bl/adrp), IA-64 branch templates.
const OPCODE_BYTES = [0x00, 0xff, 0xe8, 0xe9, 0xeb, 0xf0, 0xf8, 0x48, 0x4b, 0x01, 0x05, 0x40, 0x7f, 0x94, 0x97];
const MORE_OPCODE_BYTES = [0x90, 0xb0, 0x10, 0x11, 0x16, 0x1c];

/** Machine-code-like bytes, repeating itself now and then as real code does. */
function code(seed: number, size: number): Uint8Array {
  const next = seededRandom(seed);
  const bytes = [...OPCODE_BYTES, ...MORE_OPCODE_BYTES];
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const r = next();
    if (r < 0.7) out[i] = bytes[Math.floor(next() * bytes.length)]!;
    else if (r < 0.97 || i < 64) out[i] = next() * 256;
    else out[i] = out[i - 1 - Math.floor(next() * 64)]!;
  }
  return out;
}

const xz = (data: Uint8Array, args: string[]) => new Uint8Array(runTool('xz', ['-c', ...args], { input: data }));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

function roundTrip(data: Uint8Array, args: string[]): void {
  const packed = xz(data, args);
  const out = decodeXz(packed, data.length);
  assert.deepEqual(out.data, data, args.join(' '));
  assert.equal(out.consumed, packed.length, args.join(' '));
}

test('xz: presets and every check (CRC32, CRC64, SHA-256, none)', { skip }, () => {
  const data = compressible(300_000, 1);
  for (const preset of ['-0', '-6', '-9e'])
    for (const check of ['crc32', 'crc64', 'sha256', 'none']) roundTrip(data, [preset, `--check=${check}`]);
  roundTrip(new TextEncoder().encode('router firmware '.repeat(50_000)), ['-6']);
  roundTrip(new Uint8Array(0), []);
});

test('xz: incompressible data (LZMA2 stored chunks) and several blocks with and without sizes', { skip }, () => {
  const incompressible = new Uint8Array(noise(300_000, 2));
  roundTrip(incompressible, ['-6']);
  const data = concat(compressible(400_000, 3), incompressible.subarray(0, 100_000));
  roundTrip(data, ['--block-size=65536']);
  roundTrip(data, ['-T2', '--block-size=100000']);
});

test('xz: BCJ filter chains (x86, PowerPC, IA-64, ARM, ARM-Thumb, SPARC, ARM64) with start offsets', { skip }, () => {
  const data = concat(code(4, 200_000), compressible(50_000, 5), code(6, 3));
  for (const filter of ['x86', 'powerpc', 'ia64', 'arm', 'armthumb', 'sparc', 'arm64']) {
    roundTrip(data, [`--${filter}`, '--lzma2']);
    roundTrip(data, [`--${filter}=start=4096`, '--lzma2=preset=1']);
  }
  // Real x86-64 code: the xz binary itself.
  roundTrip(new Uint8Array(readFileSync(toolPath('xz')!)), ['--x86', '--lzma2', '--check=sha256']);
});

test('xz: Delta at several distances, alone and chained with a BCJ filter', { skip }, () => {
  // 16-bit little-endian samples of a slow wave: what Delta is for.
  const wave = new Uint8Array(200_000);
  for (let i = 0; i < wave.length; i += 2) {
    const s = Math.round(8000 * Math.sin(i / 300) + 3000 * Math.sin(i / 37));
    wave[i] = s & 0xff;
    wave[i + 1] = (s >> 8) & 0xff;
  }
  for (const dist of [1, 2, 4, 256]) roundTrip(wave, [`--delta=dist=${dist}`, '--lzma2']);
  roundTrip(concat(wave, code(7, 50_000)), ['--delta=dist=2', '--x86', '--lzma2', '--check=crc32']);
  roundTrip(concat(wave, code(8, 50_000)), ['--arm', '--delta=dist=4', '--sparc', '--lzma2']);
});

test('xz: concatenated streams, stream padding and trailing junk (consumed is exact)', { skip }, () => {
  const a = compressible(70_000, 9);
  const b = compressible(30_000, 10);
  const pa = xz(a, ['-6']);
  const pb = xz(b, ['--check=sha256']);
  const both = concat(a, b);
  const zeros = (n: number) => new Uint8Array(n);
  const junk = Uint8Array.of(0x13, 0x37, 0, 0, 0, 0);
  const cases: [Uint8Array, Uint8Array, number][] = [
    [concat(pa, pb), both, pa.length + pb.length],
    [concat(pa, zeros(8), pb, zeros(4)), both, pa.length + pb.length + 12], // padding to the end belongs
    [concat(pa, zeros(4), pb, zeros(8), junk), both, pa.length + 4 + pb.length], // padding before junk does not
    [concat(pa, junk), a, pa.length],
    [concat(pa, zeros(3)), a, pa.length],
    [concat(pa, XZ_MAGIC.subarray(0, 4)), a, pa.length],
  ];
  for (const [input, want, consumed] of cases) {
    const out = decodeXz(input, 1 << 20);
    assert.deepEqual(out.data, want);
    assert.equal(out.consumed, consumed);
  }
  // A second stream that is damaged fails the whole, as xz -d does.
  assert.throws(() => decodeXz(concat(pa, pb.subarray(0, pb.length - 1)), 1 << 20), DecodeError);
});

test('lzma2: xz --format=raw --lzma2 streams, consumed through the end byte', { skip }, () => {
  const data = concat(compressible(150_000, 12), noise(80_000, 11));
  for (const opts of ['dict=1MiB', 'preset=0,lc=0,lp=2,pb=0', 'dict=64KiB,lc=4,pb=4']) {
    const packed = xz(data, ['--format=raw', `--lzma2=${opts}`]);
    const out = decodeLzma2(concat(packed, Uint8Array.of(0xfd, 0x37)), 1 << 20, 1 << 20);
    assert.deepEqual(out.data, data);
    assert.equal(out.consumed, packed.length);
  }
  assert.throws(() => decodeLzma2(Uint8Array.of(0x02, 0x00, 0x00, 0x41, 0x00), 4096, 100), /dictionary reset/);
  assert.throws(() => decodeLzma2(Uint8Array.of(0x03, 0x00), 4096, 100), /control byte 0x3/);
  assert.throws(() => decodeLzma2(Uint8Array.of(0x01, 0x00, 0x04, 0x41), 4096, 100), DecodeError);
  assert.throws(() => decodeLzma2(Uint8Array.of(0x01, 0x00, 0x04, 1, 2, 3, 4, 5, 0), 4096, 4), OutputLimitError);
});

test('xz: a 15 KiB stream of 100 MiB ends in OutputLimitError at a small bound', { skip }, () => {
  const bomb = xz(new Uint8Array(100 << 20), ['-0']);
  assert.ok(bomb.length < 20_000);
  const started = performance.now();
  assert.throws(() => decodeXz(bomb, 1 << 20), OutputLimitError);
  assert.ok(performance.now() - started < 2000);
});

test('xz: an unknown filter is named; a wrong check or index is refused', { skip }, () => {
  const data = code(13, 20_000);
  const packed = xz(data, ['--x86', '--lzma2', '--check=crc64']);
  // The block header at 12: size byte, flags, then the x86 filter id (0x04) — make it 0x0B (RISC-V).
  const size = (packed[12]! + 1) * 4;
  const riscv = packed.slice();
  assert.equal(riscv[14], 0x04);
  riscv[14] = 0x0b;
  new DataView(riscv.buffer).setUint32(12 + size - 4, crc32Value(riscv.subarray(12, 12 + size - 4)), true);
  assert.throws(() => decodeXz(riscv, 1 << 20), /filter 0xb is not supported/);

  // The check sits just before the index, which the footer's backward size locates.
  const indexSize = (new DataView(packed.buffer).getUint32(packed.length - 8, true) + 1) * 4;
  const checkAt = packed.length - 12 - indexSize - 8;
  const badCheck = packed.slice();
  badCheck[checkAt] = badCheck[checkAt]! ^ 1;
  assert.throws(() => decodeXz(badCheck, 1 << 20), /check does not match/);
  const badIndex = packed.slice();
  badIndex[packed.length - 12 - indexSize + 2] = badIndex[packed.length - 12 - indexSize + 2]! ^ 1;
  assert.throws(() => decodeXz(badIndex, 1 << 20), DecodeError);
  assert.throws(() => decodeXz(packed, data.length - 1), OutputLimitError);
});

test('xz: CRC-64 matches its published check value', () => {
  assert.deepEqual(crc64(new TextEncoder().encode('123456789')), [0xdf1939fa, 0x995dc9bb]);
});

test('xz: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip }, () => {
  const inputs = [
    xz(compressible(40_000, 14), ['-6', '--check=crc64']),
    xz(code(15, 30_000), ['--x86', '--delta=dist=2', '--lzma2', '--check=none', '--block-size=8000']),
  ];
  const random = seededRandom(16);
  // A fifth of the changes land in the stream header and the first block header.
  for (const input of inputs)
    assertDecoderSurvivesDamage((b) => decodeXz(b, 1 << 20), input, {
      random,
      cases: 200,
      truncations: 50,
      span: (_, next) => (next() < 0.2 ? 64 : Infinity),
    });
});
