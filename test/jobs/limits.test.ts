// Per-analysis limits through the job runner: an analysis past its time, heap or output limit ends in Error
// at once — never retried — with a log line naming the setting that raises the limit, and the pool goes on.
// SQLite only: the limits live in the worker pool and the handler, not the queue, whose failure paths
// recovery.test.ts runs on both databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import type { AnalysisLimits } from '../../src/shared/analysis-limits.js';
import { backends } from '../helpers/backends.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { elf64, noise } from '../helpers/samples.js';

const sqlite = backends.find((b) => b.name === 'sqlite')!;
const RAW_X86_64 = { binary_config: { isa: 'x86_64', platform: 'linux' } };

async function withLimits(limits: Partial<AnalysisLimits>, body: (h: Harness) => Promise<void>): Promise<void> {
  const h = await createHarness(await sqlite.create(), {
    // A short lease: its heartbeats must not keep an analysis alive past the time limit.
    jobLeaseMs: 300,
    analysisLimits: { ...loadConfig({}).analysisLimits, ...limits },
  });
  try {
    await body(h);
  } finally {
    await h.service.close();
    await h.db.drop();
  }
}

const logsOf = async (h: Harness, id: number) =>
  (await h.request('GET', `/v2/analyses/${id}/logs`, h.keys.alice)).json().data.logs as string;

/** Error at once from the first attempt, the limit's line last; a retry would have logged "retrying". */
async function assertStoppedAtLimit(h: Harness, id: number, line: RegExp): Promise<void> {
  assert.equal(await h.waitForStatus(h.keys.alice, id), 'Error');
  const logs = await logsOf(h, id);
  assert.match(logs, /Analysis started \(attempt 1 of 6\)/);
  assert.match(logs.trimEnd().split('\n').at(-1)!, line);
  assert.doesNotMatch(logs, /retrying|attempt 2/);
}

describe('analysis limits', () => {
  test('time: an analysis still running at BINLENS_ANALYSIS_TIMEOUT_MS ends in Error, not retried', () =>
    withLimits({ timeoutMs: 1000 }, async (h) => {
      // 2 MB of noise as code takes ~6 s.
      const id = await h.analysis(h.keys.alice, noise(2_000_000), RAW_X86_64);
      await assertStoppedAtLimit(
        h,
        id,
        /Error: time limit exceeded: the analysis was still running after 1000 ms \(BINLENS_ANALYSIS_TIMEOUT_MS raises the limit\)/,
      );
    }));

  test('memory: a thread past BINLENS_ANALYSIS_MAX_MEMORY_MB ends the analysis in Error; the next one completes', () =>
    withLimits({ maxMemoryMb: 48 }, async (h) => {
      const id = await h.analysis(h.keys.alice, noise(1_000_000), RAW_X86_64);
      await assertStoppedAtLimit(
        h,
        id,
        /Error: memory limit exceeded: the analysis needed more than 48 MiB of heap \(BINLENS_ANALYSIS_MAX_MEMORY_MB raises the limit\)/,
      );
      const next = await h.analysis(h.keys.alice, elf64(21));
      assert.equal(await h.waitForStatus(h.keys.alice, next), 'Complete');
    }));

  test('output: a result with more functions than BINLENS_ANALYSIS_MAX_FUNCTIONS ends in Error, nothing stored', () =>
    withLimits({ maxFunctions: 10 }, async (h) => {
      const id = await h.analysis(h.keys.alice, Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 })));
      await assertStoppedAtLimit(
        h,
        id,
        /Error: output limit exceeded: the analysis found \d+ functions, more than 10 \(BINLENS_ANALYSIS_MAX_FUNCTIONS raises the limit\)/,
      );
      const functions = await h.request('GET', `/v2/analyses/${id}/functions/list`, h.keys.alice);
      assert.deepEqual(functions.json().data.functions, []);
    }));
});
