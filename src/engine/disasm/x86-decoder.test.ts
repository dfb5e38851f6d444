import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differences, hexBytes } from '../../../test/helpers/engine/disasm.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';
import { X86Decoder, loadIced } from './x86-decoder.js';

const AT64 = 0x401000;
const AT32 = 0x8049000;

// [assembly, bytes, expected fields] — 64-bit code at AT64.
const CASES_64: [string, string, Partial<Decoded>][] = [
  ['ret', 'c3', { length: 1, flow: Flow.Return }],
  ['jmp short .', 'ebfe', { flow: Flow.Jump, target: AT64 }],
  ['jmp rel32', 'e900000000', { flow: Flow.Jump, target: AT64 + 5 }],
  ['je +0', '7400', { flow: Flow.Branch, target: AT64 + 2, conditional: true }],
  ['call . (rel32)', 'e8fbffffff', { flow: Flow.Call, target: AT64 }],
  ['call [rip+0x2000]', 'ff1500200000', { flow: Flow.IndirectCall, ref: AT64 + 6 + 0x2000, refIsMemory: true }],
  ['jmp [rip+0x10]', 'ff2510000000', { flow: Flow.IndirectJump, ref: AT64 + 6 + 0x10, refIsMemory: true }],
  ['jmp rax', 'ffe0', { flow: Flow.IndirectJump, ref: -1 }],
  [
    'jmp [rax*8+0x404000] (table base)',
    'ff24c500404000',
    { flow: Flow.IndirectJump, ref: 0x404000, refIsMemory: true },
  ],
  ['lea rdi, [rip+0x100]', '488d3d00010000', { ref: AT64 + 7 + 0x100, refIsMemory: false }],
  ['mov rax, [rip-0x10]', '488b05f0ffffff', { ref: AT64 + 7 - 0x10, refIsMemory: true }],
  ['mov eax, [0x404040] (absolute)', '8b042540404000', { ref: 0x404040, refIsMemory: true }],
  ['mov eax, [rbp-0x100] (based)', '8b8500ffffff', { ref: -1 }],
  ['mov ecx, 0x404010', 'b910404000', { imm: 0x404010 }],
  ['mov rax, 0x140001000', '48b80010004001000000', { imm: 0x140001000 }],
  ['mov rax, 0x1122334455667788 (beyond 2^53)', '48b88877665544332211', { imm: -1 }],
  ['push 0x404000', '6800404000', { imm: 0x404000 }],
  ['add eax, 1 (imm8: no address)', '83c001', { imm: -1 }],
  ['hlt', 'f4', { flow: Flow.Halt }],
  ['int3', 'cc', { flow: Flow.Halt }],
  ['ud2', '0f0b', { flow: Flow.Halt }],
  ['int 0x80 (system call)', 'cd80', { flow: Flow.Sequential }],
  ['int 0x29 (__fastfail)', 'cd29', { flow: Flow.Halt }],
  ['syscall', '0f05', { flow: Flow.Sequential }],
  ['loop', 'e200', { flow: Flow.Branch, target: AT64 + 2 }],
  ['jrcxz', 'e300', { flow: Flow.Branch, target: AT64 + 2 }],
  ['xbegin (abort handler)', 'c7f800000000', { flow: Flow.Branch, target: AT64 + 6 }],
  ['endbr64', 'f30f1efa', { flow: Flow.Sequential, length: 4 }],
  ['push es (invalid in 64-bit mode)', '06', { flow: Flow.Invalid, length: 0 }],
  ['call rel32 cut by the buffer end', 'e80000', { flow: Flow.Invalid }],
];

// 32-bit code at AT32.
const CASES_32: [string, string, Partial<Decoded>][] = [
  ['call rel32', 'e800000000', { flow: Flow.Call, target: AT32 + 5 }],
  ['jmp [0x804c00c] (PLT/IAT)', 'ff250cc00408', { flow: Flow.IndirectJump, ref: 0x804c00c, refIsMemory: true }],
  ['jmp [eax*4+0x804a000]', 'ff248500a00408', { flow: Flow.IndirectJump, ref: 0x804a000 }],
  ['push 0x804a010', '6810a00408', { imm: 0x804a010 }],
  ['int 0x80', 'cd80', { flow: Flow.Sequential }],
  ['jmp far 0x10:0x1234', 'ea341200001000', { flow: Flow.IndirectJump, target: -1 }],
  ['push es', '06', { flow: Flow.Sequential, length: 1 }],
];

test('X86Decoder: table of 64-bit and 32-bit encodings', async () => {
  const iced = await loadIced();
  const failures: string[] = [];
  for (const [bits, at, cases] of [[64, AT64, CASES_64] as const, [32, AT32, CASES_32] as const]) {
    const dec = new X86Decoder(iced, bits);
    const d = newDecoded();
    for (const [name, hex, expected] of cases) {
      dec.decode(hexBytes(hex), 0, at, d);
      const diff = differences(d, expected);
      if (diff) failures.push(`${bits}: ${name}: ${diff}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('X86Decoder: targets wrap at 2^32 in 32-bit mode and vanish below 0 in 64-bit mode', async () => {
  const iced = await loadIced();
  const d = newDecoded();
  new X86Decoder(iced, 32).decode(hexBytes('e9ebffffff'), 0, 0, d);
  assert.equal(d.target, 0xfffffff0);
  new X86Decoder(iced, 64).decode(hexBytes('e9ebffffff'), 0, 0, d);
  assert.equal(d.target, -1);
});

test('X86Decoder: decoding at any offset of a reused buffer', async () => {
  const dec = new X86Decoder(await loadIced(), 64);
  const bytes = hexBytes('90 e8fbffffff c3 ebfe');
  const d = newDecoded();
  // Out of order, to exercise the position bookkeeping.
  for (const [offset, flow, target] of [
    [6, Flow.Return, -1],
    [1, Flow.Call, 0x1000 + 1],
    [7, Flow.Jump, 0x1000 + 7],
    [0, Flow.Sequential, -1],
    [1, Flow.Call, 0x1000 + 1],
  ] as const) {
    dec.decode(bytes, offset, 0x1000 + offset, d);
    assert.deepEqual([d.flow, d.target], [flow, target], `offset ${offset}`);
  }
});

test('X86Decoder: Intel-syntax text', async () => {
  const dec = new X86Decoder(await loadIced(), 64);
  const text = (hex: string, at = AT64) => dec.text(hexBytes(hex), 0, at);
  assert.deepEqual(text('488b05f0ffffff'), { mnemonic: 'mov', operands: 'rax, qword ptr [rip-0x10]' });
  assert.deepEqual(text('e8fbffffff'), { mnemonic: 'call', operands: '0x401000' });
  assert.deepEqual(text('c3'), { mnemonic: 'ret', operands: '' });
  assert.equal(text('06'), null);
});

test('X86Decoder: alternating between more regions than it keeps', async () => {
  const dec = new X86Decoder(await loadIced(), 64);
  const regions = [0, 1, 2, 3, 4, 5].map((i) => hexBytes(`${'90'.repeat(i)}e8fbffffff`));
  const d = newDecoded();
  for (let round = 0; round < 3; round++) {
    for (const [i, bytes] of regions.entries()) {
      dec.decode(bytes, i, 0x2000, d);
      assert.deepEqual([d.flow, d.target], [Flow.Call, 0x2000], `region ${i}`);
    }
  }
});
