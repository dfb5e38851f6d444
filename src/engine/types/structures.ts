// Structure layouts merged across functions. A pointer parameter passed unchanged to another function's
// pointer parameter points to the same structure type: the two share one layout, the union of the fields
// each accesses. One passed at an offset (`g(&p->inner)`) points inside it: the callee's fields, shifted,
// belong to the caller's structure, not the other way round (the callee's type is the inner one).
import type { CallingConvention } from '../ir/lifter.js';
import type { FunctionFacts } from './function-facts.js';
import { argUseAt, paramIndexOf } from './param-slots.js';
import type { RecoveredSignature } from './recovered-signature.js';
import type { Passed } from './value-trace.js';

export interface StructureSource {
  facts: FunctionFacts;
  conv: CallingConvention;
}

type Fields = Map<number, number>;

/** Callers from which a parameter that accesses no structure itself counts as generic. */
const GENERIC_CALLERS = 3;
/** Levels of structures inside structures followed. */
const MAX_NESTING = 8;
/** Fields one merged layout keeps at most (a bound, not a structure size anyone writes). */
const MAX_FIELDS = 1024;

/**
 * Rewrites the `fields` of every pointer parameter in `sigs` to its merged layout, and names the layout's
 * `structure` by its first parameter. `calleeAt` names the
 * function (by index) a call statement of function `fi` reaches, or null.
 */
export function mergeStructures(
  sources: (StructureSource | null)[],
  sigs: (RecoveredSignature | null)[],
  calleeAt: (fi: number, stmt: Passed['stmt']) => number | null,
): void {
  const ids = new Map<string, number>();
  const fields: Fields[] = [];
  const owners: { fn: number; param: number }[] = [];
  sigs.forEach((sig, fi) =>
    sig?.params.forEach((p, i) => {
      if (p.cls !== 'pointer') return;
      ids.set(`${fi}:${i}`, fields.length);
      owners.push({ fn: fi, param: i });
      fields.push(new Map((p.fields ?? []).map((f) => [f.offset, f.size])));
    }),
  );
  const parent = fields.map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  const same: { from: number; to: number }[] = [];
  const inner: { outer: number; inner: number; offset: number }[] = [];
  sigs.forEach((sig, fi) => {
    const src = sources[fi];
    sig?.params.forEach((p, i) => {
      const from = ids.get(`${fi}:${i}`);
      const u = src && from !== undefined ? argUseAt(src.facts, src.conv, p.location) : undefined;
      for (const pass of u?.ev.passed ?? []) {
        const c = pass.offset === null ? null : calleeAt(fi, pass.stmt);
        const callee = c === null ? null : sigs[c];
        if (c === null || !callee || !sources[c]) continue;
        const to = ids.get(`${c}:${paramIndexOf(callee, sources[c]!.conv, pass)}`);
        if (to === undefined) continue;
        if (pass.offset === 0) same.push({ from: from!, to });
        else if (pass.offset! > 0) inner.push({ outer: from!, inner: to, offset: pass.offset! });
      }
    });
  });
  // A parameter that many callers pass pointers to and that reads no structure through it itself is
  // generic (`void *` to free, hash or copy): it says nothing of what its callers pass.
  // The root is the lowest node: a structure is named after the first function with it, whatever the order.
  const union = (a: number, b: number): void => {
    if (a === b || conflicts(fields[a]!, fields[b]!)) return;
    if (b < a) [a, b] = [b, a];
    parent[b] = a;
    addFields(fields[a]!, fields[b]!, 0);
  };
  const callers = new Map<number, number>();
  for (const e of same) callers.set(e.to, (callers.get(e.to) ?? 0) + 1);
  for (const e of same)
    if (isStructure(fields[e.to]!) || (callers.get(e.to) ?? 0) < GENERIC_CALLERS) union(find(e.from), find(e.to));
  // Each structure with the structures passed from inside it, expanded depth first; a cycle (A inside B
  // inside A) is a walk along a list or an array, not nesting, and is cut where it closes.
  const within = new Map<number, { inner: number; offset: number }[]>();
  for (const e of inner) {
    const outer = find(e.outer);
    within.set(outer, [...(within.get(outer) ?? []), { inner: find(e.inner), offset: e.offset }]);
  }
  const expanded = new Map<number, Fields>();
  const open = new Set<number>();
  const expand = (c: number, depth: number): Fields => {
    const done = expanded.get(c);
    if (done) return done;
    open.add(c);
    const out = new Map(fields[c]!);
    for (const e of within.get(c) ?? []) {
      if (open.has(e.inner) || depth >= MAX_NESTING) continue;
      const sub = expand(e.inner, depth + 1);
      if (isStructure(sub)) addFields(out, sub, e.offset);
    }
    open.delete(c);
    expanded.set(c, out);
    return out;
  };
  sigs.forEach((sig, fi) =>
    sig?.params.forEach((p, i) => {
      const id = ids.get(`${fi}:${i}`);
      if (id === undefined) return;
      const root = find(id);
      const merged = expand(root, 0);
      if (!merged.size) return;
      p.fields = [...merged].map(([offset, size]) => ({ offset, size })).sort((x, y) => x.offset - y.offset);
      p.structure = owners[root]!;
    }),
  );
}

/** More than the first bytes accessed: a structure, not a pointer to one value (`LZ4_read32(ip + 4)`). */
const isStructure = (f: Fields): boolean => f.size > 1 || (f.size === 1 && !f.has(0));

/**
 * Two layouts that cannot be one structure: a scalar field of one straddles a different scalar field of the
 * other (the same bytes read as different members).
 */
function conflicts(a: Fields, b: Fields): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const sorted = [...large].filter(([, s]) => s <= 8).sort((x, y) => x[0] - y[0]);
  for (const [o, s] of small) {
    if (s > 8 || large.has(o)) continue;
    for (const [lo, ls] of sorted) {
      if (lo >= o + s) break;
      if (lo + ls > o) return true;
    }
  }
  return false;
}

/** Adds `from`'s fields, shifted by `offset`, to `to` (the widest access per offset). */
function addFields(to: Fields, from: Fields, offset: number): void {
  for (const [o, size] of from) {
    const at = o + offset;
    if ((to.get(at) ?? 0) < size && (to.has(at) || to.size < MAX_FIELDS)) to.set(at, size);
  }
}
