// Where a value goes inside one function: from an SSA value through copies, extensions, constant offsets,
// phis and frame slots (a spill and its reloads), collecting what its uses say of its type — used as an
// address (a pointer), the widths it is read and spilled at, and the call arguments it becomes.
import type { DataFlow, SlotAccess } from '../ir/dataflow.js';
import { dominates } from '../ir/ssa.js';
import { operands, stmtOperands, type Cond, type Expr, type Stmt } from '../ir/ir.js';

export interface Evidence {
  /** Read by anything but a call's argument list or a return. */
  used: boolean;
  /** Used as (the base of) a memory address. */
  address: boolean;
  /** Widths in bytes it is read at, and spilled to the frame at. */
  readWidths: Set<number>;
  spillWidth: number | null;
  /**
   * Passed to a call: as argument register `pos` (index into the call's `args`), or, `stack`, in the
   * call's stack argument slot `pos`.
   */
  passed: Passed[];
  /** Compared with or combined with a floating-point operation. */
  float: boolean;
  /**
   * An operand of integer arithmetic beyond adding offsets (multiply, divide, shift, bitwise logic), or
   * compared with a constant other than 0 (pointers are compared with null and with each other).
   */
  arithmetic: boolean;
  /** Memory accessed through it, as a structure would be: offset → the widest access there. */
  fields: Map<number, number>;
}

export interface Passed {
  stmt: Extract<Stmt, { k: 'call' }>;
  pos: number;
  stack: boolean;
  /** The constant added to the seed on the way (`f(&p->x)`); null once narrowed (no pointer then). */
  offset: number | null;
}

/** Stores that write a call's stack arguments (i386): the store statement → the call and slot. */
export type OutgoingArguments = Map<Stmt, { stmt: Extract<Stmt, { k: 'call' }>; pos: number }>;

const MAX_VALUES = 256;
/**
 * How a followed value relates to the seed: `narrow` once it went through a sign or zero extension from 32
 * bits or less; `offset` the constant added on the way (a pointer to a field of the seed's structure).
 */
interface Path {
  narrow: boolean;
  offset: number;
}
type Node = { r: number; ver: number } & Path;

const noEvidence = (): Evidence => ({
  used: false,
  address: false,
  readWidths: new Set(),
  spillWidth: null,
  passed: [],
  float: false,
  arithmetic: false,
  fields: new Map(),
});

/**
 * Follows `seed` forward through the function and gathers its evidence: a register version, or the loads
 * of a stack argument's slot.
 */
export function traceValue(
  df: DataFlow,
  seed: { r: number; ver: number } | { loads: readonly SlotAccess[] },
  outgoing: OutgoingArguments = new Map(),
): Evidence {
  const ev = noEvidence();
  const { fn } = df.ssa;
  const seen = new Set<number>();
  const regCount = fn.regs.names.length;
  const work: Node[] = [];
  const follow = (n: Node) => work.push(n);
  // A load inside a bigger expression (`cmp eax, [esp+8]`, i386 `push [esp+0x1c]`) is a use of the slot's
  // value in place; a load into a register continues as that register.
  const readLoads = (loads: readonly SlotAccess[], path: Path) => {
    for (const a of loads) {
      const s = fn.blocks[a.block]!.stmts[a.stmt]!;
      if (s.k === 'set' && s.e === a.value) work.push({ r: s.r, ver: s.ver, narrow: path.narrow, offset: path.offset });
      else classifyUse(df, s, a.value, path, ev, outgoing, follow, followSlot);
    }
  };
  const spills = new Set<SlotAccess>();
  // Compilers reuse a spill slot for other values: only the loads this store reaches read the value.
  const followSlot = (off: number, path: Path, store: Stmt) => {
    const stores = df.storesAt(off);
    const st = stores.find((a) => fn.blocks[a.block]!.stmts[a.stmt] === store);
    if (!st || spills.has(st)) return;
    spills.add(st);
    const overwritten = (l: SlotAccess) =>
      stores.some((o) => o !== st && dominates(df.ssa, st, o) && dominates(df.ssa, o, l));
    readLoads(
      df.loadsAt(off).filter((l) => dominates(df.ssa, st, l) && !overwritten(l)),
      path,
    );
  };
  if ('loads' in seed) readLoads(seed.loads, { narrow: false, offset: 0 });
  else work.push({ ...seed, narrow: false, offset: 0 });
  while (work.length && seen.size < MAX_VALUES) {
    const v = work.pop()!;
    const id = v.ver * regCount + v.r;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const use of df.uses(v.r, v.ver)) {
      const s = fn.blocks[use.block]!.stmts[use.stmt]!;
      classifyUse(df, s, use.node, v, ev, outgoing, follow, followSlot);
    }
    for (const ver of df.phiUsers(v.r, v.ver)) work.push({ ...v, ver });
  }
  return ev;
}

/** What one statement's read of `node` tells; copies continue the trace, spills continue at their slot. */
function classifyUse(
  df: DataFlow,
  s: Stmt,
  node: Expr,
  path: Path,
  ev: Evidence,
  outgoing: OutgoingArguments,
  follow: (n: Node) => void,
  followSlot: (off: number, path: Path, store: Stmt) => void,
): void {
  const { narrow } = path;
  if (s.k === 'call') {
    const pos = s.args.indexOf(node);
    if (pos >= 0) {
      if (pos < s.args.length - 1) ev.passed.push({ stmt: s, pos, stack: false, offset: passedOffset(path) });
      return;
    }
  }
  // Returning a value says nothing of its type.
  if (s.k === 'ret') return;
  // `mov al, 1` keeps the old value's upper bytes without looking at them: not a use of the old value.
  if (s.k === 'set' && s.e.k === 'bin' && s.e.op === 'deposit' && s.e.a === node) return;
  const restored = s.k === 'store' && s.v === node && node.k === 'reg' ? restores(df, s, node, path) : null;
  if (restored) {
    restored.forEach(follow);
    return;
  }
  ev.used = true;
  // Copies say nothing of the width (compilers copy 32-bit values with 64-bit moves): their uses do.
  const copy = s.k === 'set' ? copyOf(s.e, node) : null;
  if (s.k === 'set' && copy) {
    // An extension says how wide the value was declared (`movsxd rbp, esi`: an int).
    if (copy.extended && !narrow) ev.readWidths.add(node.w);
    follow({ r: s.r, ver: s.ver, narrow: narrow || copy.extended, offset: path.offset + copy.delta });
    return;
  }
  if (!narrow) ev.readWidths.add(node.w);
  if (s.k === 'store' && copyOf(s.v, node) && !contains(s.addr, node)) {
    const arg = outgoing.get(s);
    if (arg) {
      ev.passed.push({ ...arg, stack: true, offset: passedOffset(path) });
      return;
    }
    const a = df.evaluate(s.addr);
    if (a.kind === 'sp') {
      ev.spillWidth ??= s.w;
      followSlot(a.off, path, s);
      return;
    }
  }
  if (s.k === 'set' && signedTest(df, s, node)) ev.arithmetic = true;
  const roots =
    s.k === 'store'
      ? [s.addr, s.v]
      : s.k === 'set'
        ? [s.e]
        : s.k === 'branch'
          ? [s.c]
          : s.k === 'call' || s.k === 'jump'
            ? [s.target]
            : [];
  // An index extended from 32 bits (`movsxd rax, eax; mov rdx, [rbx+rax]`) is no pointer, wherever it sits.
  if (s.k === 'store') field(s.addr, node, s.w, path, ev);
  // What a call or jump goes to is a code address: the value called through is a pointer.
  const address = (r: Expr) => (s.k === 'store' && r === s.addr) || s.k === 'call' || s.k === 'jump';
  for (const r of roots) scan(r, node, address(r), path, ev);
}

const passedOffset = (path: Path): number | null => (path.narrow ? null : path.offset);

const nonZeroConstant = (e: Expr): boolean => e.k === 'const' && e.v !== 0n;

/** Conditions that read a comparison as signed: pointers are compared unsigned, integers mostly signed. */
const SIGNED = new Set<Cond>(['slt', 'sle', 'sgt', 'sge', 'neg', 'pos']);

/** `s` compares or tests `node` (`cmp`, `test`) and some condition reads the result as signed (`jl`, `js`). */
function signedTest(df: DataFlow, s: Extract<Stmt, { k: 'set' }>, node: Expr): boolean {
  const e = s.e;
  if (e.k !== 'flags' || (e.op !== 'sub' && e.op !== 'and') || (e.a !== node && e.b !== node)) return false;
  const { fn } = df.ssa;
  return df
    .uses(s.r, s.ver)
    .some((u) => stmtOperands(fn.blocks[u.block]!.stmts[u.stmt]!).some((o) => readsSigned(o, u.node)));
}

function readsSigned(e: Expr, flags: Expr, depth = 0): boolean {
  if (e.k === 'cond' && e.flags === flags) return SIGNED.has(e.cc);
  return depth < 8 && operands(e).some((o) => readsSigned(o, flags, depth + 1));
}

const ARITHMETIC = new Set([
  'mul',
  'udiv',
  'sdiv',
  'urem',
  'srem',
  'shl',
  'shr',
  'sar',
  'and',
  'or',
  'xor',
  'rol',
  'ror',
]);

/** Marks address and floating-point uses of `node` inside `e`. */
function scan(e: Expr, node: Expr, inAddress: boolean, path: Path, ev: Evidence, depth = 0): void {
  if (depth > 32) return;
  if (e === node) {
    if (inAddress && !path.narrow) ev.address = true;
    return;
  }
  if (e.k === 'load') {
    field(e.addr, node, e.w, path, ev);
    return scan(e.addr, node, true, path, ev, depth + 1);
  }
  if (e.k === 'bin' && (e.op === 'fadd' || e.op === 'fsub' || e.op === 'fmul' || e.op === 'fdiv') && contains(e, node))
    ev.float = true;
  if (e.k === 'flags' && e.op === 'fcmp' && contains(e, node)) ev.float = true;
  if (e.k === 'bin' && ARITHMETIC.has(e.op) && (e.a === node || e.b === node)) ev.arithmetic = true;
  if (e.k === 'flags' && e.op === 'sub' && (e.a === node || e.b === node) && nonZeroConstant(e.a === node ? e.b : e.a))
    ev.arithmetic = true;
  if (e.k === 'un' && (e.op === 'ftoi' || e.op === 'fconv') && contains(e, node)) ev.float = true;
  // An address is base + index × scale + displacement: a sum keeps its operands in address position.
  const keep = inAddress && e.k === 'bin' && (e.op === 'add' || e.op === 'sub');
  for (const o of operands(e)) scan(o, node, keep, path, ev, depth + 1);
}

/**
 * `e` is `node` itself, extended or truncated, or plus/minus a constant: the same value for typing;
 * `extended` when a sign or zero extension from 32 bits or less is on the way, `delta` the constant added.
 */
function copyOf(e: Expr, node: Expr, depth = 0): { extended: boolean; delta: number } | null {
  if (e === node) return { extended: false, delta: 0 };
  if (depth > 8) return null;
  if (e.k === 'un' && (e.op === 'zext' || e.op === 'sext' || e.op === 'trunc')) {
    const inner = copyOf(e.a, node, depth + 1);
    return inner && { ...inner, extended: inner.extended || (e.op !== 'trunc' && e.a.w <= 4 && e.w > 4) };
  }
  if (e.k === 'bin' && e.op === 'deposit') return copyOf(e.b, node, depth + 1);
  if (e.k === 'bin' && (e.op === 'add' || e.op === 'sub') && e.b.k === 'const') {
    const inner = copyOf(e.a, node, depth + 1);
    const c = Number(e.b.v);
    return inner && { ...inner, delta: inner.delta + (e.op === 'add' ? c : -c) };
  }
  return null;
}

/** Fields are read at small non-negative offsets from a structure's start; beyond this it is an array or a guess. */
const MAX_FIELD_OFFSET = 1 << 16;

/** An access of `w` bytes at `addr` that is `node` (+ a constant) is a field of the seed's structure. */
function field(addr: Expr, node: Expr, w: number, path: Path, ev: Evidence): void {
  if (path.narrow) return;
  let at: number | null = null;
  if (addr === node) at = path.offset;
  else if (addr.k === 'bin' && addr.op === 'add' && addr.a === node && addr.b.k === 'const')
    at = path.offset + Number(addr.b.v);
  if (at === null || at < 0 || at >= MAX_FIELD_OFFSET) return;
  ev.fields.set(at, Math.max(ev.fields.get(at) ?? 0, w));
}

function contains(e: Expr, node: Expr, depth = 0): boolean {
  if (e === node) return true;
  return depth < 32 && operands(e).some((o) => contains(o, node, depth + 1));
}

/**
 * A register saved to the frame and restored into itself before a return (where nothing reads it) or a
 * tail call (which may pass it on): ARM's `push {r3, lr}` … `pop {r3, pc}`, which keeps the stack 8-byte
 * aligned, is a save, not a use. The restored values, to follow as copies; null when the slot is anything
 * else (a spill that is reloaded to be used, or never reloaded).
 */
function restores(
  df: DataFlow,
  s: Extract<Stmt, { k: 'store' }>,
  node: Extract<Expr, { k: 'reg' }>,
  path: Path,
): Node[] | null {
  const a = df.evaluate(s.addr);
  if (a.kind !== 'sp') return null;
  const loads = df.loadsAt(a.off);
  if (!loads.length) return null;
  const { fn } = df.ssa;
  const out: Node[] = [];
  for (const l of loads) {
    const t = fn.blocks[l.block]!.stmts[l.stmt]!;
    if (t.k !== 'set' || t.e !== l.value || t.r !== node.r || df.phiUsers(t.r, t.ver).length) return null;
    const tail = (u: { block: number; stmt: number }) => {
      const c = fn.blocks[u.block]!.stmts[u.stmt]!;
      return c.k === 'call' && c.tail;
    };
    if (!df.uses(t.r, t.ver).every(tail)) return null;
    out.push({ r: t.r, ver: t.ver, ...path });
  }
  return out;
}
