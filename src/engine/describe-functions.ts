// Turns a FunctionGraph into the result document's records: names (demangled, or sub_<hex>), blocks
// with named edge kinds, calls resolved to functions and imports, strings with their referencing code.
import type {
  CallRecord,
  EdgeKindName,
  FunctionRecord,
  NameOrigin,
  ReferenceRecord,
  StringRecord,
} from '../shared/analysis-records.js';
import { CallKind, EdgeKind, type FunctionGraph } from './cfg/index.js';
import { importsByAddress, type BinaryImage } from './formats/image.js';
import type { Demangler } from './names/index.js';
import { extractStrings, stringReferences, type FoundString } from './strings/index.js';

const EDGE_NAMES: Record<EdgeKind, EdgeKindName> = {
  [EdgeKind.Fallthrough]: 'fallthrough',
  [EdgeKind.Jump]: 'jump',
  [EdgeKind.BranchTaken]: 'branch_taken',
  [EdgeKind.BranchNotTaken]: 'branch_not_taken',
  [EdgeKind.Switch]: 'switch',
};

export const generatedName = (vaddr: number) => `sub_${vaddr.toString(16)}`;

/** `debugNamed`: starts whose name came from a separate debug file rather than the binary's own symbols. */
export function describeFunctions(
  graph: FunctionGraph,
  demangle: Demangler,
  debugNamed: ReadonlySet<number> = new Set(),
): FunctionRecord[] {
  const { blocks, edges } = graph;
  // Edges are stored in block order: walk them with one cursor.
  let e = 0;
  return graph.functions.map((f) => {
    const records = [];
    for (let b = f.firstBlock; b < f.firstBlock + f.blockCount; b++) {
      const out: { to: number; kind: EdgeKindName }[] = [];
      while (e < edges.from.length && edges.from[e]! < b) e++;
      for (; e < edges.from.length && edges.from[e] === b; e++)
        out.push({ to: edges.to[e]!, kind: EDGE_NAMES[edges.kind[e] as EdgeKind] });
      records.push({ start: blocks.start[b]!, end: blocks.end[b]!, instructions: blocks.insns[b]!, edges: out });
    }
    const raw = f.name;
    return {
      vaddr: f.start,
      size: Math.max(0, f.end - f.start),
      name: raw ? demangle(raw) : generatedName(f.start),
      mangledName: raw ?? generatedName(f.start),
      nameOrigin: nameOrigin(f, debugNamed),
      found: f.source,
      thumb: f.thumb,
      noReturn: f.noReturn,
      blocks: records,
    };
  });
}

function nameOrigin(f: FunctionGraph['functions'][number], debugNamed: ReadonlySet<number>): NameOrigin {
  if (f.name === null) return 'generated';
  if (f.source === 'client' || f.source === 'export') return f.source;
  return debugNamed.has(f.start) ? 'debug' : 'symbol';
}

export function describeCalls(graph: FunctionGraph, image: BinaryImage, names: FunctionRecord[]): CallRecord[] {
  const byStart = new Map(graph.functions.map((f, i) => [f.start, i]));
  const importAt = importsByAddress(image);
  const { site, caller, target, kind } = graph.calls;
  const out: CallRecord[] = [];
  for (let i = 0; i < site.length; i++) {
    const t = target[i]!;
    const callee = byStart.get(t) ?? null;
    const imported = importAt.get(t);
    const k = kind[i] as CallKind;
    out.push({
      caller: caller[i]!,
      site: site[i]!,
      target: t,
      kind:
        imported !== undefined
          ? 'import'
          : k === CallKind.Tail
            ? 'tail'
            : k === CallKind.Indirect
              ? 'indirect'
              : 'direct',
      callee,
      calleeName: imported ?? (callee !== null ? names[callee]!.name : null),
    });
  }
  return out;
}

export function describeStrings(
  graph: FunctionGraph,
  image: BinaryImage,
  found: FoundString[] = extractStrings(image),
): StringRecord[] {
  const records: StringRecord[] = found.map((s) => ({
    vaddr: s.vaddr,
    value: s.value,
    encoding: s.encoding,
    section: s.section,
    refs: [],
  }));
  for (const r of stringReferences(found, graph)) records[r.string]!.refs.push({ site: r.site, func: r.func });
  return records;
}

export function describeRefs(graph: FunctionGraph): ReferenceRecord[] {
  const { site, func, target } = graph.refs;
  const out: ReferenceRecord[] = [];
  for (let i = 0; i < site.length; i++) out.push({ site: site[i]!, func: func[i]!, target: target[i]! });
  return out;
}
