// The worker-thread entry: a malformed sample is a refusal (permanent), not an error to retry; a finished
// analysis is stored by the thread that ran it, and only a summary crosses back to the main thread.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import { RESULT_DOCUMENT_VERSION, readResultDocument } from '../../src/contracts/index.js';
import { loadConfig } from '../../src/config/index.js';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { analyze } from '../../src/engine/index.js';
import { AnalysisPool } from '../../src/jobs/analysis-pool.js';
import analyzeFile from '../../src/jobs/analysis-task.js';
import { CORPUS } from '../helpers/engine/disasm.js';
import { HASHED_DIM } from '../../src/shared/simhash.js';
import { backends } from '../helpers/backends.js';
import { newAnalysis, migratedStore } from '../helpers/store-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'binlens-task-'));
const LIMITS = loadConfig({}).analysisLimits;
/** Recovery only: no capability rules, no library identification; refusals before reading never reach the store. */
const NOTHING_MORE = { capabilities: false, rulesDirs: [], sbom: false, databaseUrl: '', analysisId: 0 };
after(() => rmSync(dir, { recursive: true, force: true }));

/** A migrated SQLite database with one queued analysis to store results for. */
async function destination(t: TestContext) {
  const db = await backends.find((b) => b.name === 'sqlite')!.create();
  const store = await migratedStore(db);
  const user = await store.users.create({ username: 'u', email: 'u', role: 'USER', teamName: null, apiKeyHash: 'u' });
  const { analysisId } = await newAnalysis(store, user.id);
  t.after(async () => {
    await store.driver.close();
    await db.drop();
  });
  return { store, databaseUrl: db.url, analysisId };
}

test('an empty blob claimed as x86-64 is refused with the parser’s reason, its progress recorded', async (t) => {
  const path = join(dir, 'empty');
  writeFileSync(path, new Uint8Array(0));
  const { store, databaseUrl, analysisId } = await destination(t);
  const out = await analyzeFile({
    path,
    binaryConfig: { isa: 'x86_64' },
    symbols: null,
    debugPath: null,
    maxBytes: 1 << 20,
    ...NOTHING_MORE,
    databaseUrl,
    analysisId,
    limits: LIMITS,
  });
  assert.deepEqual(out, { kind: 'refused', reason: 'empty blob' });
  // It got as far as loading: the ANALYSIS stage started, and the log says where it was.
  const stages = (await store.events.stages(analysisId)).map((s) => `${s.stage}:${s.status}`);
  assert.deepEqual(stages, ['ANALYSIS:QUEUED', 'ANALYSIS:STARTED']);
  assert.ok((await store.events.logs(analysisId)).some((l) => l.line === 'Identifying the file (0%)'));
});

test('a sample over the analysis limit is refused before it is read', async () => {
  const path = join(dir, 'big');
  writeFileSync(path, new Uint8Array(2048));
  const out = await analyzeFile({
    path,
    binaryConfig: null,
    symbols: null,
    debugPath: null,
    maxBytes: 1024,
    ...NOTHING_MORE,
    limits: LIMITS,
  });
  assert.deepEqual(out, { kind: 'refused', reason: 'sample is 2048 bytes; the analysis limit is 1024' });
});

test('a file that is not there is an error (transient: the blob store may catch up)', async () => {
  await assert.rejects(
    analyzeFile({
      path: join(dir, 'missing'),
      binaryConfig: null,
      symbols: null,
      debugPath: null,
      maxBytes: 1024,
      ...NOTHING_MORE,
      limits: LIMITS,
    }),
  );
});

test('through the worker pool, the thread stores the functions and their vectors and hands back a summary', async (t) => {
  const path = join(dir, 'program');
  writeFileSync(path, sampleProgram({ bits: 64, little: true, machine: 62 }));
  const { store, databaseUrl, analysisId } = await destination(t);
  const pool = new AnalysisPool(1, LIMITS);
  t.after(() => pool.close());
  const out = await pool.run({
    path,
    binaryConfig: null,
    symbols: null,
    debugPath: null,
    maxBytes: 1 << 20,
    ...NOTHING_MORE,
    databaseUrl,
    analysisId,
  });
  assert.equal(out.kind, 'done');
  if (out.kind !== 'done') return;
  const direct = await analyze(readFileSync(path), {});
  assert.equal(out.summary.functionCount, direct.functionCount);
  assert.equal(out.summary.vectorCount, direct.functionCount);
  assert.ok(JSON.stringify(out).length < 4096, 'only a summary crosses the thread boundary');
  const ids = (await store.functions.map(analysisId)).map((f) => f.id);
  assert.equal(ids.length, direct.functionCount);
  const vectors = await store.similarity.vectors(ids);
  assert.equal(vectors.size, ids.length);
  assert.ok([...vectors.values()].every((v) => v.length === HASHED_DIM));
  assert.equal(readResultDocument(await store.events.result(analysisId))?.functionCount, direct.functionCount);
});

test('with capabilities and an SBOM asked for, the worker matches the shipped rules and names libraries', async (t) => {
  const sample = join(CORPUS, 'bin', 'samples', 'sample-win_injector_win-x86_64_mingw-gcc12_O2_stripped.exe');
  if (!existsSync(sample)) return t.skip('../shared/corpus is not present');
  const { store, databaseUrl, analysisId } = await destination(t);
  const pool = new AnalysisPool(1, LIMITS);
  t.after(() => pool.close());
  const out = await pool.run({
    path: sample,
    binaryConfig: null,
    symbols: null,
    debugPath: null,
    maxBytes: 1 << 24,
    capabilities: true,
    rulesDirs: [],
    sbom: true,
    databaseUrl,
    analysisId,
  });
  assert.equal(out.kind, 'done');
  if (out.kind !== 'done') return;
  assert.deepEqual(out.ruleProblems, []);
  assert.deepEqual(out.summary.libraries, 0);
  const result = readResultDocument(await store.events.result(analysisId));
  assert.equal(result?.version, RESULT_DOCUMENT_VERSION);
  const rules = result!.capabilities!.matches.map((m) => m.rule);
  assert.ok(rules.includes('create thread in another process'), rules.join(', '));
  assert.equal(out.summary.capabilities?.matched, rules.length);
  assert.ok((await store.events.features<{ keys: unknown[] }>(analysisId))!.keys.length > 0);
  assert.deepEqual(result!.sbom, []);
});
