// The worker-thread entry: a malformed sample is a refusal (permanent), not an error to retry; vectors
// cross the thread boundary in one transferred buffer.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { sampleProgram } from '../../src/engine/formats/elf/sample-program.js';
import { analyze } from '../../src/engine/index.js';
import { AnalysisPool } from '../../src/jobs/analysis-pool.js';
import analyzeFile from '../../src/jobs/analysis-task.js';
import { CORPUS } from '../../src/engine/disasm/fixtures.js';
import { HASHED_DIM, LSH_BANDS } from '../../src/shared/simhash.js';

const dir = mkdtempSync(join(tmpdir(), 'binlens-task-'));
const LIMITS = loadConfig({}).analysisLimits;
/** Recovery only: no capability rules, no library identification. */
const NOTHING_MORE = { capabilities: false, rulesDirs: [], sbom: false };
after(() => rmSync(dir, { recursive: true, force: true }));

test('an empty blob claimed as x86-64 is refused with the parser’s reason', async () => {
  const path = join(dir, 'empty');
  writeFileSync(path, new Uint8Array(0));
  const out = await analyzeFile({
    path,
    binaryConfig: { isa: 'x86_64' },
    symbols: null,
    debugPath: null,
    maxBytes: 1 << 20,
    ...NOTHING_MORE,
    limits: LIMITS,
  });
  assert.deepEqual(out, { kind: 'refused', reason: 'empty blob' });
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

test('through the worker pool, the vectors arrive whole: one int8 vector and LSH buckets a function', async () => {
  const path = join(dir, 'program');
  writeFileSync(path, sampleProgram({ bits: 64, little: true, machine: 62 }));
  const pool = new AnalysisPool(1, LIMITS);
  try {
    const out = await pool.run({
      path,
      binaryConfig: null,
      symbols: null,
      debugPath: null,
      maxBytes: 1 << 20,
      ...NOTHING_MORE,
    });
    assert.equal(out.kind, 'done');
    if (out.kind !== 'done') return;
    const v = out.result.vectors!;
    assert.ok(out.result.functionCount > 0);
    assert.equal(v.count, out.result.functionCount);
    assert.ok(v.vectors instanceof Int8Array && v.buckets instanceof Int32Array);
    assert.equal(v.vectors.length, v.count * HASHED_DIM);
    assert.equal(v.buckets.length, v.count * LSH_BANDS);
    assert.equal(v.vectors.buffer, v.buckets.buffer, 'one buffer');
    const direct = (await analyze(readFileSync(path), {})).vectors!;
    assert.deepEqual(v.vectors, direct.vectors);
    assert.deepEqual(v.buckets, direct.buckets);
  } finally {
    await pool.close();
  }
});

test('with capabilities and an SBOM asked for, the worker matches the shipped rules and names libraries', async (t) => {
  const sample = join(CORPUS, 'bin', 'samples', 'sample-win_injector_win-x86_64_mingw-gcc12_O2_stripped.exe');
  if (!existsSync(sample)) return t.skip('../shared/corpus is not present');
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
  });
  assert.equal(out.kind, 'done');
  if (out.kind !== 'done') return;
  assert.deepEqual(out.ruleProblems, []);
  const rules = out.result.capabilities!.matches.map((m) => m.rule);
  assert.ok(rules.includes('create thread in another process'), rules.join(', '));
  assert.ok(out.result.capabilityFeatures!.keys.length > 0);
  assert.deepEqual(out.result.sbom, []);
});
