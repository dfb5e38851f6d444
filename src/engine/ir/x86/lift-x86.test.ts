import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liftFixture } from '../../../../test/helpers/engine/ir.js';
import type { Stmt } from '../ir.js';

const stmtsOf = (df: Awaited<ReturnType<typeof liftFixture>> extends Map<number, infer D> ? D : never): Stmt[] =>
  df.ssa.fn.blocks.flatMap((b) => b.stmts);

test('lift (x86-64): -O0 spills land in frame slots at their width, and the stored pointer is read back as an address', async () => {
  const code = [
    ...[0x55], // push rbp
    ...[0x48, 0x89, 0xe5], // mov rbp, rsp
    ...[0x89, 0x7d, 0xec], // mov [rbp-0x14], edi
    ...[0x48, 0x89, 0x75, 0xe0], // mov [rbp-0x20], rsi
    ...[0x48, 0x8b, 0x45, 0xe0], // mov rax, [rbp-0x20]
    ...[0x8b, 0x55, 0xec], // mov edx, [rbp-0x14]
    ...[0x89, 0x10], // mov [rax], edx
    ...[0x5d, 0xc3], // pop rbp; ret
  ];
  const fns = await liftFixture({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const df = fns.get(0x1000)!;
  // rbp = entry sp - 8, so [rbp-0x14] is entry sp - 0x1c and [rbp-0x20] entry sp - 0x28.
  const slots = df.slots.map((s) => `${s.store ? 'store' : 'load'} ${s.off} ${s.w}`);
  assert.deepEqual(slots, ['store -8 8', 'store -28 4', 'store -40 8', 'load -40 8', 'load -28 4', 'load -8 8']);
  // The store through rax writes 4 bytes at an address that is not a frame slot.
  const stores = stmtsOf(df).filter((s): s is Extract<Stmt, { k: 'store' }> => s.k === 'store');
  assert.equal(stores.at(-1)!.w, 4);
  assert.equal(df.evaluate(stores.at(-1)!.addr).kind, 'unknown');
  // After `pop rbp` the stack pointer is back at its entry value: the return reads rax as the machine left it.
  const ret = stmtsOf(df).find((s) => s.k === 'ret')!;
  assert.equal(ret.k, 'ret');
});

test('lift (x86): `push [esp+8]` reads its operand before the stack pointer moves', async () => {
  const code = [
    ...[0xff, 0x74, 0x24, 0x08], // push dword [esp+8]
    ...[0xe8, 0x04, 0x00, 0x00, 0x00], // call 0x100d
    ...[0x83, 0xc4, 0x04], // add esp, 4
    ...[0xc3], // ret
    ...[0x8b, 0x44, 0x24, 0x04], // 0x100d: mov eax, [esp+4]
    ...[0xc3],
  ];
  const fns = await liftFixture({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const loads = fns.get(0x1000)!.slots.filter((s) => !s.store);
  // The first argument of the caller (entry sp + 4)... is at +8 only when read after the decrement.
  assert.deepEqual(
    loads.map((s) => s.off),
    [8],
  );
});

test('lift (x86-64): an unmodelled instruction reads and writes exactly what iced says (cpuid: eax, ecx in; eax..edx out)', async () => {
  const code = [0x0f, 0xa2, 0xc3]; // cpuid; ret
  const fns = await liftFixture({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const df = fns.get(0x1000)!;
  const names = df.ssa.fn.regs.names;
  const written = stmtsOf(df).flatMap((s) => (s.k === 'set' ? [names[s.r]] : []));
  assert.deepEqual(written.slice(1).sort(), ['rax', 'rbx', 'rcx', 'rdx']);
  assert.equal(df.uses(0, 0).length + df.uses(1, 0).length, 2, 'eax and ecx are read on entry');
});
