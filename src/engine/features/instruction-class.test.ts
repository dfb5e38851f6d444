import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isaFamily, type InstructionClass, type IsaFamily } from '../isa/index.js';
import { classifyInstruction } from './instruction-class.js';

// [family, mnemonic, operands, classes] — the same statements across the four instruction-set families.
const CASES: [IsaFamily, string, string, InstructionClass[]][] = [
  ['x86', 'mov', 'rbx, rax', ['move']],
  ['x86', 'mov', 'eax, dword ptr [rdi+8]', ['load']],
  ['x86', 'mov', 'qword ptr [rdi+8], rax', ['store']],
  ['x86', 'add', 'eax, dword ptr [rbx]', ['load', 'add']],
  ['x86', 'add', 'dword ptr [rbx], 1', ['load', 'add', 'store']],
  ['x86', 'cmp', 'byte ptr [rdi], 0', ['load', 'compare']],
  ['x86', 'jne', '0x1234', ['branch']],
  ['x86', 'call', 'qword ptr [rip+0x2000]', ['load', 'call']],
  ['x86', 'push', 'rbx', []],
  ['x86', 'mov', 'dword ptr [rbp-0x14], edi', []],
  ['x86', 'add', 'eax, dword ptr [rbp-0x14]', ['add']],
  ['x86', 'lea', 'rax, [rbp-0x20]', ['address']],
  ['x86', 'cmove', 'eax, edx', ['select']],
  ['x86', 'movzx', 'eax, byte ptr [rsi]', ['load']],
  ['x86', 'shr', 'rax, 3', ['shift']],
  ['x86', 'lea', 'rdi, [rip+0x100]', ['address']],
  ['x86', 'nop', 'dword ptr [rax]', []],
  ['x86', 'endbr64', '', []],
  ['x86', 'addsd', 'xmm0, xmm1', ['fp']],
  ['x86', 'pxor', 'xmm0, xmm0', ['simd']],
  ['arm64', 'ldr', 'x0, [x1, #8]', ['load']],
  ['arm64', 'stp', 'x29, x30, [sp, #-0x20]!', []],
  ['arm64', 'ldr', 'w0, [sp, #0x1c]', []],
  ['arm64', 'stp', 'x1, x2, [x0, #0x10]', ['store']],
  ['arm64', 'b.ne', '#0x1234', ['branch']],
  ['arm64', 'cbz', 'w0, #0x1234', ['branch']],
  ['arm64', 'csel', 'w0, w1, w2, eq', ['select']],
  ['arm64', 'adrp', 'x0, #0x10000', ['address']],
  ['arm64', 'madd', 'x0, x1, x2, x3', ['mul']],
  ['arm64', 'ret', '', ['ret']],
  ['arm', 'ldr.w', 'r0, [r1, #8]', ['load']],
  ['arm', 'addseq', 'r0, r0, #1', ['add']],
  ['arm', 'bne', '#0x1234', ['branch']],
  ['arm', 'b.w', '#0x1234', ['jump']],
  ['arm', 'blx', '#0x618', ['call']],
  ['arm', 'bx', 'lr', ['ret']],
  ['arm', 'pop', '{r4, r5, pc}', ['ret']],
  ['arm', 'push', '{r4, r5, lr}', []],
  ['arm', 'ite', 'eq', []],
  ['mips', 'lw', 't9,-32492(gp)', ['load']],
  ['mips', 'sw', 'ra,76(sp)', []],
  ['mips', 'sw', 'v0,8(a0)', ['store']],
  ['mips', 'jalr', 't9', ['call']],
  ['mips', 'jr', 'ra', ['ret']],
  ['mips', 'jr', 't9', ['jump']],
  ['mips', 'bnez', 'v0,0x400100', ['branch']],
  ['mips', 'sltu', 'v0,a0,a1', ['compare']],
  ['mips', 'nop', '', []],
];

test('classifyInstruction: mnemonics map to architecture-neutral classes', () => {
  for (const [family, mnemonic, operands, want] of CASES)
    assert.deepEqual(classifyInstruction(family, mnemonic, operands), want, `${family} ${mnemonic} ${operands}`);
});

test('isaFamily: decoder modes group into four families', () => {
  const cases: [Parameters<typeof isaFamily>[0], IsaFamily][] = [
    ['x86', 'x86'],
    ['x86_64', 'x86'],
    ['arm', 'arm'],
    ['thumb', 'arm'],
    ['arm64', 'arm64'],
    ['mips', 'mips'],
    ['mipsel', 'mips'],
  ];
  for (const [mode, family] of cases) assert.equal(isaFamily(mode), family, mode);
});
