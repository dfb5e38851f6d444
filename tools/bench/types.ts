// npm run bench:types — signature recovery on the stripped builds whose DWARF twins give type truth
// (../shared/corpus/types, matched by function address), per ISA, compiler and -O level: exact argument
// count, count within ±1, coarse class of each argument both sides have, void/non-void return, structure
// layout F1 over the (offset, size) members of the structures pointer arguments point to (nested structures
// flattened; recovered from the fields accessed through them, merged across functions), and the types stage's time beside the whole analysis of the largest file. GCC clones (.constprop/.isra/.part: their real
// convention differs from the declared one) and runtime functions are left out, as the corpus README says.
// BENCH_FILTER=<substring> limits the binaries; BENCH_VERBOSE=1 lists each miss.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, recoverBinaryFunctions } from '../../src/engine/index.js';
import { loadCapabilityRules } from '../../src/jobs/rule-files.js';
import { recoverFunctionSignatures, type CoarseClass } from '../../src/engine/types/index.js';
import { CORPUS, corpusManifest, fmt, readJson } from './lib.js';

interface TruthType {
  class: string;
  size: number | null;
  resolved: string;
}
interface TruthMember {
  offset: number;
  size: number;
  bit_size?: number;
  class: string;
  resolved: string;
}
interface TruthFunction {
  address: string;
  name: string;
  origin: string;
  clone?: string;
  params: TruthType[];
  return: TruthType;
  variadic: boolean;
}

const manifest = corpusManifest();
if (!manifest) {
  console.log(`${CORPUS} absent: nothing to measure`);
  process.exit(0);
}
const filter = process.env.BENCH_FILTER ?? '';
const verbose = process.env.BENCH_VERBOSE === '1';

/** The corpus's classes folded as signature recovery sees them: signedness and enum-ness are invisible. */
function coarse(t: TruthType): CoarseClass {
  switch (t.class) {
    case 'char':
    case 'bool':
    case 'int8':
    case 'uint8':
      return 'int8';
    case 'int16':
    case 'uint16':
      return 'int16';
    case 'int32':
    case 'uint32':
      return 'int32';
    case 'int64':
    case 'uint64':
      return 'int64';
    case 'enum':
      return t.size === 8 ? 'int64' : 'int32';
    case 'array':
    case 'function':
      return 'pointer';
    default:
      return t.class as CoarseClass;
  }
}

/**
 * The members (offset, size) of the structure a pointer argument points to, if any: nested structures
 * flattened to their members (code accesses the leaves), bit-fields left out (no byte layout of their own).
 */
function pointee(
  t: TruthType,
  types: Record<string, { members?: TruthMember[] }>,
): { offset: number; size: number }[] | null {
  const m = /^(?:const )?((?:struct|union) .+?) \*$/.exec(t.resolved);
  const members = m ? types[m[1]!]?.members : undefined;
  if (!members) return null;
  const out: { offset: number; size: number }[] = [];
  const flatten = (list: TruthMember[], base: number, depth: number) => {
    for (const x of list) {
      if (x.bit_size !== undefined) continue;
      const inner = x.class === 'struct' && depth < 4 ? types[x.resolved]?.members : undefined;
      if (inner) flatten(inner, base + x.offset, depth + 1);
      else out.push({ offset: base + x.offset, size: x.size });
    }
  };
  flatten(members, 0, 0);
  return out;
}

interface Score {
  functions: number;
  exact: number;
  nearly: number;
  args: number;
  classOk: number;
  returnOk: number;
  /** Structure members: found and true, found and false, missed. */
  tp: number;
  fp: number;
  fn: number;
}
const empty = (): Score => ({
  functions: 0,
  exact: 0,
  nearly: 0,
  args: 0,
  classOk: 0,
  returnOk: 0,
  tp: 0,
  fp: 0,
  fn: 0,
});
const groups = new Map<string, Score>();
let largest = { name: '', path: '', size: 0, recoveryMs: 0, typesMs: 0 };

for (const b of manifest) {
  const entry = b as typeof b & { types?: string; opt?: string; compiler?: string; arch?: string };
  if (!b.stripped || !entry.types || !b.path.includes(filter)) continue;
  const truth = readJson<{ functions: TruthFunction[]; types: Record<string, { members?: TruthMember[] }> }>(
    join(CORPUS, entry.types),
  );
  const bytes = readFileSync(join(CORPUS, b.path));
  const t0 = performance.now();
  const { image, graph, decoders } = await recoverBinaryFunctions(bytes, {});
  const t1 = performance.now();
  const signatures = recoverFunctionSignatures(image, graph, decoders);
  const t2 = performance.now();
  if (bytes.length > largest.size)
    largest = {
      name: b.path.split('/').pop()!,
      path: b.path,
      size: bytes.length,
      recoveryMs: t1 - t0,
      typesMs: t2 - t1,
    };
  const byAddress = new Map(graph.functions.map((f, i) => [f.start, signatures[i]]));
  const key = `${b.format === 'PE' ? 'pe' : 'elf'} ${entry.arch} ${entry.compiler?.split(' ')[0]} ${entry.opt}`;
  const score = groups.get(key) ?? empty();
  groups.set(key, score);
  for (const f of truth.functions) {
    if (f.clone || f.origin === 'runtime') continue;
    const sig = byAddress.get(Number(f.address));
    if (!sig) continue;
    score.functions++;
    const n = sig.params.length;
    const want = f.params.length;
    if (n === want) score.exact++;
    if (Math.abs(n - want) <= 1) score.nearly++;
    for (let i = 0; i < Math.min(n, want); i++) {
      score.args++;
      if (sig.params[i]!.cls === coarse(f.params[i]!)) score.classOk++;
      const members = pointee(f.params[i]!, truth.types);
      if (!members) continue;
      const ours = new Set((sig.params[i]!.fields ?? []).map((m) => `${m.offset}:${m.size}`));
      for (const m of members) {
        if (ours.delete(`${m.offset}:${m.size}`)) score.tp++;
        else score.fn++;
      }
      score.fp += ours.size;
    }
    const isVoid = f.return.class === 'void';
    if ((sig.returns.cls === 'void') === isVoid) score.returnOk++;
    if (verbose && (n !== want || (sig.returns.cls === 'void') !== isVoid))
      console.log(
        `${b.path.split('/').pop()} ${f.address} ${f.name}: (${f.params.map(coarse).join(', ')}) → ${coarse(f.return)}; got (${sig.params.map((p) => p.cls).join(', ')}) → ${sig.returns.cls}`,
      );
  }
}

const pct = (a: number, b: number) => (b ? fmt((100 * a) / b) : '—');
const f1 = (s: Score) => (s.tp ? fmt((200 * s.tp) / (2 * s.tp + s.fp + s.fn)) : '—');
console.log('group                              functions  exact%  ±1%  class%  return%  layoutF1%  (P/R)');
const total = empty();
for (const [key, s] of [...groups].sort()) {
  for (const k of Object.keys(total) as (keyof Score)[]) total[k] += s[k];
  console.log(
    `${key.padEnd(34)} ${String(s.functions).padStart(9)} ${pct(s.exact, s.functions).padStart(7)} ${pct(s.nearly, s.functions).padStart(5)} ${pct(s.classOk, s.args).padStart(7)} ${pct(s.returnOk, s.functions).padStart(8)} ${f1(s).padStart(10)}  (${pct(s.tp, s.tp + s.fp)}/${pct(s.tp, s.tp + s.fn)})`,
  );
}
console.log(
  `${'all'.padEnd(34)} ${String(total.functions).padStart(9)} ${pct(total.exact, total.functions).padStart(7)} ${pct(total.nearly, total.functions).padStart(5)} ${pct(total.classOk, total.args).padStart(7)} ${pct(total.returnOk, total.functions).padStart(8)} ${f1(total).padStart(10)}  (${pct(total.tp, total.tp + total.fp)}/${pct(total.tp, total.tp + total.fn)})`,
);
// The whole analysis the service runs (capability rules, SBOM) on the same file, warm, for scale.
const bytes = readFileSync(join(CORPUS, largest.path));
const { rules } = await loadCapabilityRules([]);
await analyze(bytes, { rules, sbom: true });
const t0 = performance.now();
await analyze(bytes, { rules, sbom: true });
console.log(
  `largest: ${largest.name} (${fmt(largest.size / 1e6, 2)} MB): types stage ${fmt(largest.typesMs, 0)} ms (recovery before it ${fmt(largest.recoveryMs, 0)} ms); whole analysis ${fmt(performance.now() - t0, 0)} ms`,
);
