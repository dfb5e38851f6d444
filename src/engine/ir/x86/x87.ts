// x87 floating point (C's long double on x86-64 and i386). Its registers are a stack: an instruction names
// st(i) relative to the top, and loads push, stores pop. The lifter writes st(i) as register ST0+i and each
// push or pop as a marker effect; resolveX87Stack then follows the depth through the function's flow graph
// (compilers keep it the same on every path into a block, and empty at calls) and renames every st(i) to
// the absolute slot it is at that point, so data flow sees ordinary registers.
import { bin, konst, load, reg, rewriteExpr, rewriteStmt, un, type Expr, type IrFunction, type Stmt } from '../ir.js';
import { ST0, X87_TEMP } from './registers.js';

const PUSH = 'x87.push';
const POP = 'x87.pop';
/** An x87 value is 10 bytes. */
const W = 10;

/** What the x86 lifter gives the x87 one: the instruction's operands and where to put statements. */
export interface X87Operands {
  readonly at: number;
  readonly opCount: number;
  /** Operand `i`'s register as an st(i) index, or null when it is memory. */
  stIndex(i: number): number | null;
  /** The memory operand's address and access width. */
  memory(): { addr: Expr; w: number };
  /** The condition fcmov tests (a read of the flags), or null. */
  condition(): Expr | null;
  flags(a: Expr, b: Expr, out: Stmt[]): void;
  /** Whether the instruction just before this one was fldcw (gcc sets truncation around fistp so). */
  readonly afterFldcw: boolean;
}

const ARITHMETIC: Record<string, { op: 'fadd' | 'fsub' | 'fmul' | 'fdiv'; reversed?: true }> = {
  add: { op: 'fadd' },
  sub: { op: 'fsub' },
  subr: { op: 'fsub', reversed: true },
  mul: { op: 'fmul' },
  div: { op: 'fdiv' },
  divr: { op: 'fdiv', reversed: true },
};

const st = (i: number): Expr => reg(ST0 + i, W);
const marker = (name: string, at: number): Stmt => ({ k: 'effect', name, reads: [], writes: [], vers: [], at });

/** Lifts x87 instruction `m` (iced's mnemonic); false when it is not one modelled here. */
export function liftX87(x: X87Operands, m: string, out: Stmt[]): boolean {
  const set = (i: number, e: Expr) => out.push({ k: 'set', r: ST0 + i, ver: -1, e, at: x.at });
  const pop = () => out.push(marker(POP, x.at));
  // The value goes to the slot the push makes the top (st(7) before it, as the hardware's ring has it),
  // read with the names from before the push.
  const push = (v: Expr) => {
    set(7, v);
    out.push(marker(PUSH, x.at));
  };
  const integer = m.startsWith('Fi') && m !== 'Fincstp';
  /** Operand `i` as an x87 value: a register, or memory converted from its float or integer format. */
  const value = (i: number): Expr => {
    const s = x.stIndex(i);
    if (s !== null) return st(s);
    const { addr, w } = x.memory();
    if (integer) return un('itof', load(addr, w), W);
    return w === W ? load(addr, W) : un('fconv', load(addr, w), W);
  };
  const store = (v: (w: number) => Expr) => {
    const { addr, w } = x.memory();
    out.push({ k: 'store', addr, v: v(w), w, at: x.at });
  };

  const arith = /^Fi?(add|subr?|mul|divr?)(p?)$/.exec(m);
  if (arith) {
    const { op, reversed } = ARITHMETIC[arith[1]!]!;
    // Two registers: st(dst) op= st(src); one memory operand: st0 op= it.
    const [dst, src] = x.opCount === 2 ? [x.stIndex(0) ?? 0, value(1)] : [0, value(0)];
    const [a, b] = reversed ? [src, st(dst)] : [st(dst), src];
    set(dst, bin(op, a, b, W));
    if (arith[2]) pop();
    return true;
  }
  switch (m) {
    case 'Fld':
    case 'Fild':
      push(value(0));
      return true;
    case 'Fld1':
    case 'Fldz':
      push(un('itof', konst(m === 'Fld1' ? 1 : 0, 4), W));
      return true;
    case 'Fst':
    case 'Fstp': {
      const s = x.stIndex(0);
      if (s !== null) set(s, st(0));
      else store((w) => (w === W ? st(0) : un('fconv', st(0), w)));
      if (m === 'Fstp') pop();
      return true;
    }
    case 'Fist':
    case 'Fistp':
    case 'Fisttp': {
      // fist rounds by the control word: to nearest unless fldcw just set truncation, as C's casts do.
      const truncate = m === 'Fisttp' || x.afterFldcw;
      const v = truncate ? st(0) : { k: 'op' as const, name: 'frint', args: [st(0)], w: W };
      store((w) => un('ftoi', v, w));
      if (m !== 'Fist') pop();
      return true;
    }
    case 'Fxch': {
      const s = x.stIndex(1) ?? 1;
      out.push({ k: 'set', r: X87_TEMP, ver: -1, e: st(0), at: x.at });
      set(0, st(s));
      set(s, reg(X87_TEMP, W));
      return true;
    }
    case 'Fchs':
      set(0, un('fneg', st(0), W));
      return true;
    case 'Fabs':
      set(0, { k: 'op', name: 'fabs', args: [st(0)], w: W });
      return true;
    case 'Fucomi':
    case 'Fcomi':
    case 'Fucomip':
    case 'Fcomip':
      x.flags(st(0), st(x.stIndex(1) ?? 1), out);
      if (m.endsWith('p')) pop();
      return true;
    case 'Fnstcw':
    case 'Fstcw':
      // The control word C programs run with: every exception masked, 64-bit precision, round to nearest.
      store(() => konst(0x37f, 2));
      return true;
    case 'Fldcw':
    case 'Fwait':
    case 'Fnop':
      return true;
  }
  if (m.startsWith('Fcmov')) {
    const c = x.condition();
    if (!c) return false;
    set(0, { k: 'select', c, a: st(x.stIndex(1) ?? 1), b: st(0), w: W });
    return true;
  }
  return false;
}

/**
 * Renames the relative st(i) of a lifted x86 function to absolute slots (ST0 + depth − 1 − i, modulo 8 as
 * the hardware's ring, for a push's write) and drops the push/pop markers. Depth starts at 0, carries along the flow graph from the first path that reaches a
 * block, and is 0 again after a call. A read below the stack (a long double a call returned, which the
 * conventions do not describe) becomes an operation the decompiler refuses.
 */
export function resolveX87Stack(fn: IrFunction): void {
  if (!fn.blocks.some((b) => b.stmts.some(isMarker))) return;
  const depthIn = new Array<number>(fn.blocks.length).fill(-1);
  const order: number[] = [];
  const reach = (b: number, d: number) => {
    if (depthIn[b]! >= 0) return;
    depthIn[b] = d;
    order.push(b);
  };
  for (let start = 0; start < fn.blocks.length; start++) {
    if (depthIn[start]! >= 0) continue;
    reach(start, 0);
    for (let k = order.length - 1; k < order.length; k++) {
      const block = fn.blocks[order[k]!]!;
      let d = depthIn[order[k]!]!;
      const slot = (e: Expr): Expr => {
        if (e.k !== 'reg' || e.r < ST0 || e.r >= ST0 + 8) return e;
        const i = e.r - ST0;
        return i < d ? { ...e, r: ST0 + d - 1 - i } : { k: 'op', name: 'x87.underflow', args: [], w: e.w };
      };
      const kept: Stmt[] = [];
      for (const s of block.stmts) {
        if (s.k === 'effect' && (s.name === PUSH || s.name === POP)) {
          d = s.name === PUSH ? Math.min(d + 1, 8) : Math.max(d - 1, 0);
          continue;
        }
        rewriteStmt(s, slot);
        if (s.k === 'effect') s.reads = s.reads.map((e) => rewriteExpr(e, slot));
        if (s.k === 'set' && s.r >= ST0 && s.r < ST0 + 8) s.r = ST0 + ((d - 1 - (s.r - ST0) + 16) % 8);
        if (s.k === 'call') d = 0;
        kept.push(s);
      }
      block.stmts = kept;
      for (const next of block.succ) reach(next, d);
    }
  }
}

const isMarker = (s: Stmt): boolean => s.k === 'effect' && (s.name === PUSH || s.name === POP);
