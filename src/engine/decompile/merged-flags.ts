// Flags that phis merge from operations of different shapes (a `test` on one path, a `cmp` on another): no
// one pair of saved operands describes them, so each condition read after the merge is computed where
// each merged definition sets the flags, into a variable of its own (`fk_<version>_<condition>`), which
// the branch reads. (Definitions of one shape share their operands instead: expressions.ts flagClasses.)
import type { DataFlow } from '../ir/dataflow.js';
import { operands, stmtOperands, type Cond, type Expr } from '../ir/ir.js';
import { definitionOf } from '../ir/ssa.js';

export interface MergedFlags {
  /** The conditions read of each merged version (a phi of the flags whose definitions differ in shape). */
  read: Map<number, Set<Cond>>;
  /** For each flags definition, the merged versions and conditions to compute where it sets the flags. */
  feeds: Map<number, { ver: number; cc: Cond }[]>;
}

/** Merges followed back through phis at most (a bound on hostile flow). */
const MAX_FEEDS = 256;

/** `shared(ver)`: whether the version is one whose definitions share saved operands (left to them). */
export function mergedFlags(df: DataFlow, shared: (ver: number) => boolean): MergedFlags {
  const { fn } = df.ssa;
  const flags = fn.regs.flags;
  const read = new Map<number, Set<Cond>>();
  const visit = (e: Expr): void => {
    if (e.k === 'cond' && e.flags.k === 'reg' && e.flags.r === flags && e.flags.ver > 0 && !shared(e.flags.ver)) {
      const def = definitionOf(df.ssa, flags, e.flags.ver);
      if (def?.k === 'phi') {
        let set = read.get(e.flags.ver);
        if (!set) read.set(e.flags.ver, (set = new Set()));
        set.add(e.cc);
      }
    }
    operands(e).forEach(visit);
  };
  for (const b of fn.blocks) for (const s of b.stmts) stmtOperands(s).forEach(visit);
  const feeds = new Map<number, { ver: number; cc: Cond }[]>();
  for (const [ver, conds] of read) {
    // The definitions the phi merges, through phis it merges.
    const seen = new Set<number>();
    const work = [ver];
    while (work.length && seen.size < MAX_FEEDS) {
      const v = work.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      const def = definitionOf(df.ssa, flags, v);
      if (def?.k === 'phi') work.push(...def.args.filter((a) => a > 0));
      else if (def?.k === 'set') {
        const list = feeds.get(v) ?? [];
        for (const cc of conds) list.push({ ver, cc });
        feeds.set(v, list);
      }
    }
  }
  return { read, feeds };
}
