import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLOW_NAMES } from '../../../test/helpers/engine/disasm.js';
import { createCapstoneDecoder, createDecoder } from './index.js';
import { Flow, newDecoded, type Decoder, type DecoderMode } from './instruction.js';

const MODES: DecoderMode[] = ['x86', 'x86_64', 'arm', 'thumb', 'arm64', 'mips', 'mipsel'];
const LENGTHS: Record<DecoderMode, (n: number) => boolean> = {
  x86: (n) => n >= 1 && n <= 15,
  x86_64: (n) => n >= 1 && n <= 15,
  arm: (n) => n === 4,
  thumb: (n) => n === 2 || n === 4,
  arm64: (n) => n === 4,
  mips: (n) => n === 4,
  mipsel: (n) => n === 4,
};

/** Deterministic pseudo-random bytes (xorshift32), so a failure reproduces. */
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Decodes at every offset; returns the violations of the Decoder contract. */
function check(decoder: Decoder, bytes: Uint8Array, step: number): string[] {
  const d = newDecoded();
  const bad: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += step) {
    const ok = decoder.decode(bytes, offset, 0x10000 + offset, d);
    if (ok !== (d.flow !== Flow.Invalid)) bad.push(`${offset}: returned ${ok} with flow ${FLOW_NAMES[d.flow]}`);
    if (ok && !LENGTHS[decoder.mode](d.length)) bad.push(`${offset}: length ${d.length}`);
    if (ok && offset + d.length > bytes.length) bad.push(`${offset}: runs past the end`);
    if (!ok && d.length !== 0) bad.push(`${offset}: invalid with length ${d.length}`);
    if (bad.length > 5) break;
  }
  return bad;
}

test('every decoder: random bytes never throw and keep the contract', async () => {
  for (const mode of MODES) {
    const decoder = await createDecoder(mode);
    for (const seed of [1, 2, 3]) {
      const bytes = randomBytes(mode.startsWith('x86') ? 1 << 15 : 1 << 17, seed * 7919);
      assert.deepEqual(check(decoder, bytes, 1), [], `${mode} seed ${seed}`);
      for (let i = 0; i < 200; i++) decoder.text(bytes, i * 13, 0x10000 + i * 13);
    }
  }
});

test('Capstone reference decoders: random bytes never throw and keep the contract', async () => {
  for (const mode of ['arm', 'thumb', 'arm64'] as const) {
    const decoder = await createCapstoneDecoder(mode);
    const bytes = randomBytes(1 << 13, 4242);
    assert.deepEqual(check(decoder, bytes, 1), [], mode);
    let visited = 0;
    decoder.decodeRange(bytes, 0, bytes.length, 0x10000, () => visited++);
    assert.ok(visited > 0);
  }
});

test('every decoder: instructions cut by the end of the buffer, and offsets outside it, are Invalid', async () => {
  // Each starts a multi-byte instruction: call rel32; a 32-bit Thumb BL; any 4-byte word.
  const starts: Record<DecoderMode, number[]> = {
    x86: [0xe8, 0, 0, 0, 0],
    x86_64: [0xe8, 0, 0, 0, 0],
    arm: [0, 0, 0, 0xeb],
    thumb: [0x00, 0xf0, 0x00, 0xf8],
    arm64: [0, 4, 0, 0x94],
    mips: [0x0c, 0x10, 0, 0x80],
    mipsel: [0x80, 0, 0x10, 0x0c],
  };
  const d = newDecoded();
  for (const mode of MODES) {
    const decoder = await createDecoder(mode);
    const whole = new Uint8Array(starts[mode]);
    assert.ok(decoder.decode(whole, 0, 0x1000, d), `${mode}: whole instruction decodes`);
    for (let cut = 1; cut < whole.length; cut++) {
      assert.equal(decoder.decode(whole.subarray(0, cut), 0, 0x1000, d), false, `${mode}: cut to ${cut} bytes`);
      assert.equal(d.flow, Flow.Invalid);
    }
    for (const offset of [-1, whole.length, whole.length + 100, 0.5, Number.NaN]) {
      assert.equal(decoder.decode(whole, offset, 0x1000, d), false, `${mode}: offset ${offset}`);
      assert.equal(decoder.text(whole, offset, 0x1000), null, `${mode}: text at offset ${offset}`);
    }
    assert.equal(decoder.decode(new Uint8Array(0), 0, 0, d), false, `${mode}: empty buffer`);
  }
});
