// npm run bench:functions — function-start accuracy of recovery on every stripped corpus binary with
// ground truth, grouped by format, architecture, compiler and -O level: precision, recall, F1, and the
// share of matched functions whose end is exact. BENCH_FILTER=<substring> limits the binaries;
// BENCH_VERBOSE=1 lists each binary's missed and extra starts.
// Against the truth as published (odd ELF addresses kept; PE truth with import thunks, untyped call targets
// and .pdata-only statics, see the corpus README).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recoverBinaryFunctions } from '../../src/engine/index.js';
import { CORPUS, corpusManifest, readJson, type CorpusTruth } from './lib.js';

const manifest = corpusManifest();
if (!manifest) {
  console.log(`${CORPUS} absent: nothing to measure`);
  process.exit(0);
}
const filter = process.env.BENCH_FILTER ?? '';
const verbose = process.env.BENCH_VERBOSE === '1';

/** Counts over matched function starts; `sized` of them have a truth size to check the end against. */
interface Score {
  tp: number;
  fp: number;
  fn: number;
  endsExact: number;
  sized: number;
}

const rows: { group: string; scored: Score; ms: number }[] = [];
for (const b of manifest) {
  if (!b.stripped || !b.truth || !b.path.includes(filter)) continue;
  const truth = readJson<CorpusTruth>(join(CORPUS, b.truth));
  const want = new Map<number, { size: number; name: string; toNext: boolean }>();
  for (const f of truth.functions) {
    const a = Number(f.address);
    if (!want.has(a)) want.set(a, { size: f.size, name: f.name, toNext: f.size_method === 'next_symbol' });
  }
  const bytes = readFileSync(join(CORPUS, b.path));
  const t0 = performance.now();
  const { graph } = await recoverBinaryFunctions(bytes, {});
  const ms = performance.now() - t0;
  const got = new Map(graph.functions.map((f) => [f.start, f]));
  // PE truth sizes run to the next symbol (padding included): compare those with where our next function starts.
  const nextStart = new Map(graph.functions.map((f, i) => [f.start, graph.functions[i + 1]?.start ?? Infinity]));
  let tp = 0;
  let endsExact = 0;
  let sized = 0;
  const missed: string[] = [];
  for (const [a, t] of want) {
    const f = got.get(a);
    if (!f) {
      missed.push(`${t.name}@0x${a.toString(16)}`);
      continue;
    }
    tp++;
    if (t.size > 0) {
      sized++;
      if ((t.toNext ? nextStart.get(a) : f.end) === a + t.size) endsExact++;
    }
  }
  const scored = { tp, fp: got.size - tp, fn: want.size - tp, endsExact, sized };
  const extra = [...got].filter(([a]) => !want.has(a)).map(([a, f]) => `0x${a.toString(16)}(${f.source})`);
  const group = `${b.format} ${b.arch} ${b.compiler.split(' ')[0]} ${b.opt}`;
  rows.push({ group, scored, ms });
  if (verbose) {
    console.log(`${b.path}: missed ${missed.length}: ${missed.slice(0, 15).join(' ')}`);
    console.log(`  extra ${extra.length}: ${extra.slice(0, 15).join(' ')}`);
  }
}

const pct = (n: number, d: number) => (d === 0 ? '   n/a' : (n / d).toFixed(4));
const f1 = (g: Score) => {
  const p = g.tp / (g.tp + g.fp);
  const r = g.tp / (g.tp + g.fn);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
};
const sum = (list: Score[]): Score =>
  list.reduce(
    (g, x) => ({
      tp: g.tp + x.tp,
      fp: g.fp + x.fp,
      fn: g.fn + x.fn,
      endsExact: g.endsExact + x.endsExact,
      sized: g.sized + x.sized,
    }),
    { tp: 0, fp: 0, fn: 0, endsExact: 0, sized: 0 },
  );
const line = (name: string, list: typeof rows) => {
  const g = sum(list.map((r) => r.scored));
  const ms = list.reduce((t, r) => t + r.ms, 0);
  console.log(
    `${name.padEnd(30)} ${String(list.length).padStart(4)}  ${pct(g.tp, g.tp + g.fp)}  ${pct(g.tp, g.tp + g.fn)}  ${f1(g).toFixed(4)}  ${pct(g.endsExact, g.sized)}  ${ms.toFixed(0).padStart(6)}`,
  );
};
const groups = new Map<string, typeof rows>();
for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
console.log('\ngroup                          bins  prec    recall  F1      ends    ms');
for (const [name, list] of [...groups].sort()) line(name, list);
line('all', rows);
