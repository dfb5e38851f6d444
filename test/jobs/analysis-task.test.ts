// The worker-thread entry: a malformed sample is a refusal (permanent), not an error to retry; vectors
// cross the thread boundary in one transferred buffer.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sampleProgram } from '../../src/engine/formats/elf/sample-program.js';
import { analyze } from '../../src/engine/index.js';
import { AnalysisPool } from '../../src/jobs/analysis-pool.js';
import analyzeFile from '../../src/jobs/analysis-task.js';
import { HASHED_DIM, LSH_BANDS } from '../../src/shared/simhash.js';

const dir = mkdtempSync(join(tmpdir(), 'binlens-task-'));
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
  });
  assert.deepEqual(out, { kind: 'refused', reason: 'empty blob' });
});

test('a sample over the analysis limit is refused before it is read', async () => {
  const path = join(dir, 'big');
  writeFileSync(path, new Uint8Array(2048));
  const out = await analyzeFile({ path, binaryConfig: null, symbols: null, debugPath: null, maxBytes: 1024 });
  assert.deepEqual(out, { kind: 'refused', reason: 'sample is 2048 bytes; the analysis limit is 1024' });
});

test('a file that is not there is an error (transient: the blob store may catch up)', async () => {
  await assert.rejects(
    analyzeFile({ path: join(dir, 'missing'), binaryConfig: null, symbols: null, debugPath: null, maxBytes: 1024 }),
  );
});

test('through the worker pool, the vectors arrive whole: one int8 vector and LSH buckets a function', async () => {
  const path = join(dir, 'program');
  writeFileSync(path, sampleProgram({ bits: 64, little: true, machine: 62 }));
  const pool = new AnalysisPool(1, 0);
  try {
    const out = await pool.run({ path, binaryConfig: null, symbols: null, debugPath: null, maxBytes: 1 << 20 });
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
