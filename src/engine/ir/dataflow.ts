// Data flow over a function in SSA form: constant and stack-pointer propagation (each value is a constant,
// the entry stack pointer plus a constant, or unknown), def-use chains, and the frame slots every load and
// store with a stack address touches; calls through registers it knows are rewritten to call the constant
// (propagateCallTargets). Sparse and optimistic: phis meet only the values known so far, and
// the passes repeat until nothing changes (bounded, for hostile code).
import { forEachRegRead, konst, load, operands, stmtOperands, type Expr } from './ir.js';
import type { IrFunction } from './ir.js';
import { definitionOf, type SsaFunction } from './ssa.js';

/** `ref`: the constant is an address an instruction formed (a RIP-relative operand, adrp + add, pc + literal). */
export type Value = { kind: 'const'; v: bigint; ref?: true } | { kind: 'sp'; off: number } | { kind: 'unknown' };

const UNKNOWN: Value = { kind: 'unknown' };
const MAX_PASSES = 12;
/** Frame slots looked at for saved constants at most (the overlap check is quadratic). */
const MAX_SLOTS = 1024;

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
  /** The stores to the frame slot at `off`. */
  storesAt(off: number): readonly SlotAccess[];
}

/** Runs the analyses over a function in SSA form. */
export function dataFlow(ssa: SsaFunction): DataFlow {
  const { fn } = ssa;
  const regCount = fn.regs.names.length;
  const key = (r: number, ver: number) => ver * regCount + r;
  const values = new Map<number, Value>();
  values.set(key(fn.regs.sp, 0), { kind: 'sp', off: 0 });

  /** Frame slots every store fills with one constant (MIPS's saved gp), once known: their loads read it. */
  let constantSlots: Map<number, { v: bigint; w: number }> | null = null;
  const evaluate = (e: Expr, depth = 0): Value => {
    if (depth > 32) return UNKNOWN;
    switch (e.k) {
      case 'const':
        return e.ref ? { kind: 'const', v: e.v, ref: true } : { kind: 'const', v: e.v };
      case 'reg':
        return e.ver < 0 ? UNKNOWN : (values.get(key(e.r, e.ver)) ?? UNKNOWN);
      case 'bin':
        return e.op === 'add' || e.op === 'sub'
          ? combine(e.op, evaluate(e.a, depth + 1), evaluate(e.b, depth + 1), e.w)
          : UNKNOWN;
      case 'un':
        return e.op === 'zext' || e.op === 'sext' || e.op === 'trunc' ? evaluate(e.a, depth + 1) : UNKNOWN;
      case 'load': {
        const a = constantSlots?.size ? evaluate(e.addr, depth + 1) : UNKNOWN;
        const slot = a.kind === 'sp' ? constantSlots!.get(a.off) : undefined;
        return slot && slot.w === e.w ? { kind: 'const', v: slot.v } : UNKNOWN;
      }
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
  const solve = () => {
    // In reverse postorder only a phi on a loop header reads a value not yet computed; when none did, one
    // pass is the fixed point.
    let ahead = true;
    changed = true;
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
  };
  solve();
  // A value saved to the frame and reloaded (MIPS reloads gp after every call) keeps its constant: solved
  // again with those loads known, when there are any.
  constantSlots = slotConstants(fn.blocks, evaluate);
  if (constantSlots.size) {
    values.clear();
    values.set(key(fn.regs.sp, 0), { kind: 'sp', off: 0 });
    solve();
  }

  propagateCallTargets(ssa, (r, ver) => values.get(key(r, ver)) ?? UNKNOWN, evaluate);

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
  const stores = new Map<number, SlotAccess[]>();
  for (const a of slots) {
    const byOff = a.store ? stores : loads;
    let list = byOff.get(a.off);
    if (!list) byOff.set(a.off, (list = []));
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
    storesAt: (off) => stores.get(off) ?? [],
  };
}

/**
 * The frame slots whose every store writes the same constant at the same width and that no other store
 * overlaps, when a load reads the frame. Stores through addresses the analysis cannot place are taken not
 * to reach the frame (its address rarely escapes to code that writes a saved register's slot).
 */
function slotConstants(
  blocks: IrFunction['blocks'],
  evaluate: (e: Expr) => Value,
): Map<number, { v: bigint; w: number }> {
  const stores = new Map<number, { v: bigint; w: number } | null>();
  const widest = new Map<number, number>();
  let read = false;
  for (const b of blocks)
    for (const s of b.stmts) {
      for (const e of stmtOperands(s)) forEachLoad(e, (l) => (read ||= evaluate(l.addr).kind === 'sp'));
      const a = s.k === 'store' ? evaluate(s.addr) : UNKNOWN;
      if (s.k !== 'store' || a.kind !== 'sp') continue;
      const v = evaluate(s.v);
      const old = stores.get(a.off);
      const mine = v.kind === 'const' ? { v: v.v, w: s.w } : null;
      stores.set(a.off, old === undefined ? mine : old && mine && old.v === mine.v && old.w === mine.w ? old : null);
      widest.set(a.off, Math.max(widest.get(a.off) ?? 0, s.w));
    }
  const out = new Map<number, { v: bigint; w: number }>();
  if (!read || widest.size > MAX_SLOTS) return out;
  const overlapped = (off: number, w: number) =>
    [...widest].some(([o, ow]) => o !== off && o < off + w && off < o + ow);
  for (const [off, c] of stores) if (c && !overlapped(off, c.w)) out.set(off, c);
  return out;
}

function combine(op: 'add' | 'sub', a: Value, b: Value, w: number): Value {
  if (a.kind === 'const' && b.kind === 'const') {
    const v = BigInt.asIntN(w * 8, op === 'add' ? a.v + b.v : a.v - b.v);
    return a.ref || b.ref ? { kind: 'const', v, ref: true } : { kind: 'const', v };
  }
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

/**
 * A call through a register constant propagation knows is rewritten to call that constant, or through the
 * constant slot the register was loaded from (MIPS `lw t9, n(gp); jalr t9`, ARM `ldr r3, =f; blx r3`), so
 * everything after names its callee as it would a direct call's.
 */
function propagateCallTargets(
  ssa: SsaFunction,
  valueOf: (r: number, ver: number) => Value,
  evaluate: (e: Expr) => Value,
): void {
  const { fn } = ssa;
  for (const b of fn.blocks)
    for (const s of b.stmts) {
      if (s.k !== 'call' || s.target.k !== 'reg' || s.target.ver < 0) continue;
      const v = valueOf(s.target.r, s.target.ver);
      if (v.kind === 'const') {
        s.target = konst(v.v, s.target.w);
        continue;
      }
      const def = definitionOf(ssa, s.target.r, s.target.ver);
      const slot = def?.k === 'set' && def.e.k === 'load' ? evaluate(def.e.addr) : UNKNOWN;
      if (slot.kind === 'const' && def?.k === 'set') s.target = load(konst(slot.v, fn.regs.addressSize), def.e.w);
    }
}

/** Every load in `e`, outermost first. */
export function forEachLoad(e: Expr, visit: (l: Extract<Expr, { k: 'load' }>) => void, depth = 0): void {
  if (depth > 64) return;
  if (e.k === 'load') visit(e);
  for (const o of operands(e)) forEachLoad(o, visit, depth + 1);
}
