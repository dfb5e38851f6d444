import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeArm64 } from './arm64-decoder.js';
import { differences, le32 } from '../../../test/helpers/engine/disasm.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';

const AT = 0x10000;

// [assembly, word, expected fields] — decoded at AT.
const CASES: [string, number, Partial<Decoded>][] = [
  ['bl #0x11000', 0x94000400, { flow: Flow.Call, target: 0x11000, writeReg: 30 }],
  ['b #0x10054', 0x14000015, { flow: Flow.Jump, target: 0x10054 }],
  ['b . (self)', 0x14000000, { flow: Flow.Jump, target: AT }],
  ['b #-4', 0x17ffffff, { flow: Flow.Jump, target: AT - 4 }],
  ['b.ne #0x10008', 0x54000041, { flow: Flow.Branch, target: 0x10008, conditional: true }],
  ['b.le #-0x20', 0x54ffff0d, { flow: Flow.Branch, target: AT - 0x20, conditional: true }],
  ['b.al is unconditional', 0x5400004e, { flow: Flow.Jump, target: 0x10008, conditional: false }],
  ['cbz x0, #0x10008', 0xb4000040, { flow: Flow.Branch, target: 0x10008 }],
  ['cbnz w3, #-8', 0x35ffffc3, { flow: Flow.Branch, target: AT - 8 }],
  ['tbz w1, #3, #0x10008', 0x36180041, { flow: Flow.Branch, target: 0x10008 }],
  ['tbnz x2, #63, #-4', 0xb7ffffe2, { flow: Flow.Branch, target: AT - 4 }],
  ['ret', 0xd65f03c0, { flow: Flow.Return }],
  ['ret x1', 0xd65f0020, { flow: Flow.Return }],
  ['retaa', 0xd65f0bff, { flow: Flow.Return }],
  ['eret', 0xd69f03e0, { flow: Flow.Return }],
  ['br x16', 0xd61f0200, { flow: Flow.IndirectJump }],
  ['braaz x16', 0xd61f0a1f, { flow: Flow.IndirectJump }],
  ['blr x3', 0xd63f0060, { flow: Flow.IndirectCall, writeReg: 30 }],
  ['blraa x3, x4', 0xd73f0864, { flow: Flow.IndirectCall }],
  ['brk #0x3e8', 0xd4207d00, { flow: Flow.Halt }],
  ['hlt #0', 0xd4400000, { flow: Flow.Halt }],
  ['udf #0', 0x00000000, { flow: Flow.Halt }],
  ['svc #0', 0xd4000001, { flow: Flow.Sequential }],
  ['paciasp', 0xd503233f, { flow: Flow.Sequential }],
  ['mrs x0, tpidr_el0', 0xd53bd040, { flow: Flow.Sequential, writeReg: 0 }],
  ['ldr x0, #0x10008 (literal)', 0x58000040, { ref: 0x10008, refIsMemory: true, writeReg: 0 }],
  ['ldr w2, #-4 (literal)', 0x18ffffe2, { ref: AT - 4, refIsMemory: true, writeReg: 2 }],
  ['ldr d0, #0x10010 (literal)', 0x5c000080, { ref: 0x10010, refIsMemory: true, writeReg: -1 }],
  ['prfm pldl1keep, #8', 0xd8000040, { ref: 0x10008, refIsMemory: true, writeReg: -1 }],
  ['adr x0, #0x10008', 0x10000040, { ref: 0x10008, refIsMemory: false, hiReg: 0, hiValue: 0x10008 }],
  ['adrp x0, #0x20000', 0x90000080, { ref: -1, hiReg: 0, hiValue: 0x20000, writeReg: 0 }],
  ['adrp x1, #-0x1000 page', 0xf0ffffe1, { hiReg: 1, hiValue: AT - 0x1000 }],
  ['add x0, x0, #8', 0x91002000, { loReg: 0, loImm: 8, loMemory: false, writeReg: 0 }],
  ['add x1, x2, #1, lsl #12', 0x91400441, { loReg: 2, loImm: 0x1000, writeReg: 1 }],
  ['mov x0, sp (add from SP: no pair)', 0x910003e0, { loReg: -1, writeReg: 0 }],
  ['ldr x0, [x1, #8]', 0xf9400420, { loReg: 1, loImm: 8, loMemory: true, writeReg: 0 }],
  ['ldrb w0, [x1, #3]', 0x39400c20, { loReg: 1, loImm: 3, loMemory: true, writeReg: 0 }],
  ['str x3, [x2, #16]', 0xf9000843, { loReg: 2, loImm: 16, loMemory: true, writeReg: -1 }],
  ['ldr q0, [x1, #32]', 0x3dc00820, { loReg: 1, loImm: 32, loMemory: true, writeReg: -1 }],
  ['ldp x29, x30, [sp], #16 (writeback: SP)', 0xa8c17bfd, { writeReg: 31 }],
  ['reserved (op0 0000, not UDF)', 0x01000000, { flow: Flow.Invalid, length: 0 }],
  ['unallocated (op0 0001)', 0x02000000, { flow: Flow.Invalid }],
  ['unallocated (op0 0011)', 0x06000000, { flow: Flow.Invalid }],
];

test('decodeArm64: one table row per encoding class', () => {
  const d = newDecoded();
  const failures: string[] = [];
  for (const [name, word, expected] of CASES) {
    const ok = decodeArm64(le32(word), 0, AT, d);
    const diff = differences(d, { length: expected.flow === Flow.Invalid ? 0 : 4, ...expected });
    if (diff || ok !== (expected.flow !== Flow.Invalid)) failures.push(`${name}: ${diff || `returned ${ok}`}`);
  }
  assert.deepEqual(failures, []);
});

test('decodeArm64: no instruction past the end of the buffer', () => {
  const d = newDecoded();
  assert.equal(decodeArm64(le32(0xd65f03c0).subarray(0, 3), 0, AT, d), false);
  assert.equal(d.flow, Flow.Invalid);
  assert.equal(decodeArm64(le32(0xd65f03c0), 1, AT, d), false);
  assert.equal(decodeArm64(le32(0xd65f03c0), -4, AT, d), false);
});
