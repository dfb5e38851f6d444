// npm run bench:similarity — the binary-function-similarity protocol of Marcelli et al. (USENIX Security
// 2022) on ../shared/corpus: each query function (≥ 5 basic blocks) has one true match (the same symbol
// name in another build) among 100 (second table: 10 000) random negatives; Recall@1 and MRR@10 for
// XO (same arch and compiler, other -O), XC (same arch, other compiler), XA (other arch, same compiler
// and -O) and XM (any other build). Ground truth: the unstripped builds' symbol names, which the features
// never see (only imports keep their names, as in a stripped binary).
//
// Queries are split by a hash of the function name: the published figures use the `test` half; the
// weights were tuned on the `tune` half (tools/tune/similarity.ts; BENCH_SPLIT=tune prints that one).
// Seeded: the same corpus and code give the same table. Features are cached per binary in $TMPDIR keyed
// by file hash and code version. BENCH_QUERIES (default 500) caps queries per task at pool 100; pool
// 10 000 uses a fifth as many (each costs 100 times more). BENCH_INT8=1 measures the int8 vectors the
// index stores instead of float32.
import { similarityConfidence } from '../../src/engine/similarity/index.js';
import { dequantiseVector, quantiseVector } from '../../src/shared/simhash.js';
import { loadCorpus, MAIN_VERSION, MIN_BLOCKS, runTask, TASK_NAMES } from './similarity-protocol.js';

const split = process.env.BENCH_SPLIT ?? 'test';
if (split !== 'test' && split !== 'tune') throw new Error(`BENCH_SPLIT=${split}: test or tune`);
const maxQueries = Number(process.env.BENCH_QUERIES ?? 500);

const t0 = performance.now();
const data = await loadCorpus();
if (!data) {
  console.log('../shared/corpus absent: nothing to measure');
  process.exit(0);
}
// BENCH_INT8=1: the vectors as the index stores and re-ranks them (int8), to measure what that costs.
const int8 = process.env.BENCH_INT8 === '1';
if (int8) for (const f of data.pool) f.vec = dequantiseVector(quantiseVector(f.vec));
const loadSeconds = (performance.now() - t0) / 1000;

const fmt = (x: number) => x.toFixed(3);
const table = (title: string, negatives: number, nQueries: number) => {
  console.log(`\n${title}`);
  console.log('task  queries  negatives(avg)  Recall@1  MRR@10');
  const rows = TASK_NAMES.map((task, i) => runTask(data, task, { negatives, nQueries, split, seed: 1000 + i }));
  for (const r of rows)
    console.log(
      `${r.task}    ${String(r.queries).padStart(7)}  ${r.pool.toFixed(0).padStart(14)}  ${fmt(r.r1).padStart(8)}  ${fmt(r.mrr).padStart(6)}`,
    );
  return rows;
};

console.log(
  `corpus: ${data.builds.length} unstripped library builds (${Object.entries(MAIN_VERSION)
    .map(([p, v]) => `${p} ${v}`)
    .join(', ')}), ${data.pool.length} functions with ≥ ${MIN_BLOCKS} blocks; ` +
    `features and vectors ready in ${loadSeconds.toFixed(1)} s (cache ${data.cacheDir})`,
);
console.log(`vectors: ${int8 ? 'int8, as the index stores them (BENCH_INT8=1)' : 'float32'}`);
console.log(`split: ${split} half of the function names (hashKey(name) & 1 = ${split === 'test' ? 1 : 0})`);
const small = table('pool 100 (1 true match + 100 negatives)', 100, maxQueries);
table(
  'pool 10 000 (1 true match + up to 10 000 negatives; all of them where the task admits fewer)',
  10_000,
  Math.max(1, Math.round(maxQueries / 5)),
);
console.log('\nanchors (Recall@1): GMN (Marcelli et al. 2022) XO 0.66, XC 0.46, XA 0.445;');
console.log('                   HermesSim (2024) XO 0.81, XA 0.955, XM 0.745 at pool 100, 0.438 at pool 10 000');
console.log('targets: XO ≥ 0.85, XC ≥ 0.70, XA ≥ 0.60 at pool 100; XO ≥ 0.50 at pool 10 000');

// Calibration of the confidence mapping: of the pool-100 queries whose best candidate scores ≥ t, how
// often is the best candidate the true match (precision), and how many queries reach t (coverage).
console.log('\ncalibration (pool 100, all tasks): top-1 similarity ≥ t → precision, coverage, mean confidence');
const all = small.flatMap((r) => r.scored).map((s) => ({ sim: Math.max(s.sp, s.best), right: s.sp > s.best }));
for (const t of [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) {
  const top = all.filter((s) => s.sim >= t);
  const right = top.filter((s) => s.right).length;
  const conf = top.reduce((a, s) => a + similarityConfidence(s.sim), 0) / (top.length || 1);
  console.log(
    `t=${t.toFixed(2)}  precision ${fmt(right / (top.length || 1))}  coverage ${fmt(top.length / (all.length || 1))}  confidence ${fmt(conf)}`,
  );
}
