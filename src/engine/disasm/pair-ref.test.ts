import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeArm64 } from './arm64-decoder.js';
import { le16, le32 } from '../../../test/helpers/engine/disasm.js';
import { newDecoded } from './instruction.js';
import { decodeMips } from './mips-decoder.js';
import { PROFILES } from '../isa/index.js';
import { newPairState, pairRef, pinRegister, resetPairState, type PairState } from './pair-ref.js';
import { AL, decodeThumb } from './thumb-decoder.js';

type Step = (d: ReturnType<typeof newDecoded>) => void;

/** Runs instructions through pairRef; returns what each one formed. */
function walk(state: PairState, steps: Step[], loadWord?: (a: number) => number): number[] {
  const d = newDecoded();
  return steps.map((decode) => {
    decode(d);
    return pairRef(state, d, loadWord);
  });
}

const a64 =
  (word: number, at: number): Step =>
  (d) =>
    decodeArm64(le32(word), 0, at, d);
const mips =
  (word: number, at: number): Step =>
  (d) =>
    decodeMips(le32(word), 0, at, false, d);
const thumb =
  (hw: number, at: number): Step =>
  (d) =>
    decodeThumb(le16(hw), 0, at, AL, d);

// [description, bits, instructions, addresses they form]
const CASES: [string, 32 | 64, Step[], number[]][] = [
  [
    'adrp x0; add x0, x0, #0x10; ldr x1, [x0, #8]',
    64,
    [a64(0x90000080, 0x10000), a64(0x91004000, 0x10004), a64(0xf9400401, 0x10008)],
    [-1, 0x20010, 0x20018],
  ],
  [
    'adrp x1; ldr x2, [x1, #0x20]; mov x1, x3; ldr x2, [x1, #8] (x1 overwritten)',
    64,
    [a64(0x90000081, 0x10000), a64(0xf9401022, 0x10004), a64(0xaa0303e1, 0x10008), a64(0xf9400422, 0x1000c)],
    [-1, 0x20020, -1, -1],
  ],
  ['lui a0, 0x41; addiu a0, a0, -16', 32, [mips(0x3c040041, 0x400100), mips(0x2484fff0, 0x400104)], [-1, 0x40fff0]],
  ['lui v0, 0x41; lw v1, 16(v0)', 32, [mips(0x3c020041, 0x400100), mips(0x8c430010, 0x400104)], [-1, 0x410010]],
];

test('pairRef: two-instruction addresses', () => {
  const failures: string[] = [];
  for (const [name, bits, steps, expected] of CASES) {
    const got = walk(newPairState(bits), steps);
    if (JSON.stringify(got) !== JSON.stringify(expected)) failures.push(`${name}: ${JSON.stringify(got)}`);
  }
  assert.deepEqual(failures, []);
});

test('pairRef: $gp-relative GOT loads through a pinned $gp, with the slot read', () => {
  const state = newPairState(32);
  pinRegister(state, 28, 0x418000);
  const got = walk(state, [mips(0x8f998030, 0x400100), mips(0x0320f809, 0x400104)], (a) =>
    a === 0x418000 - 32720 ? 0x400500 : -1,
  );
  assert.deepEqual(got, [0x418000 - 32720, -1]);
  assert.equal(state.values[25], 0x400500, '$t9 holds the GOT entry');
  resetPairState(state);
  assert.equal(state.values[28], 0x418000, 'a reset keeps pinned registers');
  assert.ok(Number.isNaN(state.values[25]!));
});

test('pairRef: Thumb `ldr r3, [pc, #8]; add r3, pc` with the literal read', () => {
  const at = 0x10002;
  const literalAt = 0x1000c;
  for (const [value, expected] of [
    [0x1234, 0x1234 + at + 2 + 4],
    [0xfffff000, (0xfffff000 + at + 2 + 4) >>> 0], // negative offsets wrap modulo 2^32
  ]) {
    const got = walk(newPairState(32), [thumb(0x4b02, at), thumb(0x447b, at + 2)], (a) =>
      a === literalAt ? value! : -1,
    );
    assert.deepEqual(got, [-1, expected]);
  }
});

test('pairRef: a call leaves the caller-saved registers unknown, after its delay slot', () => {
  const clobbers = PROFILES.mips.callClobbers;
  // lui v0, 4; jalr t9; addiu a0, a0, 56; lw v1, 8(v0): v0 is the callee's result, not 0x40000.
  const stale = [
    mips(0x3c020004, 0x1000),
    mips(0x0320f809, 0x1004),
    mips(0x24840038, 0x1008),
    mips(0x8c430008, 0x100c),
  ];
  assert.deepEqual(walk(newPairState(32), stale), [-1, -1, -1, 0x40008], 'without an ABI the old value stays');
  assert.deepEqual(walk(newPairState(32, clobbers), stale), [-1, -1, -1, -1]);
  // lui a0, 0x41; jalr t9; addiu a0, a0, 16: the delay slot runs before the call and forms the argument.
  const arg = [mips(0x3c040041, 0x1000), mips(0x0320f809, 0x1004), mips(0x24840010, 0x1008)];
  assert.deepEqual(walk(newPairState(32, clobbers), arg), [-1, -1, 0x410010]);
  // lui s0, 0x41; jalr t9; nop; lw v1, 8(s0): s0 is callee-saved.
  const kept = [mips(0x3c100041, 0x1000), mips(0x0320f809, 0x1004), mips(0, 0x1008), mips(0x8e030008, 0x100c)];
  assert.deepEqual(walk(newPairState(32, clobbers), kept), [-1, -1, -1, 0x410008]);
});
