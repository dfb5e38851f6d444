// Which register values point to a structure the function's data types lay out: a parameter declared
// `struct S *` on entry, a typed local or member declared so when loaded, and copies and phis of those. An
// optimistic fixpoint (every version starts unknown, falls to a structure, then to none), so a pointer a
// loop walks (`p = p->next`) keeps its structure through the loop's phi.
import type { DataFlow } from '../ir/dataflow.js';
import type { Expr } from '../ir/ir.js';

/** How the function's data types see memory and entry values. */
export interface PointerTypes {
  /** The structure an argument register's entry value points to. */
  entry(r: number): string | null;
  /**
   * The structure a `w`-byte load at `addr` yields a pointer to, given what values point to (`tagOf`);
   * UNKNOWN when that depends on a value `tagOf` does not know yet.
   */
  loaded(addr: Expr, w: number, tagOf: (e: Expr) => string | null): string | null;
}

/** Passes over the function at most; a version still unknown after them points to nothing known. */
const MAX_PASSES = 16;
/** Nesting of an expression followed. */
const MAX_DEPTH = 16;
/** Not known yet (a tag is a C identifier, so this is none). */
export const UNKNOWN = '?';

/** The structure each register version (`r:ver`) points to, for those that point to one. */
export function structPointers(df: DataFlow, types: PointerTypes): Map<string, string> {
  const { fn } = df.ssa;
  const state = new Map<string, string | null>();
  const get = (r: number, ver: number): string | null => {
    if (ver === 0) return types.entry(r);
    return state.get(`${r}:${ver}`) ?? UNKNOWN;
  };
  const tagOf = (e: Expr, depth = 0): string | null => {
    if (depth > MAX_DEPTH) return null;
    if (e.k === 'reg') return get(e.r, e.ver);
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
        if (state.get(key) !== tag && (state.get(key) ?? UNKNOWN) !== null) {
          state.set(key, tag);
          changed = true;
        }
      }
  }
  const out = new Map<string, string>();
  for (const [key, tag] of state) if (tag !== null && tag !== UNKNOWN) out.set(key, tag);
  return out;
}
