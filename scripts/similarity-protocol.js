// The evaluation protocol shared by bench-similarity.js and tune-similarity.js: the corpus's unstripped
// library builds, their functions' features (cached), and Recall@1 / MRR@10 of one true match among
// sampled negatives for the XO, XC, XA and XM tasks of Marcelli et al. (USENIX Security 2022).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recoverBinaryFunctions } from '../dist/src/engine/index.js';
import { encodeInstructions } from '../dist/src/engine/encodings/index.js';
import { extractStrings } from '../dist/src/engine/strings/index.js';
import { binaryFeatures } from '../dist/src/engine/features/index.js';
import { functionVector, hashKey } from '../dist/src/engine/similarity/index.js';
import { seededRandom } from '../dist/src/shared/seeded-random.js';

export const corpus = resolve(process.cwd(), '..', 'shared', 'corpus');
/** The paper counts only functions of at least 5 basic blocks. */
export const MIN_BLOCKS = 5;
/** The full 15-build matrix of each library; the extra versions are left for cross-version tests. */
export const MAIN_VERSION = { lz4: '1.10.0', lmdb: '0.9.29', sqlite: '3.50.4' };

export const TASKS = {
  XO: (a, b) => a.arch === b.arch && a.os === b.os && a.compiler === b.compiler && a.opt !== b.opt,
  XC: (a, b) => a.arch === b.arch && a.os === b.os && a.compiler !== b.compiler,
  XA: (a, b) => a.arch !== b.arch && a.compiler === b.compiler && a.opt === b.opt,
  XM: (a, b) => a.arch !== b.arch || a.os !== b.os || a.compiler !== b.compiler || a.opt !== b.opt,
};

/** Half of the names by a hash: `tune` for choosing weights, `test` for the published figures. */
export const splitOf = (name) => (hashKey(name) & 1 ? 'test' : 'tune');

/** i386 COFF decoration (`_name`, `_name@8`) off, as the corpus's canonical names. */
const canonical = (name, b) =>
  b.format === 'PE' && b.bits === 32 ? name.replace(/^_/, '').replace(/@\d+$/, '') : name;
const family = (b) => (/clang/.test(b.compiler.name ?? b.compiler) ? 'clang' : 'gcc');

/** Cache key: the compiled engine stages that decide the features (weights are applied after the cache). */
function cacheDirectory() {
  const h = createHash('sha256');
  for (const dir of ['cfg', 'disasm', 'features', 'strings', 'formats'])
    for (const f of readdirSync(`dist/src/engine/${dir}`).sort())
      if (f.endsWith('.js') && !f.endsWith('.test.js')) h.update(readFileSync(`dist/src/engine/${dir}/${f}`));
  const dir = join(tmpdir(), `binlens-similarity-${h.digest('hex').slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function loadBuild(b, shared, cacheDir) {
  const file = join(cacheDir, `${b.sha256}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(corpus, b.path)), {});
  const features = binaryFeatures(image, graph, encodeInstructions(image, graph, decoders), extractStrings(image));
  const names = new Set(Object.keys(shared.projects[b.project].library_functions));
  const seen = new Set();
  const functions = [];
  graph.functions.forEach((f, i) => {
    const name = f.name && canonical(f.name, b);
    if (!name || !names.has(name) || seen.has(name)) return;
    seen.add(name);
    functions.push({ name, blocks: f.blockCount, features: features[i] });
  });
  const out = { functions };
  writeFileSync(file, JSON.stringify(out));
  return out;
}

/** Builds with their functions of ≥ MIN_BLOCKS blocks (features only; see `vectorize`), or null without a corpus. */
export async function loadCorpus() {
  if (!existsSync(join(corpus, 'manifest.json'))) return null;
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
  const shared = JSON.parse(readFileSync(join(corpus, 'shared_functions.json'), 'utf8'));
  const cacheDir = cacheDirectory();
  const builds = manifest.binaries.filter(
    (b) => !b.stripped && b.kind === 'library-build' && MAIN_VERSION[b.project] === b.version,
  );
  const pool = [];
  for (const b of builds) {
    const data = await loadBuild(b, shared, cacheDir);
    b.config = { arch: b.arch, os: b.os, compiler: family(b), opt: b.opt };
    b.byName = new Map();
    for (const f of data.functions) {
      if (f.blocks < MIN_BLOCKS) continue;
      const entry = { build: b, name: f.name, project: b.project, features: f.features, vec: null };
      b.byName.set(f.name, entry);
      pool.push(entry);
    }
  }
  return { builds, pool, cacheDir };
}

export function vectorize(pool, weights) {
  for (const f of pool) f.vec = functionVector(f.features, weights);
}

const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/**
 * One task: up to `nQueries` query functions of the split (seeded shuffle), each with a true match drawn
 * from a build that pairs with the query's under the task, and `negatives` functions of other names from
 * any build that pairs with it (all of them when fewer). Rank counts ties against the true match.
 */
export function runTask({ builds, pool }, task, { negatives, nQueries, split, seed }) {
  const rand = seededRandom(seed);
  const pred = TASKS[task];
  const candidates = [];
  for (const q of pool) {
    if (splitOf(q.name) !== split) continue;
    const partners = builds.filter(
      (b) => b !== q.build && b.project === q.project && pred(q.build.config, b.config) && b.byName.has(q.name),
    );
    if (partners.length) candidates.push([q, partners]);
  }
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
  }
  let r1 = 0;
  let mrr = 0;
  let poolSizes = 0;
  const picked = candidates.slice(0, nQueries);
  const scored = [];
  for (const [q, partners] of picked) {
    const positive = partners[Math.floor(rand() * partners.length)].byName.get(q.name);
    const negPool = pool.filter(
      (f) => f.name !== q.name && f.build !== q.build && pred(q.build.config, f.build.config),
    );
    let negs = negPool;
    if (negPool.length > negatives) {
      negs = [];
      const taken = new Set();
      while (negs.length < negatives) {
        const k = Math.floor(rand() * negPool.length);
        if (taken.has(k)) continue;
        taken.add(k);
        negs.push(negPool[k]);
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
