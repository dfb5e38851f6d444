// Data flow over a function in SSA form: constant and stack-pointer propagation (each value is a constant,
// the entry stack pointer plus a constant, or unknown), def-use chains, and the frame slots every load and
// store with a stack address touches. Sparse and optimistic: phis meet only the values known so far, and
// the passes repeat until nothing changes (bounded, for hostile code).
import { forEachRegRead, operands, stmtOperands, type Expr } from './ir.js';
import type { SsaFunction } from './ssa.js';

export type Value = { kind: 'const'; v: bigint } | { kind: 'sp'; off: number } | { kind: 'unknown' };

const UNKNOWN: Value = { kind: 'unknown' };
const MAX_PASSES = 12;

/** A use of an SSA value: the statement that reads it, and the expression node. */
export interface Use {
  block: number;
  stmt: number;
  node: Extract<Expr, { k: 'reg' }>;
}

/** One access to the frame: a load or store at the entry stack pointer + `off`. */
export interface SlotAccess {
  off: number;
  w: number;
  block: number;
  stmt: number;
  store: boolean;
  /** The loaded expression (loads) or the stored value (stores). */
  value: Expr;
}

export interface DataFlow {
  ssa: SsaFunction;
  /** The value of register `r` version `ver`. */
  valueOf(r: number, ver: number): Value;
  /** The value of an expression at its place in the function. */
  evaluate(e: Expr): Value;
  uses(r: number, ver: number): readonly Use[];
  /** The phis that take version `ver` of register `r` as an argument, as the versions they define. */
  phiUsers(r: number, ver: number): readonly number[];
  slots: SlotAccess[];
  /** The loads of the frame slot at `off`. */
  loadsAt(off: number): readonly SlotAccess[];
}

/** Runs the analyses over a function in SSA form. */
export function dataFlow(ssa: SsaFunction): DataFlow {
  const { fn } = ssa;
  const regCount = fn.regs.names.length;
  const key = (r: number, ver: number) => ver * regCount + r;
  const values = new Map<number, Value>();
  values.set(key(fn.regs.sp, 0), { kind: 'sp', off: 0 });

  const evaluate = (e: Expr, depth = 0): Value => {
    if (depth > 32) return UNKNOWN;
    switch (e.k) {
      case 'const':
        return { kind: 'const', v: e.v };
      case 'reg':
        return e.ver < 0 ? UNKNOWN : (values.get(key(e.r, e.ver)) ?? UNKNOWN);
      case 'bin':
        return e.op === 'add' || e.op === 'sub'
          ? combine(e.op, evaluate(e.a, depth + 1), evaluate(e.b, depth + 1), e.w)
          : UNKNOWN;
      case 'un':
        return e.op === 'zext' || e.op === 'sext' || e.op === 'trunc' ? evaluate(e.a, depth + 1) : UNKNOWN;
      default:
        return UNKNOWN;
    }
  };

  // Monotone: a value goes from not yet known to one value to unknown, never back.
  let changed = true;
  const update = (r: number, ver: number, v: Value) => {
    const k = key(r, ver);
    const old = values.get(k);
    if (!old) values.set(k, v);
    else if (old.kind !== 'unknown' && !same(old, v)) values.set(k, UNKNOWN);
    else return;
    changed = true;
  };
  // In reverse postorder only a phi on a loop header reads a value not yet computed; when none did, one
  // pass is the fixed point.
  let ahead = true;
  for (let pass = 0; changed && ahead && pass < MAX_PASSES; pass++) {
    changed = false;
    ahead = false;
    for (const b of ssa.order) {
      for (const s of fn.blocks[b]!.stmts) {
        if (s.k === 'set') update(s.r, s.ver, evaluate(s.e));
        else if (s.k === 'phi') {
          const args = s.args.map((v) => (v < 0 ? undefined : values.get(key(s.r, v))));
          if (pass === 0) ahead ||= args.some((v, i) => v === undefined && s.args[i]! >= 0);
          else ahead = true;
          update(s.r, s.ver, meet(args));
        } else if (s.k === 'call' || s.k === 'effect') s.writes.forEach((r, i) => update(r, s.vers[i]!, UNKNOWN));
      }
    }
  }

  const useLists = new Map<number, Use[]>();
  const phiLists = new Map<number, number[]>();
  const slots: SlotAccess[] = [];
  fn.blocks.forEach((block, bi) =>
    block.stmts.forEach((s, si) => {
      if (s.k === 'phi') {
        for (const v of s.args) {
          if (v < 0) continue;
          const k = key(s.r, v);
          let list = phiLists.get(k);
          if (!list) phiLists.set(k, (list = []));
          if (!list.includes(s.ver)) list.push(s.ver);
        }
        return;
      }
      for (const e of stmtOperands(s)) {
        forEachRegRead(e, (node) => {
          if (node.ver < 0) return;
          const k = key(node.r, node.ver);
          let list = useLists.get(k);
          if (!list) useLists.set(k, (list = []));
          list.push({ block: bi, stmt: si, node });
        });
        forEachLoad(e, (l) => {
          const a = evaluate(l.addr);
          if (a.kind === 'sp') slots.push({ off: a.off, w: l.w, block: bi, stmt: si, store: false, value: l });
        });
      }
      if (s.k === 'store') {
        const a = evaluate(s.addr);
        if (a.kind === 'sp') slots.push({ off: a.off, w: s.w, block: bi, stmt: si, store: true, value: s.v });
      }
    }),
  );

  const loads = new Map<number, SlotAccess[]>();
  for (const a of slots) {
    if (a.store) continue;
    let list = loads.get(a.off);
    if (!list) loads.set(a.off, (list = []));
    list.push(a);
  }
  return {
    ssa,
    valueOf: (r, ver) => (ver < 0 ? UNKNOWN : (values.get(key(r, ver)) ?? UNKNOWN)),
    evaluate: (e) => evaluate(e),
    uses: (r, ver) => useLists.get(key(r, ver)) ?? [],
    phiUsers: (r, ver) => phiLists.get(key(r, ver)) ?? [],
    slots,
    loadsAt: (off) => loads.get(off) ?? [],
  };
}

function combine(op: 'add' | 'sub', a: Value, b: Value, w: number): Value {
  if (a.kind === 'const' && b.kind === 'const')
    return { kind: 'const', v: BigInt.asIntN(w * 8, op === 'add' ? a.v + b.v : a.v - b.v) };
  if (a.kind === 'sp' && b.kind === 'const') {
    const d = Number(b.v);
    return { kind: 'sp', off: op === 'add' ? a.off + d : a.off - d };
  }
  if (op === 'add' && a.kind === 'const' && b.kind === 'sp') return { kind: 'sp', off: b.off + Number(a.v) };
  return UNKNOWN;
}

function same(a: Value, b: Value): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'const') return a.v === (b as typeof a).v;
  if (a.kind === 'sp') return a.off === (b as typeof a).off;
  return true;
}

/** The meet of a phi's known arguments: their common value, or unknown. */
function meet(args: (Value | undefined)[]): Value {
  let out: Value | undefined;
  for (const v of args) {
    if (!v) continue;
    if (!out) out = v;
    else if (!same(out, v)) return UNKNOWN;
  }
  return out ?? UNKNOWN;
}

/** Every load in `e`, outermost first. */
export function forEachLoad(e: Expr, visit: (l: Extract<Expr, { k: 'load' }>) => void, depth = 0): void {
  if (depth > 64) return;
  if (e.k === 'load') visit(e);
  for (const o of operands(e)) forEachLoad(o, visit, depth + 1);
}
