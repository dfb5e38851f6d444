// The worker-thread entry: a malformed sample is a refusal (permanent), not an error to retry.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import analyzeFile from '../../src/jobs/analysis-task.js';

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
