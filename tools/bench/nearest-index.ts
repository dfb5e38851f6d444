// npm run bench:index — the nearest-function index (store.similarity) at 10^5 and 10^6 functions on
// SQLite and PostgreSQL: build time, top-10 search latency (p50/p99, one query at a time and batched with
// nearestMany), recall@10 against an exact brute-force scan of the same int8 vectors (whose latency is
// the reference ratio), database size and process memory per million functions.
//
// The index holds the corpus's real function vectors (bench:similarity's feature cache) and synthetic ones
// (index-corpus.ts) to reach the size; queries are real corpus functions held out of the index. One user
// owns every analysis (1000 functions each) and asks: visibility costs its join, not its selectivity.
//
//   BENCH_INDEX_SIZES=100000,1000000   index sizes (default both)
//   BENCH_INDEX_DIALECTS=sqlite,postgres
//   BENCH_INDEX_QUERIES=100            queries per size (the exact truth costs ~1 s a query at 10^6)
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres   admin connection (a database is created and dropped)
//   BENCH_INDEX_SWEEP=10x2,12x2,12x4   also measure these query-time settings (key bits × probes) on the
//                                      same database: recall against candidates and latency
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { FunctionRecord } from '../../src/shared/analysis-records.js';
import { HASHED_DIM, LSH_BANDS, LSH_BITS, packVectors, type PackedVectors } from '../../src/shared/simhash.js';
import { createStore, openDatabase, type IndexViewer, type NearestQuery, type Store } from '../../src/store/index.js';
import { DEFAULT_TUNING, SimilarityRepository, type IndexTuning } from '../../src/store/similarity.js';
import { corpusVectors, exactScan, indexVector, type Hit } from './index-corpus.js';
import { benchAnalysis, postgresDatabase, type ScratchDatabase } from './lib.js';

const sizes = (process.env.BENCH_INDEX_SIZES ?? '100000,1000000').split(',').map(Number);
const dialects = (process.env.BENCH_INDEX_DIALECTS ?? 'sqlite,postgres').split(',');
const nQueries = Number(process.env.BENCH_INDEX_QUERIES ?? 100);
const pgAdmin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sweep = (process.env.BENCH_INDEX_SWEEP ?? '')
  .split(',')
  .filter(Boolean)
  .map((c) => {
    const dims = c.split('x').map(Number);
    if (dims.length !== 2 || !dims.every(Number.isInteger))
      throw new Error(`BENCH_INDEX_SWEEP: ${c} is not BITSxPROBES`);
    const [bits, probes] = dims as [number, number];
    return { bits, probes };
  });
const PER_ANALYSIS = 1000;
const K = 10;

const corpus = await corpusVectors({ queries: nQueries });
if (!corpus) {
  console.log('../shared/corpus absent: nothing to measure');
  process.exit(0);
}
const { base, queries } = corpus;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

console.log(
  `bench:index — ${base.length} corpus function vectors (+ synthetic to size), ${queries.length} held-out queries, ` +
    `top-${K}; LSH ${LSH_BANDS} bands × ${LSH_BITS} bits stored; queries: ${DEFAULT_TUNING.probes} probes a band, ` +
    `key bits for ~${DEFAULT_TUNING.rowsPerQuery} bucket rows, ≤ ${DEFAULT_TUNING.maxCandidates} candidates re-ranked`,
);

/** A fresh database of the dialect: its URL and how to drop it. */
async function freshDatabase(dialect: string): Promise<ScratchDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-bench-index-'));
    const file = join(dir, 'index.sqlite');
    const size = async () => ['', '-wal'].reduce((s, x) => s + (existsSync(file + x) ? statSync(file + x).size : 0), 0);
    return { url: file, size, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const db = await postgresDatabase(pgAdmin, `binlens_bench_${randomBytes(4).toString('hex')}`, (err) => {
    throw err;
  });
  if (!db) throw new Error(`no PostgreSQL at ${pgAdmin}`);
  return db;
}

/** What a benchmark function is besides its name and vector. */
/** A function named from its symbol, as recovery records one. */
const FUNCTION: Omit<FunctionRecord, 'vaddr' | 'name' | 'mangledName'> = {
  size: 16,
  nameOrigin: 'symbol',
  found: 'symbol',
  thumb: false,
  noReturn: false,
  blocks: [],
};
const NO_REFERENCES = { calls: [], strings: [], refs: [] };

async function build(store: Store, packed: Omit<PackedVectors, 'count'>, n: number) {
  const user = await store.users.create({
    username: 'bench',
    email: 'b@x.io',
    role: 'USER',
    teamName: null,
    apiKeyHash: 'bench',
  });
  const rowIds = new Int32Array(n);
  for (let first = 0; first < n; first += PER_ANALYSIS) {
    const count = Math.min(PER_ANALYSIS, n - first);
    const analysisId = await benchAnalysis(store, user.id, {
      sha256: randomBytes(32).toString('hex'),
      size: 1,
      filename: 'x',
      binaryName: `b${first}`,
      modelName: 'm',
      payload: null,
    });
    const names = (i: number) => ({ vaddr: 0x1000 + i * 16, name: `f${first + i}`, mangledName: `f${first + i}` });
    await store.functions.replace(analysisId, {
      functions: Array.from({ length: count }, (_, i) => ({ ...FUNCTION, ...names(i) })),
      ...NO_REFERENCES,
      vectors: {
        count,
        vectors: packed.vectors.subarray(first * HASHED_DIM, (first + count) * HASHED_DIM),
        buckets: packed.buckets.subarray(first * LSH_BANDS, (first + count) * LSH_BANDS),
      },
    });
    const ids = await store.functions.map(analysisId);
    ids.forEach((f, i) => (rowIds[first + i] = f.id));
    if ((first / PER_ANALYSIS) % 100 === 99) process.stderr.write(`  ${first + count} functions stored\r`);
  }
  const viewer: IndexViewer = { userId: user.id, teamId: null };
  return { viewer, rowIds };
}

for (const n of sizes) {
  console.log(`\n== ${n.toLocaleString('en')} functions`);
  let t0 = performance.now();
  const floats: Float32Array[] = [];
  const v = new Float32Array(HASHED_DIM);
  // Packed in slices so no array of a million Float32Arrays is ever held.
  const packed = { vectors: new Int8Array(n * HASHED_DIM), buckets: new Int32Array(n * LSH_BANDS) };
  for (let first = 0; first < n; first += 10_000) {
    floats.length = 0;
    for (let i = first; i < Math.min(n, first + 10_000); i++) floats.push(Float32Array.from(indexVector(base, i, v)));
    const p = packVectors(floats.length, (i) => floats[i]!);
    packed.vectors.set(p.vectors, first * HASHED_DIM);
    packed.buckets.set(p.buckets, first * LSH_BANDS);
  }
  console.log(`vectors, int8 form and LSH buckets computed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const exact = exactScan(packed.vectors, HASHED_DIM);
  const truth: Hit[][] = [];
  const bruteMs: number[] = [];
  for (const q of queries) {
    const s = performance.now();
    truth.push(exact.topK(q, K));
    bruteMs.push(performance.now() - s);
  }
  console.log(
    `brute force (exact scan of the int8 vectors in memory, one thread): p50 ${ms(pct(bruteMs, 0.5))} ms, ` +
      `p99 ${ms(pct(bruteMs, 0.99))} ms a query`,
  );

  for (const dialect of dialects) {
    const db = await freshDatabase(dialect);
    const driver = openDatabase(db.url);
    try {
      await driver.migrate();
      const store = createStore(driver);
      t0 = performance.now();
      const { viewer, rowIds } = await build(store, packed, n);
      // Planner statistics, as autovacuum (PostgreSQL) or a maintenance run would gather after a bulk load:
      // without them PostgreSQL guessed 8 000 rows a bucket range and planned the candidate query in parallel.
      await sql`analyze`.execute(driver.db);
      const buildS = (performance.now() - t0) / 1000;
      const measure = async (tuning: IndexTuning) => {
        const index = new SimilarityRepository(driver.db, tuning);
        const ask = (q: Float32Array): NearestQuery => ({ vector: q, k: K, minSimilarity: -1, viewer });
        await index.nearest(ask(queries[0]!)); // warm the statement cache and the page cache
        const lat: number[] = [];
        let recall = 0;
        let top1 = 0;
        for (const [i, q] of queries.entries()) {
          const s = performance.now();
          const got = await index.nearest(ask(q));
          lat.push(performance.now() - s);
          const want = new Set(truth[i]!.map(([, row]) => rowIds[row]));
          recall += got.filter((g) => want.has(g.functionId)).length / K;
          if (got[0]?.functionId === rowIds[truth[i]![0]![1]]) top1++;
        }
        return { index, ask, lat, recall: recall / queries.length, top1: top1 / queries.length };
      };
      const main = await measure(DEFAULT_TUNING);
      t0 = performance.now();
      await main.index.nearestMany(queries.map(main.ask));
      const batchMs = (performance.now() - t0) / queries.length;
      const p50 = pct(main.lat, 0.5);
      console.log(
        `${dialect.padEnd(8)} build ${buildS.toFixed(0)} s (${((buildS * 1e6) / n / 60).toFixed(1)} min per million); ` +
          `search p50 ${ms(p50)} ms, p99 ${ms(pct(main.lat, 0.99))} ms (nearestMany ${ms(batchMs)} ms a query); ` +
          `recall@${K} ${main.recall.toFixed(3)}, top-1 ${main.top1.toFixed(3)}; ` +
          `brute force / index at p50 ${(pct(bruteMs, 0.5) / p50).toFixed(1)}×`,
      );
      for (const { bits, probes } of sweep) {
        const r = await measure({ ...DEFAULT_TUNING, bits, probes });
        console.log(
          `         bits ${bits}, probes ${probes}: recall@${K} ${r.recall.toFixed(3)}, top-1 ${r.top1.toFixed(3)}, ` +
            `p50 ${ms(pct(r.lat, 0.5))} ms, p99 ${ms(pct(r.lat, 0.99))} ms`,
        );
      }
      const size = await db.size();
      const mem = process.memoryUsage();
      const own = packed.vectors.byteLength + packed.buckets.byteLength + base.length * HASHED_DIM * 4;
      console.log(
        `         database ${mb(size)} MiB (${((size * 1e6) / n / 2 ** 30).toFixed(2)} GiB per million); process RSS ` +
          `${mb(mem.rss)} MiB, of which ${mb(own)} MiB are the benchmark's own arrays (vectors for brute force) ` +
          `and ${mb(mem.rss - own)} MiB the rest of the process`,
      );
    } finally {
      await driver.close();
      await db.drop();
    }
  }
}
