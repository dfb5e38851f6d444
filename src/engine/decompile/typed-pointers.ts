// Which register values hold typed pointers (to a laid-out structure, or to elements of a scalar type): a
// parameter declared so on entry, a typed local, member or element loaded, and copies and phis of those.
// An optimistic fixpoint (every version starts unknown, falls to a target, then to none), so a pointer a
// loop walks (`p = p->next`, `s++`) keeps its target through the loop's phi. Targets are named by key.
import type { DataFlow } from '../ir/dataflow.js';
import type { Expr } from '../ir/ir.js';

/** How the function's data types see memory and entry values. */
export interface PointerTypes {
  /** The target of an argument register's entry value. */
  entry(r: number): string | null;
  /**
   * The target of the pointer a `w`-byte load at `addr` yields, given what values point to (`keyOf`);
   * UNKNOWN when that depends on a value `keyOf` does not know yet.
   */
  loaded(addr: Expr, w: number, keyOf: (e: Expr) => string | null): string | null;
  /** The target of a pointer moved by whole elements (`p + 4`, `p + i * 4`), likewise. */
  moved(e: Extract<Expr, { k: 'bin' }>, keyOf: (e: Expr) => string | null): string | null;
}

/** Passes over the function at most; a version still unknown after them points to nothing known. */
const MAX_PASSES = 16;
/** Nesting of an expression followed. */
const MAX_DEPTH = 16;
/** Not known yet (no target's key). */
export const UNKNOWN = '?';

/** The target each register version (`r:ver`) holding a typed pointer points to. */
export function typedPointers(df: DataFlow, types: PointerTypes): Map<string, string> {
  const { fn } = df.ssa;
  const state = new Map<string, string | null>();
  const get = (r: number, ver: number): string | null => {
    if (ver === 0) return types.entry(r);
    const k = `${r}:${ver}`;
    return state.has(k) ? state.get(k)! : UNKNOWN;
  };
  const tagOf = (e: Expr, depth = 0): string | null => {
    if (depth > MAX_DEPTH) return null;
    if (e.k === 'reg') return get(e.r, e.ver);
    if (e.k === 'bin') return types.moved(e, (x) => tagOf(x, depth + 1));
    if (e.k !== 'load') return null;
    return types.loaded(e.addr, e.w, (x) => tagOf(x, depth + 1));
  };
  for (let pass = 0, changed = true; changed && pass < MAX_PASSES; pass++) {
    changed = false;
    for (const b of fn.blocks)
      for (const s of b.stmts) {
        if ((s.k !== 'set' && s.k !== 'phi') || s.r === fn.regs.flags) continue;
        const key = `${s.r}:${s.ver}`;
        let tag: string | null;
        if (s.k === 'set') tag = tagOf(s.e);
        else {
          const tags = new Set(s.args.map((v) => get(s.r, v)).filter((t) => t !== UNKNOWN));
          tag = tags.size === 0 ? UNKNOWN : tags.size === 1 ? [...tags][0]! : null;
        }
        // Only down: unknown, then a target, then none.
        const was = state.has(key) ? state.get(key) : UNKNOWN;
        if (was !== tag && was !== null && tag !== UNKNOWN) {
          state.set(key, tag);
          changed = true;
        }
      }
  }
  const out = new Map<string, string>();
  for (const [key, tag] of state) if (tag !== null && tag !== UNKNOWN) out.set(key, tag);
  return out;
}
