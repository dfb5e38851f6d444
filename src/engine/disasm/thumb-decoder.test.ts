import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differences, le16 } from '../../../test/helpers/engine/disasm.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';
import { AL, ThumbDecoder, decodeThumb } from './thumb-decoder.js';

const AT = 0x10000;

// [assembly, halfwords, address, expected fields] — outside IT blocks.
const CASES: [string, number[], number, Partial<Decoded>][] = [
  ['b.n . (T2)', [0xe7fe], AT, { length: 2, flow: Flow.Jump, target: AT, targetThumb: true }],
  ['b.n +8', [0xe002], AT, { flow: Flow.Jump, target: AT + 8 }],
  ['beq.n . (T1)', [0xd0fe], AT, { flow: Flow.Branch, target: AT, conditional: true }],
  ['udf #0', [0xde00], AT, { flow: Flow.Halt }],
  ['svc #0', [0xdf00], AT, { flow: Flow.Sequential }],
  ['bx lr', [0x4770], AT, { flow: Flow.Return }],
  ['bx r3', [0x4718], AT, { flow: Flow.IndirectJump }],
  ['blx r3', [0x4798], AT, { flow: Flow.IndirectCall, writeReg: 14 }],
  ['bx pc (to ARM, next word)', [0x4778], AT + 2, { flow: Flow.Jump, target: AT + 4, targetThumb: false }],
  ['cbz r3, +12', [0xb123], AT, { flow: Flow.Branch, target: AT + 12, conditional: true }],
  ['cbnz r0, +0x46 (i = 1)', [0xbb08], AT, { flow: Flow.Branch, target: AT + 4 + 0x42 }],
  ['pop {r4, pc}', [0xbd10], AT, { flow: Flow.Return }],
  ['pop {r4}', [0xbc10], AT, { flow: Flow.Sequential }],
  ['bkpt #0', [0xbe00], AT, { flow: Flow.Halt }],
  ['ldr r3, [pc, #8] (aligned PC)', [0x4b02], AT + 2, { ref: AT + 12, refIsMemory: true, writeReg: 3 }],
  ['adr r0, #8', [0xa002], AT + 2, { ref: AT + 12, refIsMemory: false, hiReg: 0, hiValue: AT + 12 }],
  ['add r3, pc', [0x447b], AT, { loReg: 3, loImm: AT + 4, writeReg: 3 }],
  ['mov pc, lr', [0x46f7], AT, { flow: Flow.Return }],
  ['add pc, r3 (switch dispatch)', [0x449f], AT, { flow: Flow.IndirectJump }],
  ['mov r0, r1', [0x4608], AT, { flow: Flow.Sequential, writeReg: 0 }],
  ['it eq', [0xbf08], AT, { flow: Flow.Sequential }],
  ['movs r3, #1', [0x2301], AT, { writeReg: 3 }],
  ['bl . + 4', [0xf000, 0xf800], AT, { length: 4, flow: Flow.Call, target: AT + 4, targetThumb: true, writeReg: 14 }],
  ['bl . (backwards)', [0xf7ff, 0xfffe], AT, { flow: Flow.Call, target: AT }],
  ['blx to ARM (aligned)', [0xf000, 0xe800], AT + 2, { flow: Flow.Call, target: AT + 4, targetThumb: false }],
  ['blx with H = 1 is undefined', [0xf000, 0xe801], AT, { flow: Flow.Invalid, length: 0 }],
  ['b.w +4', [0xf000, 0xb800], AT, { flow: Flow.Jump, target: AT + 4 }],
  ['b.w .', [0xf7ff, 0xbffe], AT, { flow: Flow.Jump, target: AT }],
  ['beq.w +4', [0xf000, 0x8000], AT, { flow: Flow.Branch, target: AT + 4, conditional: true }],
  ['beq.w .', [0xf43f, 0xaffe], AT, { flow: Flow.Branch, target: AT }],
  ['pop.w {r4, pc}', [0xe8bd, 0x8010], AT, { flow: Flow.Return }],
  ['ldmia.w r0, {r4, pc}', [0xe890, 0x8010], AT, { flow: Flow.IndirectJump }],
  ['ldr.w pc, [sp], #4', [0xf85d, 0xfb04], AT, { flow: Flow.Return }],
  ['ldr.w pc, [r3, #4]', [0xf8d3, 0xf004], AT, { flow: Flow.IndirectJump }],
  ['ldr.w r0, [pc, #8]', [0xf8df, 0x0008], AT, { ref: AT + 12, refIsMemory: true, writeReg: 0 }],
  ['ldr.w r0, [pc, #-8]', [0xf85f, 0x0008], AT, { ref: AT - 4, refIsMemory: true }],
  ['ldr.w pc, [pc, #4] (literal jump)', [0xf8df, 0xf004], AT, { flow: Flow.IndirectJump, ref: AT + 8 }],
  ['ldrd r0, r1, [pc, #8]', [0xe9df, 0x0102], AT, { ref: AT + 12, refIsMemory: true, writeReg: 0 }],
  ['vldr d0, [pc, #8]', [0xed9f, 0x0b02], AT, { ref: AT + 12, refIsMemory: true }],
  ['tbb [pc, r3]', [0xe8df, 0xf003], AT, { flow: Flow.IndirectJump, ref: AT + 4, refIsMemory: true }],
  ['tbh [r0, r1, lsl #1]', [0xe8d0, 0xf011], AT, { flow: Flow.IndirectJump, ref: -1 }],
  ['adr.w r0, #0x100 (T3)', [0xf20f, 0x1000], AT, { ref: AT + 4 + 0x100, hiReg: 0 }],
  ['subw r0, pc, #8 (ADR T2)', [0xf2af, 0x0008], AT, { ref: AT + 4 - 8, hiReg: 0 }],
  ['udf.w #0', [0xf7f0, 0xa000], AT, { flow: Flow.Halt }],
  ['cmp.w r0, #1 (Rd field is PC)', [0xf1b0, 0x0f01], AT, { flow: Flow.Sequential, writeReg: -1 }],
  ['movw r0, #0x1234', [0xf241, 0x2034], AT, { writeReg: 0 }],
  ['subs pc, lr, #4 (exception return)', [0xf3de, 0x8f04], AT, { flow: Flow.Return }],
];

test('decodeThumb: one table row per encoding', () => {
  const d = newDecoded();
  const failures: string[] = [];
  for (const [name, halfwords, at, expected] of CASES) {
    decodeThumb(le16(...halfwords), 0, at, AL, d);
    const diff = differences(d, expected);
    if (diff) failures.push(`${name}: ${diff}`);
  }
  assert.deepEqual(failures, []);
});

// IT blocks: [description, halfwords decoded consecutively from AT, expected per instruction].
const IT_CASES: [string, number[], Partial<Decoded>[]][] = [
  [
    'it eq; bxeq lr; bx lr',
    [0xbf08, 0x4770, 0x4770],
    [{ flow: Flow.Sequential }, { flow: Flow.Return, conditional: true }, { flow: Flow.Return, conditional: false }],
  ],
  [
    'ite eq; popeq {r4, pc}; bne.n (b.n in the else slot)',
    [0xbf0c, 0xbd10, 0xe7fe],
    [{}, { flow: Flow.Return, conditional: true }, { flow: Flow.Branch, target: AT + 4, conditional: true }],
  ],
  [
    'itt ne; movne r0, r1; blne (a conditional call)',
    [0xbf1c, 0x4608, 0xf000, 0xf800],
    [{}, { flow: Flow.Sequential, conditional: false }, { flow: Flow.Call, conditional: true }],
  ],
  ['it eq; bkpteq: BKPT ignores the condition', [0xbf08, 0xbe00], [{}, { flow: Flow.Halt, conditional: false }]],
];

test('ThumbDecoder: instructions inside IT blocks are conditional', () => {
  const failures: string[] = [];
  for (const [name, halfwords, expected] of IT_CASES) {
    const dec = new ThumbDecoder(() => null);
    const bytes = le16(...halfwords);
    const d = newDecoded();
    let offset = 0;
    expected.forEach((e, i) => {
      assert.ok(dec.decode(bytes, offset, AT + offset, d), `${name} #${i} decodes`);
      const diff = differences(d, e);
      if (diff) failures.push(`${name} #${i}: ${diff}`);
      offset += d.length;
    });
  }
  assert.deepEqual(failures, []);
});

test('ThumbDecoder: decoding elsewhere ends the IT block', () => {
  const dec = new ThumbDecoder(() => null);
  const bytes = le16(0xbf08, 0x4770, 0x4770);
  const d = newDecoded();
  dec.decode(bytes, 0, AT, d); // it eq
  dec.decode(bytes, 4, AT + 4, d); // not the next instruction: the block does not apply
  assert.equal(d.conditional, false);
  dec.decode(bytes, 2, AT + 2, d);
  assert.equal(d.conditional, false);
});

test('decodeThumb: a 32-bit instruction cut by the buffer end is invalid', () => {
  const d = newDecoded();
  assert.equal(decodeThumb(le16(0xf000), 0, AT, AL, d), false);
  assert.equal(d.flow, Flow.Invalid);
  assert.equal(decodeThumb(le16(0x4770), 1, AT, AL, d), false);
});
