// Frame slots as named local variables (`local_1c`, or the name and type the function's data types give the
// slot): when no address into the frame escapes — none is
// passed, stored, compared, merged with another value or computed in a way data flow cannot follow — every
// access to the frame is a load or store at a known offset from the entry stack pointer, so a slot that
// no access of another width overlaps can be a variable of its own. The rest stay in the frame array.
import type { DataFlow } from '../ir/dataflow.js';
import { operands, type Expr, type Stmt } from '../ir/ir.js';
import type { FunctionTyping, ValueC } from './typing.js';

export interface FrameLocals {
  /** The local a `w`-byte access at `addr` reads or writes, if it is one. */
  at(addr: Expr, w: number): string | null;
  /** The local of the `w` bytes at `off` from the entry stack pointer, if there is one. */
  slot(off: number, w: number): string | null;
  /** Names and widths of the locals. */
  readonly declared: ReadonlyMap<string, number>;
  /** The declared types of those that have one (the rest are their width's unsigned type). */
  readonly typed: Map<string, ValueC>;
}

/** Widths a local can have (a vector register's 16 included). */
const WIDTHS = new Set([1, 2, 4, 8, 16]);

/**
 * The function's locals; `written` says which statements the output writes (dead ones read nothing),
 * `named` the slots the function's data types name (a name of another width than the slot's is not used).
 */
export function frameLocals(df: DataFlow, written: (s: Stmt) => boolean, named: FunctionTyping['locals']): FrameLocals {
  const declared = new Map<string, number>();
  const typed = new Map<string, ValueC>();
  const byKey = new Map<string, string>();
  const locals: FrameLocals = {
    at(addr, w) {
      const v = df.evaluate(addr);
      return v.kind === 'sp' ? locals.slot(v.off, w) : null;
    },
    slot: (off, w) => byKey.get(`${off}:${w}`) ?? null,
    declared,
    typed,
  };
  if (escapes(df, written)) return locals;
  // Distinct accesses; those below the entry stack pointer (above it: the return address and stack
  // arguments) that nothing of another width overlaps become locals.
  const keys = new Map<string, { off: number; w: number }>();
  for (const a of df.slots) keys.set(`${a.off}:${a.w}`, a);
  const list = [...keys.values()].sort((x, y) => x.off - y.off);
  list.forEach((a, i) => {
    if (a.off + a.w > 0 || !WIDTHS.has(a.w)) return;
    const overlaps = (b: { off: number; w: number }) => b !== a && b.off < a.off + a.w && a.off < b.off + b.w;
    // Sorted by offset: only neighbours can overlap (no access is wider than 64 bytes).
    for (let j = i - 1; j >= 0 && list[j]!.off > a.off - 64; j--) if (overlaps(list[j]!)) return;
    for (let j = i + 1; j < list.length && list[j]!.off < a.off + a.w; j++) if (overlaps(list[j]!)) return;
    const given = named.get(a.off);
    const name = given?.size === a.w ? given.name : `local_${(-a.off).toString(16)}`;
    if (given?.size === a.w && given.type) typed.set(name, given.type);
    byKey.set(`${a.off}:${a.w}`, name);
    declared.set(name, a.w);
  });
  return locals;
}

/** Whether an address into the frame is used other than to load or store at it (or copied into a register). */
function escapes(df: DataFlow, written: (s: Stmt) => boolean): boolean {
  const isSp = (e: Expr) => df.evaluate(e).kind === 'sp';
  let escaped = false;
  const walk = (e: Expr, asAddress: boolean, depth = 0): void => {
    if (escaped) return;
    if (isSp(e)) {
      if (!asAddress) escaped = true;
      return;
    }
    if (depth > 64) {
      escaped = true;
      return;
    }
    if (e.k === 'load') walk(e.addr, true, depth + 1);
    else for (const o of operands(e)) walk(o, false, depth + 1);
  };
  for (const b of df.ssa.fn.blocks)
    for (const s of b.stmts) {
      if (!written(s)) continue;
      switch (s.k) {
        case 'set':
          // A register may hold a frame address (the frame pointer, lea); its own uses are checked.
          walk(s.e, true);
          break;
        case 'store':
          walk(s.addr, true);
          walk(s.v, false);
          break;
        case 'phi':
          if (df.valueOf(s.r, s.ver).kind !== 'sp' && s.args.some((v) => df.valueOf(s.r, v).kind === 'sp'))
            escaped = true;
          break;
        case 'call':
          walk(s.target, false);
          // The last argument is the stack pointer, for stack arguments the output reads as frame accesses.
          s.args.slice(0, -1).forEach((a) => walk(a, false));
          break;
        case 'branch':
          walk(s.c, false);
          break;
        case 'jump':
          walk(s.target, false);
          break;
        case 'ret':
        case 'effect':
          s.reads.forEach((a) => walk(a, false));
          break;
      }
      if (escaped) return true;
    }
  return false;
}
