import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IsaFamily } from '../isa/index.js';
import { operandConstants } from './operand-constants.js';

const isAddress = (v: number) => v >= 0x400000 && v < 0x500000;

// [family, mnemonic, operands, constants]
const CASES: [IsaFamily, string, string, string[]][] = [
  ['x86', 'mov', 'edi, 0x10000', ['65536']],
  ['x86', 'and', 'eax, 0xfffffff0', ['-16']],
  ['x86', 'mov', 'rax, 0xfffffffffffffff0', ['-16']],
  ['x86', 'imul', 'eax, eax, 0x9e3779b1', ['-1640531535']],
  ['x86', 'mov', 'eax, dword ptr [rdi+0x20]', []],
  ['x86', 'sub', 'rsp, 0x28', []],
  ['x86', 'push', '0x404010', []],
  ['x86', 'call', '0x1090', []],
  ['x86', 'add', 'eax, 1', []],
  ['arm64', 'mov', 'w0, #0x10000', ['65536']],
  ['arm64', 'and', 'x0, x0, #-16', ['-16']],
  ['arm64', 'ldr', 'x0, [x1, #0x20]', []],
  ['arm64', 'adrp', 'x0, #0x10000', []],
  ['arm', 'mov.w', 'r0, #0x10000', ['65536']],
  ['mips', 'lui', 'a0,0x1', ['65536']],
  ['mips', 'addiu', 'sp,sp,-80', []],
  ['mips', 'lw', 'v0,32(a0)', []],
  ['mips', 'li', 'v0,100', ['100']],
];

test('operandConstants: value immediates, not addresses, offsets, frame sizes or targets', () => {
  for (const [family, mnemonic, operands, want] of CASES)
    assert.deepEqual(
      operandConstants(family, mnemonic, operands, isAddress),
      want,
      `${family} ${mnemonic} ${operands}`,
    );
});
