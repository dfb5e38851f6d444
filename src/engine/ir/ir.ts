// The one intermediate representation every lifter produces and every later stage (data flow, type
// recovery, the decompiler) reads. Registers, flags, memory and calls are explicit: an instruction becomes
// statements that assign whole registers (a partial write is a deposit into the old value, so def-use
// chains need no aliasing rules), store to memory, call, branch or return. Values are expression trees.
// Locations are numbered per ISA (RegisterFile); flags are one register holding the flag-producing
// operation, which conditions read, as `cmp` + `jl` reads in C (`a < b`).

export type BinOp =
  | 'add'
  | 'sub'
  | 'mul'
  | 'udiv'
  | 'sdiv'
  | 'urem'
  | 'srem'
  | 'and'
  | 'or'
  | 'xor'
  | 'shl'
  | 'shr'
  | 'sar'
  | 'rol'
  | 'ror'
  | 'fadd'
  | 'fsub'
  | 'fmul'
  | 'fdiv'
  /** `a` with its low `b.w` bytes replaced by `b`: a partial register write (`mov al, 1`). */
  | 'deposit';

export type UnOp = 'neg' | 'not' | 'zext' | 'sext' | 'trunc' | 'fneg' | 'itof' | 'ftoi' | 'fconv';

/**
 * What a flag-producing operation computed, over operands `a` and `b`: `sub` for cmp, `and` for test, `add`;
 * `logic` and `shift` hold their result in `a` (zero, sign and parity follow from it; a logic operation
 * clears carry and overflow); `bit` is bt's bit `b` of `a` in the carry; `mul`, `fcmp` and `other` as named.
 */
export type FlagOp = 'sub' | 'and' | 'add' | 'logic' | 'shift' | 'bit' | 'mul' | 'fcmp' | 'other';

/** Conditions over flags, named by what they mean after `cmp a, b`. */
export type Cond =
  | 'eq'
  | 'ne'
  | 'slt'
  | 'sle'
  | 'sgt'
  | 'sge'
  | 'ult'
  | 'ule'
  | 'ugt'
  | 'uge'
  | 'neg'
  | 'pos'
  | 'ov'
  | 'nov'
  | 'par'
  | 'npar';

export type Expr =
  /**
   * `ref`: an address the instruction formed itself (x86-64 RIP-relative), so a reference to code or data
   * of the image rather than a number that happens to fall inside it.
   */
  | { k: 'const'; v: bigint; w: number; ref?: true }
  /** The register's value truncated to `w` bytes; `ver` is its SSA version (-1 before SSA). */
  | { k: 'reg'; r: number; w: number; ver: number }
  | { k: 'load'; addr: Expr; w: number }
  | { k: 'bin'; op: BinOp; a: Expr; b: Expr; w: number }
  | { k: 'un'; op: UnOp; a: Expr; w: number }
  | { k: 'flags'; op: FlagOp; a: Expr; b: Expr; w: number }
  /** 1 when `cc` holds of `flags` (a flags-register read), else 0. */
  | { k: 'cond'; cc: Cond; flags: Expr; w: number }
  | { k: 'select'; c: Expr; a: Expr; b: Expr; w: number }
  /** An operation the IR does not model (`cpuid`, `aesenc`, …): what it reads is still explicit. */
  | { k: 'op'; name: string; args: Expr[]; w: number };

export type Stmt =
  | { k: 'set'; r: number; ver: number; e: Expr; at: number }
  | { k: 'store'; addr: Expr; v: Expr; w: number; at: number }
  /**
   * A call: `target` is the called address or the expression called through. `args` reads every register
   * the convention could pass an argument in (how many the callee takes is for signature recovery to say),
   * then the stack pointer (stack arguments lie above it);
   * `writes` are the registers it clobbers, return registers included. A tail call writes nothing.
   */
  | { k: 'call'; target: Expr; args: Expr[]; writes: number[]; vers: number[]; at: number; tail: boolean }
  | { k: 'branch'; c: Expr; at: number }
  | { k: 'jump'; target: Expr; at: number }
  /**
   * `reads`: the convention's return registers (the driver fills them, so SSA names the values a
   * function returns); `pop`: bytes of arguments the return removes from the stack (x86 `ret n`, stdcall).
   */
  | { k: 'ret'; reads: Expr[]; pop: number; at: number }
  | { k: 'phi'; r: number; ver: number; args: number[]; at: number }
  /** Something with effects the IR does not model (`syscall`, `int`, `hlt`): its reads and writes are explicit. */
  | { k: 'effect'; name: string; reads: Expr[]; writes: number[]; vers: number[]; at: number };

/** One ISA's locations: full registers by number, with names and widths. */
export interface RegisterFile {
  names: readonly string[];
  /** Width in bytes of each register. */
  widths: readonly number[];
  sp: number;
  /** The register holding flag-producing results. */
  flags: number;
  /** Bytes of an address. */
  addressSize: 4 | 8;
  /** The first of two scratch registers lifters use within one instruction (x86 `xchg`, multi-output ops). */
  temp: number;
}

export interface IrBlock {
  start: number;
  end: number;
  stmts: Stmt[];
  /** Indices of successor and predecessor blocks in the function. */
  succ: number[];
  pred: number[];
}

export interface IrFunction {
  start: number;
  regs: RegisterFile;
  /** Block 0 is the entry. */
  blocks: IrBlock[];
  /** Instructions the lifter could not decode (their effects are missing). */
  undecoded: number;
}

export const konst = (v: bigint | number, w: number): Expr => ({ k: 'const', v: BigInt.asIntN(w * 8, BigInt(v)), w });
/** An address the instruction formed itself (see `ref`). */
export const ref = (v: bigint | number, w: number): Expr => ({ ...konst(v, w), ref: true }) as Expr;
export const reg = (r: number, w: number): Expr => ({ k: 'reg', r, w, ver: -1 });
export const bin = (op: BinOp, a: Expr, b: Expr, w = a.w): Expr => ({ k: 'bin', op, a, b, w });
export const un = (op: UnOp, a: Expr, w: number): Expr => ({ k: 'un', op, a, w });
export const load = (addr: Expr, w: number): Expr => ({ k: 'load', addr, w });

/** Every expression `e` reads directly (its operands). */
export function operands(e: Expr): Expr[] {
  switch (e.k) {
    case 'const':
    case 'reg':
      return [];
    case 'load':
      return [e.addr];
    case 'bin':
    case 'flags':
      return [e.a, e.b];
    case 'un':
      return [e.a];
    case 'cond':
      return [e.flags];
    case 'select':
      return [e.c, e.a, e.b];
    case 'op':
      return e.args;
  }
}

/** `e` with `f` applied bottom-up to every node; subtrees `f` leaves alone are shared, not copied. */
export function rewriteExpr(e: Expr, f: (e: Expr) => Expr, depth = 0): Expr {
  if (depth > 64) return e;
  const r = (x: Expr) => rewriteExpr(x, f, depth + 1);
  let out: Expr = e;
  switch (e.k) {
    case 'load': {
      const addr = r(e.addr);
      if (addr !== e.addr) out = { ...e, addr };
      break;
    }
    case 'bin':
    case 'flags': {
      const [a, b] = [r(e.a), r(e.b)];
      if (a !== e.a || b !== e.b) out = { ...e, a, b };
      break;
    }
    case 'un': {
      const a = r(e.a);
      if (a !== e.a) out = { ...e, a };
      break;
    }
    case 'cond': {
      const flags = r(e.flags);
      if (flags !== e.flags) out = { ...e, flags };
      break;
    }
    case 'select': {
      const [c, a, b] = [r(e.c), r(e.a), r(e.b)];
      if (c !== e.c || a !== e.a || b !== e.b) out = { ...e, c, a, b };
      break;
    }
    case 'op': {
      const args = e.args.map(r);
      if (args.some((x, i) => x !== e.args[i])) out = { ...e, args };
      break;
    }
    default:
      break;
  }
  return f(out);
}

/** Rewrites, in place, the expressions a statement computes with (not the registers calls and returns list). */
export function rewriteStmt(s: Stmt, f: (e: Expr) => Expr): void {
  switch (s.k) {
    case 'set':
      s.e = rewriteExpr(s.e, f);
      break;
    case 'store':
      s.addr = rewriteExpr(s.addr, f);
      s.v = rewriteExpr(s.v, f);
      break;
    case 'call':
    case 'jump':
      s.target = rewriteExpr(s.target, f);
      break;
    case 'branch':
      s.c = rewriteExpr(s.c, f);
      break;
    default:
      break;
  }
}

/** The expressions a statement reads at its top level. */
export function stmtOperands(s: Stmt): Expr[] {
  switch (s.k) {
    case 'set':
      return [s.e];
    case 'store':
      return [s.addr, s.v];
    case 'call':
      return [s.target, ...s.args];
    case 'jump':
      return [s.target];
    case 'branch':
      return [s.c];
    case 'effect':
    case 'ret':
      return s.reads;
    case 'phi':
      return [];
  }
}

/** Calls `visit` on every register read in `e`, depth first. */
export function forEachRegRead(e: Expr, visit: (r: Extract<Expr, { k: 'reg' }>) => void, depth = 0): void {
  if (e.k === 'reg') visit(e);
  else if (depth < 64) for (const o of operands(e)) forEachRegRead(o, visit, depth + 1);
}
