// npm run bench:capabilities — the shipped rules on ../shared/corpus:
//  1. detection: for each behaviour sample and build (bin/samples), the reported rules found against those
//     capabilities-expected.json (beside this file) lists (from the corpus README and the C sources), with
//     precision and recall. A match whose every instance lies in C-runtime code (per the truth file's
//     `origin`; stripped builds share their counterpart's addresses) is listed apart and not scored: it is the
//     toolchain's, not the sample's behaviour.
//  2. speed: the largest corpus binary — function recovery, feature extraction and rule matching timed
//     apart (median of BENCH_RUNS, default 3), per analysis and per 1 000 functions; and how many rule
//     evaluations the feature index costs against evaluating every rule on every scope instance. With
//     BINLENS_RULES_DIRS set (e.g. to a checkout of capa's rules), matching is timed again with those added.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { capabilityFeatures, matchRules, type RuleMatches, type RuleSet } from '../../src/engine/capabilities/index.js';
import { encodeInstructions } from '../../src/engine/encodings/index.js';
import { recoverBinaryFunctions } from '../../src/engine/recover-binary.js';
import { extractStrings } from '../../src/engine/strings/index.js';
import { loadCapabilityRules } from '../../src/jobs/rule-files.js';
import { CORPUS, corpusManifest, median, readJson, type CorpusBinary, type CorpusTruth } from './lib.js';

const SAMPLES = path.join(CORPUS, 'bin', 'samples');
if (!existsSync(SAMPLES)) {
  console.log(`${SAMPLES} absent: nothing to measure`);
  process.exit(0);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const loaded = await loadCapabilityRules([]);
if (loaded.problems.length) console.log('rule problems:', loaded.problems);
const rules = loaded.rules;
console.log(`rules: ${rules.reported.size} reported, ${rules.size} compiled (library and subscope rules included)`);

/**
 * Per sample: the reported rules every build should match, and those of Linux or Windows builds only. Read
 * from the source tree (the tools run from the project root), not imported: JSON import attributes need
 * Node 20.10.
 */
const expectation = readJson<{ samples: Record<string, { all: string[]; linux?: string[]; windows?: string[] }> }>(
  path.resolve('tools', 'bench', 'capabilities-expected.json'),
);

const byPath = new Map((corpusManifest() ?? []).map((b) => [b.path, b]));

interface Ms {
  wall: number;
  cpu: number;
}

/** Wall-clock and CPU milliseconds of `fn` (CPU time is what a loaded, shared machine distorts least). */
async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: Ms }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, ms: { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 } };
}

async function extract(bytes: Uint8Array) {
  const recovered = await timed(() => recoverBinaryFunctions(bytes, {}));
  const { image, graph, decoders } = recovered.value;
  const extracted = await timed(() =>
    capabilityFeatures(image, graph, encodeInstructions(image, graph, decoders), extractStrings(image)),
  );
  return {
    features: extracted.value,
    functions: graph.functions.length,
    recoverMs: recovered.ms,
    extractMs: extracted.ms,
  };
}

/** Address ranges of C-runtime functions, from the build's (or its unstripped counterpart's) truth file. */
function runtimeRanges(entry: CorpusBinary | undefined): [number, number][] {
  const truth = entry?.truth && path.join(CORPUS, entry.truth);
  if (!truth || !existsSync(truth)) return [];
  return readJson<CorpusTruth>(truth)
    .functions.filter((f) => f.origin.split('|').includes('runtime'))
    .map((f) => [Number(f.address), Number(f.address) + Math.max(f.size, 1)]);
}
const inRuntime = (ranges: [number, number][], a: number) => ranges.some(([lo, hi]) => a >= lo && a < hi);

const pct = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const list = (xs: string[]) => (xs.length ? xs.join('; ') : '—');
let tp = 0;
let fp = 0;
let fn = 0;
console.log('\n== detection on the behaviour samples ==');
for (const file of readdirSync(SAMPLES).sort()) {
  const m = /^sample-([a-z_]+?)_(linux|win)-(.+?)(\.exe)?$/.exec(file);
  const want = m && expectation.samples[m[1]!];
  if (!m || !want) continue;
  const os = m[2] === 'win' ? 'windows' : 'linux';
  const expected = new Set([...want.all, ...(want[os] ?? [])]);
  const entry = byPath.get(`bin/samples/${file}`);
  const ranges = runtimeRanges(entry?.unstripped_counterpart ? byPath.get(entry.unstripped_counterpart) : entry);
  const { features } = await extract(readFileSync(path.join(SAMPLES, file)));
  const found = new Set<string>();
  const runtimeOnly: string[] = [];
  for (const [name, at] of matchRules(rules, features).matches) {
    const rule = rules.reported.get(name);
    if (!rule) continue;
    if (rule.scope !== 'file' && at.every((a) => inRuntime(ranges, a))) runtimeOnly.push(name);
    else found.add(name);
  }
  const hit = [...expected].filter((n) => found.has(n));
  const extra = [...found].filter((n) => !expected.has(n)).sort();
  const missed = [...expected].filter((n) => !found.has(n));
  tp += hit.length;
  fp += extra.length;
  fn += missed.length;
  console.log(
    `\n${m[1]} ${m[2]}-${m[3]}: expected ${expected.size}, found ${found.size}, ` +
      `precision ${pct(hit.length / found.size)}, recall ${pct(hit.length / expected.size)}`,
  );
  console.log(`  matched:  ${list(hit)}`);
  console.log(`  missed:   ${list(missed)}`);
  console.log(`  extra:    ${list(extra)}`);
  if (runtimeOnly.length) console.log(`  runtime code only (not scored): ${list(runtimeOnly.sort())}`);
}
console.log(
  `\noverall: ${tp} true, ${fp} false positives, ${fn} missed; precision ${pct(tp / (tp + fp))}, recall ${pct(tp / (tp + fn))}`,
);

function largestBinary(dir: string): { path: string; size: number } | null {
  let best: { path: string; size: number } | null = null;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    const size = statSync(p).size;
    if (!best || size > best.size) best = { path: p, size };
  }
  return best;
}

const big = largestBinary(path.join(CORPUS, 'bin'));
if (!big) throw new Error(`no binary under ${path.join(CORPUS, 'bin')}`);
const bytes = readFileSync(big.path);
const runs: Awaited<ReturnType<typeof extract>>[] = [];
for (let i = 0; i < RUNS; i++) runs.push(await extract(bytes));
const { features, functions } = runs[0]!;
// ms per function is s per 1 000 functions.
const per = (samples: Ms[]) => {
  const [wall, cpu] = [median(samples.map((s) => s.wall)), median(samples.map((s) => s.cpu))];
  return (
    `${(wall / 1000).toFixed(3)} s per analysis, ${(wall / functions).toFixed(3)} s per 1 000 functions ` +
    `(CPU ${(cpu / 1000).toFixed(3)} s, ${(cpu / functions).toFixed(3)} s)`
  );
};
console.log(
  `\n== speed: ${path.relative(CORPUS, big.path)} (${(big.size / 1e6).toFixed(2)} MB, ${functions} functions, median of ${RUNS}) ==`,
);
console.log(`function recovery:  ${per(runs.map((r) => r.recoverMs))}`);
console.log(`feature extraction: ${per(runs.map((r) => r.extractMs))}`);

/** Times matching `set` on the big binary's features and prints the figures. */
async function timeMatching(label: string, set: RuleSet) {
  const ms: Ms[] = [];
  let result: RuleMatches | undefined;
  for (let i = 0; i < RUNS; i++) {
    const run = await timed(() => matchRules(set, features));
    result = run.value;
    ms.push(run.ms);
  }
  if (!result) return;
  const reported = [...result.matches.keys()].filter((n) => set.reported.has(n)).length;
  console.log(`rule matching, ${label} (${set.size} compiled): ${per(ms)}`);
  console.log(
    `  evaluations: ${result.evaluations} with the index, ${result.naiveEvaluations} without ` +
      `(${(result.naiveEvaluations / result.evaluations).toFixed(1)}× fewer); ${reported} reported rules matched`,
  );
}

await timeMatching('shipped rules', rules);
const extraDirs = loadConfig().rulesDirs;
if (extraDirs.length) {
  const withExtra = await loadCapabilityRules(extraDirs);
  console.log(`BINLENS_RULES_DIRS: ${withExtra.files} files, ${withExtra.problems.length} problems`);
  await timeMatching('shipped + BINLENS_RULES_DIRS rules', withExtra.rules);
}
