import { test } from 'node:test';
import assert from 'node:assert/strict';
import { be32, differences, le32 } from '../../../test/helpers/engine/disasm.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';
import { decodeMips } from './mips-decoder.js';
import { formatMips } from './mips-text.js';

const AT = 0x400100;

// [objdump text, word, expected fields] — decoded at AT.
const CASES: [string, number, Partial<Decoded>][] = [
  ['jr ra', 0x03e00008, { flow: Flow.Return, delaySlot: true }],
  ['jr t9', 0x03200008, { flow: Flow.IndirectJump, delaySlot: true }],
  ['jalr t9', 0x0320f809, { flow: Flow.IndirectCall, delaySlot: true, writeReg: 31 }],
  ['jalr zero,t9', 0x03200009, { flow: Flow.IndirectJump, delaySlot: true }],
  ['j 0x400000', 0x08100000, { flow: Flow.Jump, target: 0x400000, delaySlot: true }],
  ['jal 0x400200', 0x0c100080, { flow: Flow.Call, target: 0x400200, delaySlot: true, writeReg: 31 }],
  ['b 0x400108', 0x10000001, { flow: Flow.Jump, target: AT + 8, delaySlot: true, conditional: false }],
  ['beq a0,a1,0x400100', 0x1085ffff, { flow: Flow.Branch, target: AT, delaySlot: true, conditional: true }],
  ['bnez v0,0x400108', 0x14400001, { flow: Flow.Branch, target: AT + 8 }],
  ['beqz a0,0x400108', 0x10800001, { flow: Flow.Branch, target: AT + 8 }],
  ['blez a0,0x400108', 0x18800001, { flow: Flow.Branch, target: AT + 8 }],
  ['bgtz a0,0x400108', 0x1c800001, { flow: Flow.Branch, target: AT + 8 }],
  ['bltz a0,0x400108', 0x04800001, { flow: Flow.Branch, target: AT + 8 }],
  ['bgez a0,0x400108', 0x04810001, { flow: Flow.Branch, target: AT + 8 }],
  ['bal 0x400108', 0x04110001, { flow: Flow.Call, target: AT + 8, conditional: false, delaySlot: true, writeReg: 31 }],
  ['bgezal a0,0x400108', 0x04910001, { flow: Flow.Call, target: AT + 8, conditional: true }],
  ['nal', 0x04100000, { flow: Flow.Sequential, writeReg: 31, delaySlot: false }],
  ['beql a0,a1,0x400108', 0x50850001, { flow: Flow.Branch, target: AT + 8, delaySlot: true }],
  ['bc1t 0x400108', 0x45010001, { flow: Flow.Branch, target: AT + 8, delaySlot: true }],
  ['break', 0x0000000d, { flow: Flow.Halt }],
  ['break 0x7', 0x0007000d, { flow: Flow.Halt }],
  ['teq v0,zero,0x7', 0x004001f4, { flow: Flow.Sequential }],
  ['teq zero,zero', 0x00000034, { flow: Flow.Halt }],
  ['syscall', 0x0000000c, { flow: Flow.Sequential }],
  ['eret', 0x42000018, { flow: Flow.Return, delaySlot: false }],
  ['lui gp,0x13', 0x3c1c0013, { hiReg: 28, hiValue: 0x130000, writeReg: 28 }],
  ['lui a0,0x8000', 0x3c048000, { hiReg: 4, hiValue: 0x80000000 }],
  ['addiu gp,gp,3520', 0x279c0dc0, { loReg: 28, loImm: 3520, loMemory: false, writeReg: 28 }],
  ['addiu a0,a0,-4', 0x2484fffc, { loReg: 4, loImm: -4 }],
  ['ori a0,a0,0x8000', 0x34848000, { loReg: 4, loImm: 0x8000 }],
  ['li a0,5', 0x24040005, { loReg: -1, writeReg: 4 }],
  ['lw t9,-32720(gp)', 0x8f998030, { loReg: 28, loImm: -32720, loMemory: true, writeReg: 25 }],
  ['sw ra,36(sp)', 0xafbf0024, { loReg: 29, loImm: 36, loMemory: true, writeReg: -1 }],
  ['ldc1 $f0,16(sp)', 0xd7a00010, { loReg: 29, loImm: 16, loMemory: true, writeReg: -1 }],
  ['nop', 0x00000000, { flow: Flow.Sequential }],
  ['move v0,a0', 0x00801021, { writeReg: 2 }],
  ['div zero,a0,a1', 0x0085001a, { writeReg: -1 }],
  ['add.d $f0,$f2,$f2', 0x46221000, { flow: Flow.Sequential }],
  ['sdbbp', 0x7000003f, { flow: Flow.Halt }],
  ['rdhwr v1,$29', 0x7c03e83b, { writeReg: 3 }],
  ['.word 0x64000000', 0x64000000, { flow: Flow.Invalid, length: 0 }],
  ['.word 0x00000005', 0x00000005, { flow: Flow.Invalid }],
];

test('decodeMips: one table row per encoding, both byte orders', () => {
  const d = newDecoded();
  const failures: string[] = [];
  for (const [name, word, expected] of CASES) {
    for (const big of [false, true]) {
      decodeMips(big ? be32(word) : le32(word), 0, AT, big, d);
      const diff = differences(d, { length: expected.flow === Flow.Invalid ? 0 : 4, ...expected });
      if (diff) failures.push(`${name} (${big ? 'BE' : 'LE'}): ${diff}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('formatMips: objdump-style text', () => {
  const failures: string[] = [];
  for (const [text, word] of CASES) {
    const t = formatMips(word, AT);
    const got = `${t.mnemonic} ${t.operands}`.trim();
    if (got !== text) failures.push(`${text}: got ${got}`);
  }
  assert.deepEqual(failures, []);
});

test('decodeMips: a word cut by the buffer end is invalid', () => {
  const d = newDecoded();
  assert.equal(decodeMips(le32(0x03e00008).subarray(0, 3), 0, AT, false, d), false);
  assert.equal(d.flow, Flow.Invalid);
});
