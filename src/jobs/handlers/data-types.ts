import type { BlobStore } from '../../blobs/index.js';
import type { DataTypesJobPayload } from '../../contracts/index.js';
import type { JobRow, Store } from '../../store/index.js';
import type { AnalysisPool } from '../analysis-pool.js';
import { PermanentJobError } from '../failures.js';
import type { JobHandler } from '../runner.js';
import { sampleInput } from '../sample-input.js';

const payloadOf = (job: JobRow) => JSON.parse(job.payload) as DataTypesJobPayload;

/**
 * Generates an analysis's data types in an analysis thread (data-types-task.ts), which stores every function's
 * record; the functions the job was asked for move pending → running → completed or failed, and the analysis's
 * log follows the engine's progress.
 */
export class DataTypesJobHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly pool: AnalysisPool,
    private readonly maxAnalysisBytes: number,
    /** The database the worker threads store records in: this store's. */
    private readonly databaseUrl: string,
  ) {}

  async run(job: JobRow): Promise<void> {
    const { analysisId, debugSha256 } = payloadOf(job);
    const analysis = await this.store.analyses.get(analysisId);
    if (!analysis) return; // deleted while queued: its data types went with it
    // Requeued meanwhile: its functions are being replaced, so there is nothing whole to match records to.
    if (analysis.status !== 'Complete')
      throw new PermanentJobError(`the analysis is ${analysis.status} (re-analysed): ask again once it is Complete`);
    const { events } = this.store;
    await this.store.functionDataTypes.start(job.id);
    await events.log(analysisId, `Data types: generation started (attempt ${job.attempts} of ${job.max_attempts})`);
    const started = performance.now();
    const out = await this.pool.generateTypes({
      ...(await sampleInput(this.blobs, analysis, debugSha256, this.maxAnalysisBytes)),
      databaseUrl: this.databaseUrl,
      analysisId,
      jobId: job.id,
    });
    if (out.kind === 'refused') throw new PermanentJobError(out.reason);
    await events.log(
      analysisId,
      `Data types: recovered for ${out.recovered} of ${out.functions} functions in ` +
        `${Math.round(performance.now() - started)} ms`,
    );
  }

  async failed(job: JobRow, err: Error, retrying: boolean, retryInMs: number): Promise<void> {
    const { analysisId } = payloadOf(job);
    if (!(await this.store.analyses.get(analysisId))) return;
    if (retrying) {
      await this.store.functionDataTypes.retry(job.id);
      await this.store.events.log(
        analysisId,
        `Data types: attempt ${job.attempts} failed: ${err.message}; retrying in ${Math.round(retryInMs / 1000)} s`,
      );
    } else {
      await this.store.functionDataTypes.fail(job.id, err.message);
      await this.store.events.log(analysisId, `Data types: generation failed: ${err.message}`);
    }
  }
}
