import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IsaFamily } from '../isa/index.js';
import { isNonZeroingXor, isPebAccess, stackStringBytes } from './instruction-features.js';
import { operandFeatures, splitOperands } from './operand-features.js';

const noAddress = () => false;

const operandCases: { family: IsaFamily; insn: string; has: string[]; hasNot?: string[] }[] = [
  { family: 'x86', insn: 'mov eax, 0x10', has: ['number:16', 'operand[1].number:16'] },
  { family: 'x86', insn: 'mov eax, 0xfffffff0', has: ['number:4294967280', 'number:-16'] },
  { family: 'x86', insn: 'mov rax, [rbx+0x30]', has: ['offset:48', 'operand[1].offset:48'], hasNot: ['number:48'] },
  { family: 'x86', insn: 'mov rax, [rbx+rcx*8]', has: [], hasNot: ['offset:8'] },
  { family: 'x86', insn: 'sub rsp, 0x28', has: [], hasNot: ['number:40'] },
  {
    family: 'x86',
    insn: 'mov dword ptr [rbp-0x14], 0x5a',
    has: ['number:90', 'operand[1].number:90'],
    hasNot: ['offset:-20'],
  },
  { family: 'arm64', insn: 'sub sp, sp, #0x20', has: [], hasNot: ['number:32'] },
  { family: 'x86', insn: 'call 0x401000', has: [], hasNot: ['number:4198400'] },
  { family: 'x86', insn: 'lea rdi, [rip+0x2000]', has: [] },
  { family: 'x86', insn: 'cmp r8d, 6', has: ['number:6', 'operand[1].number:6'], hasNot: ['number:8'] },
  { family: 'arm64', insn: 'mov w1, #0x2', has: ['number:2', 'operand[1].number:2'] },
  { family: 'arm64', insn: 'ldr x0, [x1, #0x18]', has: ['offset:24', 'operand[1].offset:24'] },
  { family: 'arm64', insn: 'add x0, x1, #-8', has: ['number:-8', 'number:4294967288', 'operand[2].number:-8'] },
  { family: 'arm', insn: 'movw r0, #0x8320', has: ['number:33568'] },
  { family: 'mips', insn: 'lui $a0, 0xedb8', has: ['number:3988258816', 'number:-306708480'] },
  { family: 'mips', insn: 'lw $v0, 0x10($a1)', has: ['offset:16', 'operand[1].offset:16'] },
];

for (const c of operandCases) {
  test(`capabilities: operand features of \`${c.insn}\` (${c.family})`, () => {
    const [mnemonic, ...rest] = c.insn.split(' ');
    const got = operandFeatures(c.family, mnemonic!, rest.join(' '), noAddress);
    for (const k of c.has) assert.ok(got.includes(k), `${k} in ${got.join(' ')}`);
    for (const k of c.hasNot ?? []) assert.ok(!got.includes(k), `${k} not in ${got.join(' ')}`);
    if (c.has.length === 0 && !c.hasNot) assert.deepEqual(got, []);
  });
}

test('capabilities: values inside the image are addresses, not numbers', () => {
  const got = operandFeatures('x86', 'mov', 'edi, 0x404010', (v) => v === 0x404010);
  assert.deepEqual(got, []);
});

test('capabilities: displacements that locate data (rip-relative, a table inside the image) are not offsets', () => {
  const inImage = (v: number) => v === 0x5b7ad9;
  assert.deepEqual(operandFeatures('x86', 'mov', 'eax, dword ptr [rip+0x1b7ad9]', inImage), []);
  assert.deepEqual(operandFeatures('x86', 'movzx', 'eax, byte ptr [rax+0x5b7ad9]', inImage), []);
  assert.deepEqual(operandFeatures('x86', 'movzx', 'eax, byte ptr [rax+0x100]', inImage), [
    'offset:256',
    'operand[1].offset:256',
  ]);
});

test('capabilities: operands split at top-level commas only', () => {
  assert.deepEqual(splitOperands('x0, [x1, #8]'), ['x0', '[x1, #8]']);
  assert.deepEqual(splitOperands('{r4, lr}'), ['{r4, lr}']);
  assert.deepEqual(splitOperands(''), []);
});

const xorCases: [IsaFamily, string, string, boolean][] = [
  ['x86', 'xor', 'eax, eax', false],
  ['x86', 'xor', 'eax, ebx', true],
  ['x86', 'xor', 'al, 0x5a', true],
  ['x86', 'xor', 'rax, rsp', false],
  ['x86', 'pxor', 'xmm0, xmm0', false],
  ['x86', 'pxor', 'xmm0, xmm1', true],
  ['arm', 'eor', 'r0, r1, r1', false],
  ['arm', 'eor', 'r0, r0, r3', true],
  ['arm64', 'eor', 'w0, w1, w2', true],
  ['mips', 'xori', '$v0, $v0, 0x5a', true],
  ['x86', 'or', 'eax, ebx', false],
];

for (const [family, mnemonic, operands, expected] of xorCases) {
  test(`capabilities: nzxor ${expected ? 'is' : 'is not'} \`${mnemonic} ${operands}\``, () => {
    assert.equal(isNonZeroingXor(family, mnemonic, operands), expected);
  });
}

test('capabilities: stack-string bytes are the printable bytes stored to the frame', () => {
  assert.equal(stackStringBytes('x86', { mnemonic: 'mov', operands: 'dword ptr [rbp-0x10], 0x6c6c6568' }), 4);
  assert.equal(stackStringBytes('x86', { mnemonic: 'mov', operands: 'byte ptr [rsp+0x20], 0x41' }), 1);
  assert.equal(stackStringBytes('x86', { mnemonic: 'mov', operands: 'dword ptr [rbx], 0x6c6c6568' }), 0);
  assert.equal(stackStringBytes('x86', { mnemonic: 'mov', operands: 'dword ptr [rbp-0x10], eax' }), 0);
});

const pebCases: { mode: 'x86' | 'x86_64'; operands: string; expected: boolean }[] = [
  { mode: 'x86', operands: 'eax, dword ptr fs:[0x30]', expected: true },
  { mode: 'x86_64', operands: 'rax, qword ptr gs:[0x60]', expected: true },
  // glibc's pointer guard on x86-64 Linux, and a 32-bit TEB field: not the PEB.
  { mode: 'x86_64', operands: 'rax, qword ptr fs:[0x30]', expected: false },
  { mode: 'x86', operands: 'eax, dword ptr gs:[0x60]', expected: false },
];

for (const c of pebCases) {
  test(`capabilities: peb access, ${c.mode} ${c.operands} → ${c.expected}`, () => {
    assert.equal(isPebAccess(c.mode, c.operands), c.expected);
  });
}
