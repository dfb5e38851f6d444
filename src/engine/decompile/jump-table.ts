// A computed jump that reads its target from a table, as the switch it was compiled from: the index the
// table is read at and, for each index value, the successor it reaches — found by following the target's
// definitions back to one table load and evaluating the target for index 0, 1, 2, … against the image's
// bytes until a value lands outside the jump's successors. The index may read a frame local the code
// loaded it from (-O0 reloads it) when nothing stores to the local between that load and the jump.
import type { DataFlow } from '../ir/dataflow.js';
import type { Expr } from '../ir/ir.js';
import { definitionOf, type DefSite } from '../ir/ssa.js';
import { fileOffsetOf, type BinaryImage } from '../formats/image.js';

/** Whether what `load` (at `from`) read is what it would read at `to`: a local nothing stores to between. */
export type StableLoad = (load: Extract<Expr, { k: 'load' }>, from: DefSite, to: DefSite) => boolean;

export interface JumpTable {
  /** The index, an expression over registers as they are at the jump. */
  index: Expr;
  /** Successor block → the index values that reach it, ascending. */
  cases: Map<number, number[]>;
}

/** Table entries read at most (a switch's cases; also bounds evaluation on hostile tables). */
const MAX_CASES = 1024;
/** Definitions followed back from the target at most. */
const MAX_DEPTH = 12;

/**
 * The table behind the jump at statement `stmt` of block `block` whose target is `target`, or null when
 * the target is not one table load over an index whose registers still hold the values it read (`usable`
 * says the output writes a register version into its variable), or when the table does not reach every
 * successor (with a bounds check before the jump: when an entry it allows reaches none).
 */
export function jumpTable(
  df: DataFlow,
  image: BinaryImage,
  at: { block: number; stmt: number },
  target: Expr,
  successors: ReadonlyMap<number, number>,
  usable: (r: number, ver: number) => boolean,
  stable: StableLoad,
): JumpTable | null {
  const current = (r: number, ver: number) =>
    usable(r, ver) && reachingVersion(df, r, at.block, at.stmt, usable) === ver;
  const leaves = new Set<Expr>();
  const leaf = (r: number, ver: number, load: Extract<Expr, { k: 'load' }>) => {
    if (!stable(load, df.ssa.defs[r]![ver]!, at)) return false;
    leaves.add(load);
    return true;
  };
  const resolved = resolve(df, target, 0, current, leaf);
  const table = firstLoad(resolved, leaves);
  if (!table) return null;
  const index = peel(table.addr);
  if (constant(index) || hasLoad(index, leaves)) return null;
  let readable = true;
  walkRegs(index, leaves, (r, ver) => (readable &&= r >= 0 && current(r, ver)));
  if (!readable) return null;
  const word = df.ssa.fn.regs.addressSize;
  // The bounds check before the jump says how many entries there are; without one, entries are read
  // until one lands outside the successors (the next table's entries could still land inside).
  const limit = boundsCheck(df, at.block, index, leaves);
  const cases = new Map<number, number[]>();
  for (let i = 0; i < Math.min(limit ?? MAX_CASES, MAX_CASES); i++) {
    const v = evaluate(resolved, index, BigInt(i), image);
    const to = v === null ? undefined : successors.get(Number(BigInt.asUintN(word * 8, v)));
    if (to === undefined) {
      if (limit !== null) return null;
      break;
    }
    const list = cases.get(to) ?? [];
    cases.set(to, [...list, i]);
  }
  // With a bounds check, a successor no index reaches is an entry function recovery read past the table's end.
  return (limit !== null || cases.size === successors.size) && cases.size > 1 ? { index, cases } : null;
}

/**
 * The number of table entries a dominating unsigned compare of the index's register with a constant
 * allows (`cmp idx, K; ja default`: K + 1), looked for in the few blocks above the jump; null without one.
 */
function boundsCheck(df: DataFlow, block: number, index: Expr, loads: Set<Expr>): number | null {
  const { fn, idom } = df.ssa;
  const leaves: string[] = [];
  walkRegs(index, loads, (r, ver) => leaves.push(`${r}:${ver}`));
  // A local the index reads counts as the register the compare read it into (-O0: `mov eax, [x]; cmp eax, K`).
  const slotOf = (e: Expr) => {
    const v = e.k === 'load' ? df.evaluate(e.addr) : null;
    return v?.kind === 'sp' ? `slot:${v.off}:${e.w}` : null;
  };
  for (const l of loads) leaves.push(slotOf(l)!);
  for (let b = idom[block]!, up = 0; b >= 0 && up < 3; b = idom[b]!, up++) {
    const last = fn.blocks[b]!.stmts[fn.blocks[b]!.stmts.length - 1];
    if (last?.k !== 'branch' || last.c.k !== 'cond' || last.c.flags.k !== 'reg') continue;
    const { cc, flags } = last.c;
    const def = definitionOf(df.ssa, flags.r, flags.ver);
    if (def?.k !== 'set' || def.e.k !== 'flags' || def.e.op !== 'sub' || def.e.b.k !== 'const') continue;
    // Each register the compare reads, as itself or as the local it was loaded from.
    const compared: string[][] = [];
    walkRegs(def.e.a, loads, (r, ver) => {
      const d = definitionOf(df.ssa, r, ver);
      const slot = d?.k === 'set' ? slotOf(d.e) : null;
      compared.push(slot ? [`${r}:${ver}`, slot] : [`${r}:${ver}`]);
    });
    if (compared.length !== 1 || !compared[0]!.some((k) => leaves.includes(k))) continue;
    const k = Number(BigInt.asUintN(def.e.b.w * 8, def.e.b.v));
    if (cc === 'ule' || cc === 'ugt') return k + 1;
    if (cc === 'ult' || cc === 'uge') return k;
  }
  return null;
}

/**
 * `e` with registers replaced by what the statements assigning them assign (up to MAX_DEPTH deep) — except
 * below the top, a register whose variable still holds the value (`keep`), unless it is a constant or a
 * load (the table read itself), stays.
 */
function resolve(
  df: DataFlow,
  e: Expr,
  depth: number,
  keep: (r: number, ver: number) => boolean,
  leaf: (r: number, ver: number, load: Extract<Expr, { k: 'load' }>) => boolean,
): Expr {
  const again = (x: Expr) => resolve(df, x, depth + 1, keep, leaf);
  if (e.k === 'reg') {
    const def = e.ver > 0 ? definitionOf(df.ssa, e.r, e.ver) : undefined;
    if (def?.k !== 'set' || depth >= MAX_DEPTH || def.e.w < e.w) return e;
    // A local loaded into the register (and extended): the index reads the local (a leaf), when it still
    // holds that.
    const x = def.e;
    const loaded =
      x.k === 'load' ? x : x.k === 'un' && (x.op === 'zext' || x.op === 'sext') && x.a.k === 'load' ? x.a : null;
    if (depth > 0 && loaded && x.w === e.w && leaf(e.r, e.ver, loaded)) return x;
    let inner = again(def.e);
    if (inner.w !== e.w) inner = { k: 'un', op: 'trunc', a: inner, w: e.w };
    return depth > 0 && !constant(inner) && !hasLoad(inner) && keep(e.r, e.ver) ? e : inner;
  }
  switch (e.k) {
    case 'load':
      return { ...e, addr: again(e.addr) };
    case 'bin':
      return { ...e, a: again(e.a), b: again(e.b) };
    case 'un':
      return { ...e, a: again(e.a) };
    default:
      return e;
  }
}

/** The first load of `e` that is not a leaf (the table read). */
function firstLoad(e: Expr, leaves: Set<Expr>): Extract<Expr, { k: 'load' }> | null {
  if (e.k === 'load') return leaves.has(e) ? null : e;
  if (e.k === 'bin') return firstLoad(e.a, leaves) ?? firstLoad(e.b, leaves);
  if (e.k === 'un') return firstLoad(e.a, leaves);
  return null;
}

/** The varying part of a table address: without the constant base it is added to and the entry size. */
function peel(e: Expr): Expr {
  if (e.k === 'bin' && e.op === 'add') {
    if (constant(e.a)) return peel(e.b);
    if (constant(e.b)) return peel(e.a);
  }
  if (e.k === 'bin' && (e.op === 'mul' || e.op === 'shl') && constant(e.b)) return peel(e.a);
  return e;
}

function constant(e: Expr): boolean {
  if (e.k === 'const') return true;
  if (e.k === 'bin') return constant(e.a) && constant(e.b);
  if (e.k === 'un') return constant(e.a);
  return false;
}

function hasLoad(e: Expr, leaves: Set<Expr> = new Set()): boolean {
  if (e.k === 'load') return !leaves.has(e);
  return (e.k === 'bin' && (hasLoad(e.a, leaves) || hasLoad(e.b, leaves))) || (e.k === 'un' && hasLoad(e.a, leaves));
}

/** The registers `e` reads (-1 for anything but a register, a constant or a leaf load). */
function walkRegs(e: Expr, leaves: Set<Expr>, visit: (r: number, ver: number) => void): void {
  if (e.k === 'reg') visit(e.r, e.ver);
  else if (e.k === 'bin') {
    walkRegs(e.a, leaves, visit);
    walkRegs(e.b, leaves, visit);
  } else if (e.k === 'un') walkRegs(e.a, leaves, visit);
  else if (e.k !== 'const' && !leaves.has(e)) visit(-1, -1);
}

/**
 * The version of register `r` its variable holds just before statement `stmt` of `block`: the nearest
 * definition up the dominator tree that the output writes (`written`; one written in place of its use is not).
 */
function reachingVersion(
  df: DataFlow,
  r: number,
  block: number,
  stmt: number,
  written: (r: number, ver: number) => boolean,
): number {
  const { fn, idom } = df.ssa;
  for (let b = block, end = stmt; b >= 0; b = idom[b]!, end = Number.MAX_SAFE_INTEGER) {
    const stmts = fn.blocks[b]!.stmts;
    for (let k = Math.min(end, stmts.length) - 1; k >= 0; k--) {
      const s = stmts[k]!;
      if (s.k === 'phi' && s.r === r) return s.ver;
      if (s.k === 'set' && s.r === r && written(r, s.ver)) return s.ver;
      if ((s.k === 'call' || s.k === 'effect') && s.writes.includes(r)) return s.vers[s.writes.indexOf(r)]!;
    }
  }
  return 0;
}

/** `e`'s value with `index` = `i`, reading loads from the image's bytes; null for anything else. */
function evaluate(e: Expr, index: Expr, i: bigint, image: BinaryImage): bigint | null {
  const bits = BigInt(e.w * 8);
  const u = (v: bigint) => BigInt.asUintN(Number(bits), v);
  if (e === index) return u(i);
  switch (e.k) {
    case 'const':
      return u(e.v);
    case 'un': {
      const a = evaluate(e.a, index, i, image);
      if (a === null) return null;
      if (e.op === 'sext') return u(BigInt.asIntN(e.a.w * 8, a));
      return e.op === 'zext' || e.op === 'trunc' ? u(a) : null;
    }
    case 'bin': {
      const a = evaluate(e.a, index, i, image);
      const b = evaluate(e.b, index, i, image);
      if (a === null || b === null) return null;
      switch (e.op) {
        case 'add':
          return u(a + b);
        case 'sub':
          return u(a - b);
        case 'mul':
          return u(a * b);
        case 'shl':
          return b < bits ? u(a << b) : null;
        case 'shr':
          return b < bits ? a >> b : null;
        case 'and':
          return a & b;
        case 'or':
          return a | b;
        default:
          return null;
      }
    }
    case 'load': {
      const addr = evaluate(e.addr, index, i, image);
      const off = addr === null ? -1 : fileOffsetOf(image, Number(addr));
      if (off < 0 || off + e.w > image.bytes.length || e.w > 8) return null;
      let v = 0n;
      const little = image.identity.endianness !== 'big';
      for (let k = 0; k < e.w; k++) v |= BigInt(image.bytes[off + (little ? k : e.w - 1 - k)]!) << BigInt(8 * k);
      return v;
    }
    default:
      return null;
  }
}
