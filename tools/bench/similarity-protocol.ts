// The evaluation protocol shared by bench:similarity (similarity.ts) and tools/tune/similarity.ts: the
// corpus's unstripped library builds, their functions' features (cached), and Recall@1 / MRR@10 of one
// true match among sampled negatives for the XO, XC, XA and XM tasks of Marcelli et al. (USENIX Security 2022).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeInstructions } from '../../src/engine/encodings/index.js';
import { binaryFeatures, type FeatureGroup, type FunctionFeatures } from '../../src/engine/features/index.js';
import { recoverBinaryFunctions } from '../../src/engine/index.js';
import { DEFAULT_WEIGHTS, functionVector, hashKey } from '../../src/engine/similarity/index.js';
import { extractStrings } from '../../src/engine/strings/index.js';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { CORPUS, corpusManifest, readJson, type CorpusBinary } from './lib.js';

/** The paper counts only functions of at least 5 basic blocks. */
export const MIN_BLOCKS = 5;
/** The full 15-build matrix of each library; the extra versions are left for cross-version tests. */
export const MAIN_VERSION: Readonly<Record<string, string>> = { lz4: '1.10.0', lmdb: '0.9.29', sqlite: '3.50.4' };

export type Weights = Readonly<Record<FeatureGroup, number>>;

/** What the tasks compare two builds by. */
interface BuildConfig {
  arch: string;
  os: string;
  compiler: 'gcc' | 'clang';
  opt: string;
}

export const TASK_NAMES = ['XO', 'XC', 'XA', 'XM'] as const;
export type Task = (typeof TASK_NAMES)[number];

export const TASKS: Record<Task, (a: BuildConfig, b: BuildConfig) => boolean> = {
  XO: (a, b) => a.arch === b.arch && a.os === b.os && a.compiler === b.compiler && a.opt !== b.opt,
  XC: (a, b) => a.arch === b.arch && a.os === b.os && a.compiler !== b.compiler,
  XA: (a, b) => a.arch !== b.arch && a.compiler === b.compiler && a.opt === b.opt,
  XM: (a, b) => a.arch !== b.arch || a.os !== b.os || a.compiler !== b.compiler || a.opt !== b.opt,
};

export type Split = 'test' | 'tune';

/** Half of the names by a hash: `tune` for choosing weights, `test` for the published figures. */
export const splitOf = (name: string): Split => (hashKey(name) & 1 ? 'test' : 'tune');

/** A library build of the corpus, with its functions of ≥ MIN_BLOCKS blocks by canonical name. */
export interface Build extends CorpusBinary {
  config: BuildConfig;
  byName: Map<string, PoolFunction>;
}

export interface PoolFunction {
  build: Build;
  name: string;
  project: string;
  features: FunctionFeatures;
  /** Unit vector of the features under the weights last given to `vectorize`. */
  vec: Float32Array;
}

export interface Corpus {
  builds: Build[];
  pool: PoolFunction[];
  cacheDir: string;
}

/** What a build's cache file holds: its named library functions and their features. */
interface CachedBuild {
  functions: { name: string; blocks: number; features: FunctionFeatures }[];
}

/** ../shared/corpus/shared_functions.json: per project, the library functions its builds define. */
interface SharedFunctions {
  projects: Record<string, { library_functions: Record<string, number[]> }>;
}

/** i386 COFF decoration (`_name`, `_name@8`) off, as the corpus's canonical names. */
const canonical = (name: string, b: CorpusBinary) =>
  b.format === 'PE' && b.bits === 32 ? name.replace(/^_/, '').replace(/@\d+$/, '') : name;
const family = (b: CorpusBinary) => (/clang/.test(b.compiler) ? 'clang' : 'gcc');

/** Fisher–Yates in place, drawing from `rand`. */
export function shuffle<T>(xs: T[], rand: () => number): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
}

/**
 * Cache key: the compiled engine stages that decide the features (weights are applied after the cache).
 * The tools run compiled, so dist/ holds exactly the code that computed them.
 */
function cacheDirectory(): string {
  const h = createHash('sha256');
  for (const dir of ['cfg', 'disasm', 'features', 'strings', 'formats'])
    for (const f of readdirSync(`dist/src/engine/${dir}`).sort())
      if (f.endsWith('.js') && !f.endsWith('.test.js')) h.update(readFileSync(`dist/src/engine/${dir}/${f}`));
  const dir = join(tmpdir(), `binlens-similarity-${h.digest('hex').slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function loadBuild(b: CorpusBinary, shared: SharedFunctions, cacheDir: string): Promise<CachedBuild> {
  const file = join(cacheDir, `${b.sha256}.json`);
  if (existsSync(file)) return readJson<CachedBuild>(file);
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(CORPUS, b.path)), {});
  const features = binaryFeatures(image, graph, encodeInstructions(image, graph, decoders), extractStrings(image));
  const project = shared.projects[b.project];
  if (!project) throw new Error(`${b.project}: not in shared_functions.json`);
  const names = new Set(Object.keys(project.library_functions));
  const seen = new Set<string>();
  const functions: CachedBuild['functions'] = [];
  graph.functions.forEach((f, i) => {
    const name = f.name && canonical(f.name, b);
    if (!name || !names.has(name) || seen.has(name)) return;
    seen.add(name);
    functions.push({ name, blocks: f.blockCount, features: features[i]! });
  });
  const out = { functions };
  writeFileSync(file, JSON.stringify(out));
  return out;
}

/**
 * Builds with their functions of ≥ MIN_BLOCKS blocks, vectorised with the default weights (`vectorize`
 * sets others), or null without a corpus.
 */
export async function loadCorpus(): Promise<Corpus | null> {
  const manifest = corpusManifest();
  if (!manifest) return null;
  const shared = readJson<SharedFunctions>(join(CORPUS, 'shared_functions.json'));
  const cacheDir = cacheDirectory();
  const builds: Build[] = [];
  const pool: PoolFunction[] = [];
  for (const b of manifest) {
    if (b.stripped || b.kind !== 'library-build' || MAIN_VERSION[b.project] !== b.version) continue;
    const data = await loadBuild(b, shared, cacheDir);
    const build: Build = {
      ...b,
      config: { arch: b.arch, os: b.os, compiler: family(b), opt: b.opt },
      byName: new Map(),
    };
    builds.push(build);
    for (const f of data.functions) {
      if (f.blocks < MIN_BLOCKS) continue;
      const entry = { build, name: f.name, project: b.project, features: f.features, vec: new Float32Array(0) };
      build.byName.set(f.name, entry);
      pool.push(entry);
    }
  }
  vectorize(pool, DEFAULT_WEIGHTS);
  return { builds, pool, cacheDir };
}

export function vectorize(pool: PoolFunction[], weights: Weights): void {
  for (const f of pool) f.vec = functionVector(f.features, weights);
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** One task's figures; `scored` has each query's true-match similarity and its best negative's. */
export interface TaskResult {
  task: Task;
  queries: number;
  r1: number;
  mrr: number;
  /** Mean negatives per query. */
  pool: number;
  scored: { sp: number; best: number }[];
}

/**
 * One task: up to `nQueries` query functions of the split (seeded shuffle), each with a true match drawn
 * from a build that pairs with the query's under the task, and `negatives` functions of other names from
 * any build that pairs with it (all of them when fewer). Rank counts ties against the true match.
 */
export function runTask(
  { builds, pool }: Corpus,
  task: Task,
  { negatives, nQueries, split, seed }: { negatives: number; nQueries: number; split: Split; seed: number },
): TaskResult {
  const rand = seededRandom(seed);
  const pred = TASKS[task];
  // Each query with its true matches: the same name in every build that pairs with the query's.
  const candidates: [PoolFunction, PoolFunction[]][] = [];
  for (const q of pool) {
    if (splitOf(q.name) !== split) continue;
    const partners = builds.flatMap((b) => {
      const match = b !== q.build && b.project === q.project && pred(q.build.config, b.config) && b.byName.get(q.name);
      return match ? [match] : [];
    });
    if (partners.length) candidates.push([q, partners]);
  }
  shuffle(candidates, rand);
  let r1 = 0;
  let mrr = 0;
  let poolSizes = 0;
  const picked = candidates.slice(0, nQueries);
  const scored: TaskResult['scored'] = [];
  for (const [q, partners] of picked) {
    const positive = partners[Math.floor(rand() * partners.length)]!;
    const negPool = pool.filter(
      (f) => f.name !== q.name && f.build !== q.build && pred(q.build.config, f.build.config),
    );
    let negs = negPool;
    if (negPool.length > negatives) {
      negs = [];
      const taken = new Set<number>();
      while (negs.length < negatives) {
        const k = Math.floor(rand() * negPool.length);
        if (taken.has(k)) continue;
        taken.add(k);
        negs.push(negPool[k]!);
      }
    }
    poolSizes += negs.length;
    const sp = dot(q.vec, positive.vec);
    let rank = 1;
    let best = -Infinity;
    for (const n of negs) {
      const s = dot(q.vec, n.vec);
      if (s >= sp) rank++;
      if (s > best) best = s;
    }
    if (rank === 1) r1++;
    if (rank <= 10) mrr += 1 / rank;
    scored.push({ sp, best });
  }
  const n = picked.length || 1;
  return { task, queries: picked.length, r1: r1 / n, mrr: mrr / n, pool: poolSizes / n, scored };
}
