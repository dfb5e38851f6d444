// SSA form for one IR function: dominators (dominators.ts), dominance frontiers, phi placement for the
// registers live across blocks (semi-pruned SSA), and renaming along the dominator tree. Version 0 of a
// register is its value on entry; each definition gets the next version. Blocks unreachable from the
// entry keep version -1.
import { immediateDominators, reversePostorder } from './dominators.js';
import { forEachRegRead, stmtOperands, type IrFunction, type Stmt } from './ir.js';

/** Where an SSA value is defined: block and statement index, or the function's entry (version 0). */
export interface DefSite {
  block: number;
  stmt: number;
}

export interface SsaFunction {
  fn: IrFunction;
  /** Reverse postorder of the reachable blocks. */
  order: number[];
  /** Immediate dominator per block (-1 for the entry and unreachable blocks). */
  idom: Int32Array;
  /** `defs[r][ver]` (ver ≥ 1). */
  defs: DefSite[][];
}

/** Puts `fn` in SSA form in place. */
export function toSsa(fn: IrFunction): SsaFunction {
  const n = fn.blocks.length;
  const order = reversePostorder(n, 0, (b) => fn.blocks[b]!.succ);
  const idom = immediateDominators(n, order, (b) => fn.blocks[b]!.pred);
  const frontiers = dominanceFrontiers(fn, order, idom);
  placePhis(fn, order, frontiers);
  const defs = rename(fn, idom, order);
  return { fn, order, idom, defs };
}

/** Statement `a` runs before `b` on every path from the entry: earlier in the same block, or in a dominator. */
export function dominates(ssa: SsaFunction, a: DefSite, b: DefSite): boolean {
  if (a.block === b.block) return a.stmt < b.stmt;
  for (let d = ssa.idom[b.block]!; d >= 0; d = ssa.idom[d]!) if (d === a.block) return true;
  return false;
}

function dominanceFrontiers(fn: IrFunction, order: number[], idom: Int32Array): Set<number>[] {
  const df = fn.blocks.map(() => new Set<number>());
  const entry = order[0];
  for (const b of order) {
    const preds = fn.blocks[b]!.pred.filter((p) => p === entry || idom[p]! >= 0);
    if (preds.length < 2) continue;
    for (const p of preds) {
      // Walk up from each predecessor to b's immediate dominator.
      for (let runner = p, guard = 0; runner !== idom[b] && runner >= 0 && guard < fn.blocks.length; guard++) {
        df[runner]!.add(b);
        runner = runner === entry ? -1 : idom[runner]!;
      }
    }
  }
  return df;
}

/** The statement that defines version `ver` of register `r`, if a statement of the function does. */
export function definitionOf(ssa: SsaFunction, r: number, ver: number): Stmt | undefined {
  const at = ssa.defs[r]?.[ver];
  return at && at.block >= 0 ? ssa.fn.blocks[at.block]!.stmts[at.stmt] : undefined;
}

/** Registers a statement defines. */
export function definedBy(s: Stmt): readonly number[] {
  switch (s.k) {
    case 'set':
    case 'phi':
      return [s.r];
    case 'call':
    case 'effect':
      return s.writes;
    default:
      return [];
  }
}

function placePhis(fn: IrFunction, order: number[], frontiers: Set<number>[]): void {
  const regCount = fn.regs.names.length;
  const defBlocks: number[][] = Array.from({ length: regCount }, () => []);
  const global = new Uint8Array(regCount);
  for (const b of order) {
    const killed = new Uint8Array(regCount);
    for (const s of fn.blocks[b]!.stmts) {
      for (const e of stmtOperands(s)) forEachRegRead(e, (r) => !killed[r.r] && (global[r.r] = 1));
      for (const r of definedBy(s)) {
        killed[r] = 1;
        const list = defBlocks[r]!;
        if (list[list.length - 1] !== b) list.push(b);
      }
    }
  }
  const hasPhi = fn.blocks.map(() => new Set<number>());
  for (let r = 0; r < regCount; r++) {
    if (!global[r]) continue;
    const work = [...defBlocks[r]!];
    while (work.length) {
      const b = work.pop()!;
      for (const d of frontiers[b]!) {
        if (hasPhi[d]!.has(r)) continue;
        hasPhi[d]!.add(r);
        const block = fn.blocks[d]!;
        block.stmts.unshift({ k: 'phi', r, ver: -1, args: block.pred.map(() => -1), at: block.start });
        work.push(d);
      }
    }
  }
}

function rename(fn: IrFunction, idom: Int32Array, order: number[]): DefSite[][] {
  const regCount = fn.regs.names.length;
  const next = new Int32Array(regCount).fill(1);
  const defs: DefSite[][] = Array.from({ length: regCount }, () => [{ block: -1, stmt: -1 }]);
  const current = new Int32Array(regCount); // version 0: the entry value
  const children: number[][] = fn.blocks.map(() => []);
  for (const b of order) if (idom[b]! >= 0) children[idom[b]!]!.push(b);
  if (!order.length) return defs;
  // Iterative walk of the dominator tree: on entering a block, rename it and remember what to restore.
  const stack: { b: number; saved: [number, number][] | null; child: number }[] = [
    { b: order[0]!, saved: null, child: 0 },
  ];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (!top.saved) {
      top.saved = [];
      const block = fn.blocks[top.b]!;
      block.stmts.forEach((s, i) => {
        if (s.k !== 'phi') for (const e of stmtOperands(s)) forEachRegRead(e, (r) => (r.ver = current[r.r]!));
        const define = (r: number): number => {
          top.saved!.push([r, current[r]!]);
          const v = next[r]!++;
          current[r] = v;
          defs[r]![v] = { block: top.b, stmt: i };
          return v;
        };
        if (s.k === 'set' || s.k === 'phi') s.ver = define(s.r);
        else if (s.k === 'call' || s.k === 'effect') s.vers = s.writes.map(define);
      });
      for (const succ of block.succ) {
        const target = fn.blocks[succ]!;
        const slot = target.pred.indexOf(top.b);
        for (const s of target.stmts) {
          if (s.k !== 'phi') break;
          s.args[slot] = current[s.r]!;
        }
      }
    }
    const kids = children[top.b]!;
    if (top.child < kids.length) {
      stack.push({ b: kids[top.child++]!, saved: null, child: 0 });
      continue;
    }
    for (let i = top.saved.length - 1; i >= 0; i--) current[top.saved[i]![0]] = top.saved[i]![1];
    stack.pop();
  }
  return defs;
}
