import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeArm } from './arm-decoder.js';
import { differences, le32 } from '../../../test/helpers/engine/disasm.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';

const AT = 0x10000;

// [assembly, word, expected fields] — decoded at AT (PC reads as AT + 8).
const CASES: [string, number, Partial<Decoded>][] = [
  ['b .', 0xeafffffe, { flow: Flow.Jump, target: AT, conditional: false }],
  ['bne +8', 0x1a000000, { flow: Flow.Branch, target: AT + 8, conditional: true }],
  ['bl +8', 0xeb000000, { flow: Flow.Call, target: AT + 8, targetThumb: false, writeReg: 14 }],
  ['blne +8', 0x1b000000, { flow: Flow.Call, conditional: true }],
  ['blx +8 (to Thumb)', 0xfa000000, { flow: Flow.Call, target: AT + 8, targetThumb: true }],
  ['blx +10 (H = 1)', 0xfb000000, { flow: Flow.Call, target: AT + 10, targetThumb: true }],
  ['bx lr', 0xe12fff1e, { flow: Flow.Return, conditional: false }],
  ['bxeq lr', 0x012fff1e, { flow: Flow.Return, conditional: true }],
  ['bx r3', 0xe12fff13, { flow: Flow.IndirectJump }],
  ['blx r3', 0xe12fff33, { flow: Flow.IndirectCall, writeReg: 14 }],
  ['pop {r4, pc}', 0xe8bd8010, { flow: Flow.Return }],
  ['popne {r4, pc}', 0x18bd8010, { flow: Flow.Return, conditional: true }],
  ['ldm r0, {r4, pc}', 0xe8908010, { flow: Flow.IndirectJump }],
  ['push {r4, lr}', 0xe92d4010, { flow: Flow.Sequential, writeReg: 13 }],
  ['ldr pc, [sp], #4 (pop {pc})', 0xe49df004, { flow: Flow.Return }],
  ['ldr pc, [ip, #8]! (PLT)', 0xe5bcf008, { flow: Flow.IndirectJump }],
  ['ldr r0, [pc, #8]', 0xe59f0008, { ref: AT + 16, refIsMemory: true, writeReg: 0 }],
  ['ldr r0, [pc, #-8]', 0xe51f0008, { ref: AT, refIsMemory: true }],
  ['ldrh r0, [pc, #4]', 0xe1df00b4, { ref: AT + 12, refIsMemory: true, writeReg: 0 }],
  ['vldr d0, [pc, #8]', 0xed9f0b02, { ref: AT + 16, refIsMemory: true }],
  ['mov pc, lr', 0xe1a0f00e, { flow: Flow.Return }],
  ['addls pc, pc, r3, lsl #2 (switch)', 0x908ff103, { flow: Flow.IndirectJump, conditional: true }],
  ['add r0, pc, #8 (adr)', 0xe28f0008, { ref: AT + 16, refIsMemory: false, hiReg: 0, hiValue: AT + 16 }],
  ['sub r0, pc, #8 (adr)', 0xe24f0008, { ref: AT, hiReg: 0 }],
  ['add ip, pc, #0, 12 (PLT)', 0xe28fc600, { ref: AT + 8, hiReg: 12 }],
  ['add r3, pc, r3 (PIC)', 0xe08f3003, { loReg: 3, loImm: AT + 8, writeReg: 3 }],
  ['cmp r0, #1', 0xe3500001, { flow: Flow.Sequential, writeReg: -1 }],
  ['movw r0, #0x1234', 0xe3010234, { writeReg: 0 }],
  ['bkpt #0', 0xe1200070, { flow: Flow.Halt }],
  ['udf #0', 0xe7f000f0, { flow: Flow.Halt }],
  ['svc #0', 0xef000000, { flow: Flow.Sequential }],
  ['subs pc, lr, #4 (exception return)', 0xe25ef004, { flow: Flow.Return }],
  ['mcr p7 (no such coprocessor)', 0xee000710, { flow: Flow.Invalid, length: 0 }],
  ['ldc2 (undefined in Armv8)', 0xfd900000, { flow: Flow.Invalid }],
];

test('decodeArm: one table row per encoding', () => {
  const d = newDecoded();
  const failures: string[] = [];
  for (const [name, word, expected] of CASES) {
    decodeArm(le32(word), 0, AT, d);
    const diff = differences(d, expected);
    if (diff) failures.push(`${name}: ${diff}`);
  }
  assert.deepEqual(failures, []);
});

test('decodeArm: a word cut by the buffer end is invalid', () => {
  const d = newDecoded();
  assert.equal(decodeArm(le32(0xe12fff1e).subarray(0, 2), 0, AT, d), false);
  assert.equal(d.flow, Flow.Invalid);
});
