// Unoptimised code spills each register parameter to a frame slot on entry and reads it from there. A
// slot the spill alone writes, before every read of it, holds the parameter's entry value wherever it is
// read: the output reads the parameter itself there (named and typed as the function's data types say)
// and writes no slot. A slot the spill writes first but the code writes again is the source's parameter
// variable: it takes the parameter's type.
import type { DataFlow } from '../ir/dataflow.js';
import { dominates } from '../ir/ssa.js';
import type { Expr } from '../ir/ir.js';

/** Register parameters: the register each arrives in and its width, by position (null: on the stack). */
export type RegisterParams = ({ r: number; width: number } | null)[];

export interface ParamSlots {
  /** The parameter (by position) each home slot holds, by its offset from the entry stack pointer. */
  homes: Map<number, number>;
  /** Slots the parameter's spill initialises and the code writes again, likewise. */
  seeded: Map<number, number>;
}

export function paramHomes(df: DataFlow, params: RegisterParams): ParamSlots {
  const homes = new Map<number, number>();
  const seeded = new Map<number, number>();
  const byReg = new Map(params.flatMap((p, i) => (p ? [[p.r, i] as const] : [])));
  const overlapping = (off: number, w: number) => df.slots.filter((a) => a.off < off + w && off < a.off + a.w);
  for (const spill of df.slots) {
    if (!spill.store || homes.has(spill.off)) continue;
    const i = byReg.get(entryRegister(spill.value) ?? -1);
    if (i === undefined || spill.w !== params[i]!.width) continue;
    const others = overlapping(spill.off, spill.w).filter((a) => a !== spill);
    const site = { block: spill.block, stmt: spill.stmt };
    const first = others.every(
      (a) => a.off === spill.off && a.w === spill.w && dominates(df.ssa, site, { block: a.block, stmt: a.stmt }),
    );
    if (!first || [...homes.values(), ...seeded.values()].includes(i)) continue;
    (others.some((a) => a.store) ? seeded : homes).set(spill.off, i);
  }
  return { homes, seeded };
}

/** The register whose entry value `e` is (read whole or in its low part), or null. */
function entryRegister(e: Expr): number | null {
  const x = e.k === 'un' && e.op === 'trunc' ? e.a : e;
  return x.k === 'reg' && x.ver === 0 ? x.r : null;
}
