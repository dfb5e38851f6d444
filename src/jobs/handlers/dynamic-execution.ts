import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '../../blobs/index.js';
import { decodeAnalysisConfig } from '../../contracts/index.js';
import type { DynamicReport } from '../../engine/index.js';
import type { JobRow, Store } from '../../store/index.js';
import { adoptChildren, type FoundBinary } from '../child-binaries.js';
import { emulate } from '../emulation.js';
import { PermanentJobError } from '../failures.js';
import type { JobHandler } from '../runner.js';

/**
 * Runs an analysis's sample in the emulator (in a process of its own, jobs/emulation.ts) with the arguments
 * its create request gave, for at most `wallMs`, and keeps the report — or, when the sample cannot be run here, why — with the
 * status the list filters on. The analysis's log says how it went.
 */
/** Largest dump the blob store takes (the report keeps 32 MiB of dumps per run in all). */
const MAX_DUMP = 64 << 20;

export const dynamicExecutionJobHandler = (store: Store, blobs: BlobStore, wallMs: number): JobHandler => ({
  async run(job: JobRow) {
    const a = job.analysis_id === null ? undefined : await store.analyses.get(job.analysis_id);
    if (!a) return;
    if (!(await blobs.has(a.sha256))) throw new PermanentJobError(`sample ${a.sha256} is missing from the blob store`);
    const args = decodeAnalysisConfig(a.config).analysis_config.sandbox_config?.command_line_args ?? '';
    const argv = [a.binary_name, ...args.split(/\s+/).filter(Boolean)];
    const started = performance.now();
    const dumpDir = await mkdtemp(join(tmpdir(), 'binlens-dumps-'));
    try {
      const answer = await emulate({ path: await blobs.localPath(a.sha256), argv, wallMs, dumpDir });
      if (answer.kind === 'refused') {
        await store.dynamicExecutions.finish(a.id, { error: answer.reason });
        await store.events.log(a.id, `Dynamic execution: not run: ${answer.reason}`);
        return;
      }
      // Each dump's bytes into the blob store, where the dump route reads them (by the hash the report gives),
      // and each dump a child binary of the sample, analysed when it is an executable the engine has a model for.
      const { dumps } = JSON.parse(answer.report) as DynamicReport;
      const found: FoundBinary[] = [];
      for (const [i, dump] of dumps.entries()) {
        const blob = await blobs.stage(createReadStream(join(dumpDir, String(i))), MAX_DUMP);
        await blobs.commit(blob);
        found.push({ sha256: blob.sha256, size: blob.size, head: blob.head, name: dump.name, location: dump.name });
      }
      const finder = {
        binaryId: a.binary_id,
        userId: a.user_id,
        scope: a.analysis_scope,
        origin: 'dump' as const,
        maxAttempts: job.max_attempts,
      };
      const analysed = await adoptChildren(store, finder, found);
      if (found.length > 0)
        await store.events.log(
          a.id,
          `Dynamic execution: ${found.length} dumps kept; ${analysed} analysed as child binaries`,
        );
      await store.events.log(a.id, `Dynamic execution: done in ${Math.round(performance.now() - started)} ms`);
      // Last: whoever sees SUCCESS finds the run's child binaries, their analyses and its log complete.
      await store.dynamicExecutions.finish(a.id, { report: answer.report });
    } finally {
      await rm(dumpDir, { recursive: true, force: true });
    }
  },

  async failed(job: JobRow, err: Error, retrying: boolean) {
    if (job.analysis_id === null || !(await store.analyses.get(job.analysis_id))) return;
    if (!retrying) await store.dynamicExecutions.finish(job.analysis_id, { error: err.message });
    await store.events.log(job.analysis_id, `Dynamic execution: failed: ${err.message}${retrying ? '; retrying' : ''}`);
  },
});
