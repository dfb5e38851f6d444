// npm run bench:unstrip — names recovered by auto-unstrip and ai-unstrip, through the API in-process on a
// temporary SQLite store. Per project: the unstripped x86-64 builds at the other -O levels and of the other
// compiler are the reference analyses; the stripped gcc -O2 build is the query. Its truth is the unstripped
// twin's symbol table by address (../shared/corpus/truth). A name is right when it equals the truth after
// clone suffixes (.constprop.0, .part.0, …) are removed. Recall counts the query's placeholder-named
// functions whose true name some reference build defines (the names unstripping could recover).
// BENCH_UNSTRIP_PROJECTS=lz4,lmdb,sqlite picks the projects (default lz4,lmdb); BENCH_UNSTRIP_WRONG=1 lists
// the wrong names given at the default thresholds, with their evidence.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Static, TSchema } from '@sinclair/typebox';
import { loadConfig } from '../../src/config/index.js';
import {
  AnalysisEnvelopes,
  AutoUnstripResponse,
  FunctionEnvelopes,
  type StoredSuggestion,
  type UnstripRunResult,
  type UploadEnvelope,
} from '../../src/contracts/index.js';
import { canonicalName, isPlaceholderName } from '../../src/engine/similarity/index.js';
import { buildService, openRuntime } from '../../src/main/index.js';
import { multipartBody } from '../../test/helpers/multipart.js';
import { CORPUS, dataOf, readJson, type CorpusTruth } from './lib.js';

const KEY = 'bench-unstrip-admin-key';
const VERSIONS: Record<string, string> = { lz4: '1.10.0', lmdb: '0.9.29', sqlite: '3.50.4' };
const QUERY_BUILD = 'linux-x86_64_gcc12_O2';
const REFERENCE_BUILDS = ['gcc12_O0', 'gcc12_O1', 'gcc12_O3', 'clang14_O0', 'clang14_O2', 'clang14_O3'].map(
  (b) => `linux-x86_64_${b}`,
);
const CURVE = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99];

if (!existsSync(CORPUS)) {
  console.log('../shared/corpus absent: nothing to measure');
  process.exit(0);
}
const projects = (process.env.BENCH_UNSTRIP_PROJECTS ?? 'lz4,lmdb').split(',').filter((p) => VERSIONS[p]);

const dataDir = mkdtempSync(join(tmpdir(), 'binlens-bench-unstrip-'));
const config = {
  ...loadConfig({}),
  dataDir,
  databaseUrl: join(dataDir, 'binlens.sqlite'),
  adminApiKey: KEY,
  workers: 2,
  jobLeaseMs: 60_000,
};
const service = await buildService(config);
const runtime = await openRuntime(config);
const app = service.app;

/** A /v2 call through `app.inject`; the body is what the route's `response` schema says it sends. */
async function call<R extends TSchema>(response: R, method: 'GET' | 'POST', url: string, body?: object) {
  const res = await app.inject({ method, url, headers: { authorization: KEY }, ...(body ? { payload: body } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Static<R>>();
}

async function analyse(file: string): Promise<number> {
  const filename = basename(file);
  const mp = multipartBody([
    { name: 'upload_file_type', value: 'BINARY' },
    { name: 'file', value: readFileSync(file), filename },
  ]);
  const up = await app.inject({
    method: 'POST',
    url: '/v2/upload',
    headers: { authorization: KEY, 'content-type': mp.contentType },
    payload: mp.payload,
  });
  const sha = dataOf(up.json<Static<typeof UploadEnvelope>>(), 'upload').sha_256_hash;
  const created = await call(AnalysisEnvelopes.create, 'POST', '/v2/analyses', { filename, sha_256_hash: sha });
  return dataOf(created, 'create analysis').analysis_id;
}

async function waitAnalyses(ids: number[]) {
  for (const id of ids)
    for (;;) {
      const s = dataOf(await call(AnalysisEnvelopes.status, 'GET', `/v2/analyses/${id}/status`), 'status');
      if (s.analysis_status === 'Complete') break;
      if (s.analysis_status === 'Error') throw new Error(`analysis ${id} failed`);
      await sleep(200);
    }
}

/** POSTs until the run is complete; returns the last response and the seconds it took. */
async function unstrip(path: string, body: object) {
  const t0 = performance.now();
  let r = await call(AutoUnstripResponse, 'POST', path, body);
  while (r.status !== 'COMPLETED') {
    if (r.status === 'FAILED' || r.status === 'CANCELLED') throw new Error(`${path}: ${r.status} ${r.error_message}`);
    await sleep(250);
    r = await call(AutoUnstripResponse, 'POST', path, { ...body, status_only: true });
  }
  return { response: r, seconds: (performance.now() - t0) / 1000 };
}

async function functionsOf(id: number) {
  const out = [];
  for (let page = 1; ; page++) {
    const r = await call(FunctionEnvelopes.list, 'GET', `/v2/analyses/${id}/functions?page=${page}&page_size=1000`);
    out.push(...dataOf(r, 'functions').functions);
    if (!r.meta?.pagination?.has_next_page) return out;
  }
}

/** A build's functions' canonical names by address. */
const truthOf = (build: string) => {
  const t = readJson<CorpusTruth>(join(CORPUS, 'truth', `${build}.json`));
  return new Map(t.functions.map((f) => [parseInt(f.address, 16), canonicalName(f.canonical_name ?? f.name)]));
};

interface Query {
  project: string;
  id: number;
  truth: Map<number, string>;
  /** Every name some reference build defines. */
  known: Set<string>;
  /** Placeholder-named functions of the query whose true name is known: what unstripping could recover. */
  recoverable: number;
}

interface Tally {
  suggested: number;
  right: number;
  recoverable: number;
}

/** Precision and recall of `suggestions` against the truth of the query. */
function score(suggestions: { vaddr: number; name: string }[], q: Query): Tally {
  let right = 0;
  for (const s of suggestions) if (q.truth.get(s.vaddr) === canonicalName(s.name)) right++;
  return { suggested: suggestions.length, right, recoverable: q.recoverable };
}

const add = (a: Tally, b: Tally): Tally => ({
  suggested: a.suggested + b.suggested,
  right: a.right + b.right,
  recoverable: a.recoverable + b.recoverable,
});
const zero: Tally = { suggested: 0, right: 0, recoverable: 0 };
const fmt = (s: Tally) =>
  `precision ${(s.right / Math.max(s.suggested, 1)).toFixed(3)}  recall ${(s.right / Math.max(s.recoverable, 1)).toFixed(3)}  (${s.right}/${s.suggested} right, ${s.recoverable} recoverable)`;

const KINDS = ['auto', 'ai'] as const;
type Kind = (typeof KINDS)[number];

/** The stored result of the latest run of `kind` (every suggestion down to confidence 0.05, with evidence). */
async function storedSuggestions(analysisId: number, kind: `${Kind}_unstrip`): Promise<StoredSuggestion[]> {
  const run = await runtime.store.similarityRuns.latestOfAnalysis(analysisId, kind);
  if (!run?.result) throw new Error(`analysis ${analysisId}: no stored ${kind} result`);
  return (JSON.parse(run.result) as UnstripRunResult).suggestions;
}

function showWrong(label: string, q: Query, suggestions: StoredSuggestion[]) {
  if (!process.env.BENCH_UNSTRIP_WRONG) return;
  for (const s of suggestions.filter((x) => x.confidence >= 0.9 && q.truth.get(x.vaddr) !== canonicalName(x.name)))
    console.log(
      `    ${label} wrong: ${s.name} for ${q.truth.get(s.vaddr)} ${JSON.stringify({ ...s.evidence, alternatives: s.evidence.alternatives.slice(0, 3) })}`,
    );
}

try {
  const t0 = performance.now();
  const queries: Query[] = [];
  const pending: number[] = [];
  for (const p of projects) {
    const stem = `${p}-${VERSIONS[p]}`;
    const refs = REFERENCE_BUILDS.map((b) => `${stem}_${b}`);
    for (const r of refs) pending.push(await analyse(join(CORPUS, 'bin', p, r)));
    const id = await analyse(join(CORPUS, 'bin', p, `${stem}_${QUERY_BUILD}_stripped`));
    pending.push(id);
    const truth = truthOf(`${stem}_${QUERY_BUILD}`);
    const known = new Set(refs.flatMap((r) => [...truthOf(r).values()]));
    queries.push({ project: p, id, truth, known, recoverable: 0 });
  }
  await waitAnalyses(pending);
  console.log(
    `${pending.length} analyses in ${((performance.now() - t0) / 1000).toFixed(1)} s (${projects.join(', ')})`,
  );

  const totals: Record<Kind, Tally> = { auto: zero, ai: zero };
  const curves: Record<Kind, { q: Query; s: StoredSuggestion[] }[]> = { auto: [], ai: [] };
  for (const q of queries) {
    const fns = await functionsOf(q.id);
    const placeholders = fns.filter((f) => isPlaceholderName(f.name));
    q.recoverable = placeholders.filter((f) => {
      const name = q.truth.get(f.vaddr);
      return name !== undefined && q.known.has(name);
    }).length;
    const base = `/v2/analyses/${q.id}/functions`;
    const suggestionsOf = (r: Static<typeof AutoUnstripResponse>) =>
      (r.matches ?? []).map((m) => ({ vaddr: m.function_vaddr, name: m.suggested_demangled_name }));

    const auto = await unstrip(`${base}/auto-unstrip`, {});
    const ai = await unstrip(`${base}/ai-unstrip`, {});
    const rows: Record<Kind, Tally> = {
      auto: score(suggestionsOf(auto.response), q),
      ai: score(suggestionsOf(ai.response), q),
    };
    console.log(
      `\n${q.project}: ${fns.length} functions, ${placeholders.length} placeholder-named, ${q.recoverable} recoverable`,
    );
    console.log(`  auto-unstrip  ${fmt(rows.auto)}  ${auto.seconds.toFixed(1)} s`);
    console.log(`  ai-unstrip    ${fmt(rows.ai)}  ${ai.seconds.toFixed(1)} s`);
    for (const kind of KINDS) {
      totals[kind] = add(totals[kind], rows[kind]);
      const stored = await storedSuggestions(q.id, `${kind}_unstrip`);
      showWrong(kind, q, stored);
      curves[kind].push({ q, s: stored });
    }
  }

  console.log('\nall projects, default thresholds');
  console.log(`  auto-unstrip  ${fmt(totals.auto)}`);
  console.log(`  ai-unstrip    ${fmt(totals.ai)}`);
  console.log('\nprecision / recall by confidence threshold (auto-unstrip: min_similarity 90, min_group_size 10)');
  console.log('  threshold   auto P   auto R    ai P    ai R');
  for (const t of CURVE) {
    const at = (runs: { q: Query; s: StoredSuggestion[] }[]) =>
      runs.reduce(
        (acc, { q, s }) =>
          add(
            acc,
            score(
              s.filter((x) => x.confidence >= t),
              q,
            ),
          ),
        zero,
      );
    const a = at(curves.auto);
    const b = at(curves.ai);
    const p = (s: Tally) => (s.right / Math.max(s.suggested, 1)).toFixed(3);
    const r = (s: Tally) => (s.right / Math.max(s.recoverable, 1)).toFixed(3);
    console.log(`  ${t.toFixed(2).padStart(9)}   ${p(a)}   ${r(a)}   ${p(b)}   ${r(b)}`);
  }
} finally {
  await runtime.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
