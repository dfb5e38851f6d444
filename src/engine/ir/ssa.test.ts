import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bin, konst, reg, type IrFunction, type Stmt } from './ir.js';
import { toSsa } from './ssa.js';
import { x86Registers } from './x86/registers.js';

const set = (r: number, e: Stmt extends infer S ? (S extends { k: 'set'; e: infer E } ? E : never) : never): Stmt => ({
  k: 'set',
  r,
  ver: -1,
  e,
  at: 0,
});

test('ssa: a diamond gets one phi where the two definitions meet, reading each side version; the entry value is version 0', () => {
  // 0: branch → 1 | 2; 1: rax = 1; 2: rax = 2; 3: rcx = rax + rdi; ret
  const blocks = [
    { stmts: [{ k: 'branch', c: reg(32, 8), at: 0 } as Stmt], succ: [1, 2] },
    { stmts: [set(0, konst(1, 8))], succ: [3] },
    { stmts: [set(0, konst(2, 8))], succ: [3] },
    {
      stmts: [set(1, bin('add', reg(0, 8), reg(7, 8))), { k: 'ret', reads: [reg(0, 8)], pop: 0, at: 0 } as Stmt],
      succ: [],
    },
  ].map((b, i) => ({ start: i, end: i + 1, pred: [] as number[], ...b }));
  blocks.forEach((b, i) => b.succ.forEach((s) => blocks[s]!.pred.push(i)));
  const fn: IrFunction = { start: 0, regs: x86Registers(64), blocks, undecoded: 0 };
  const ssa = toSsa(fn);
  const phi = fn.blocks[3]!.stmts[0]!;
  assert.equal(phi.k, 'phi');
  assert.equal(phi.k === 'phi' && phi.r, 0);
  const verIn = (b: number) =>
    fn.blocks[b]!.stmts[0]!.k === 'set' ? (fn.blocks[b]!.stmts[0] as { ver: number }).ver : -1;
  assert.deepEqual(phi.k === 'phi' && phi.args, [verIn(1), verIn(2)], 'one argument per predecessor, in order');
  assert.deepEqual([verIn(1), verIn(2)].sort(), [1, 2]);
  const add = fn.blocks[3]!.stmts[1]!;
  assert.ok(add.k === 'set' && add.e.k === 'bin' && add.e.a.k === 'reg' && add.e.b.k === 'reg');
  if (add.k === 'set' && add.e.k === 'bin' && add.e.a.k === 'reg' && add.e.b.k === 'reg') {
    assert.equal(add.e.a.ver, 3, 'rax read after the join is the phi');
    assert.equal(add.e.b.ver, 0, 'rdi is never written: its entry value');
  }
  assert.deepEqual([...ssa.idom], [-1, 0, 0, 0]);
});
