import type { BlobStore } from '../../blobs/index.js';
import type { JobRow, Store } from '../../store/index.js';
import { PermanentJobError } from '../failures.js';
import type { JobHandler } from '../runner.js';
import { sampleInput, type SampleInput } from '../sample-input.js';

/** What a per-function job's worker thread is given: the sample, and where and for which job to store. */
export type FunctionJobInput = SampleInput & { databaseUrl: string; analysisId: number; jobId: number };

/** Work done for some functions of an analysis in an analysis thread, with a status per function. */
export interface FunctionJobKind<O extends { kind: 'done' }> {
  /** How the analysis's log names it: `Data types`, `Decompilation`. */
  label: string;
  /** The functions' statuses as the job moves: running, waiting again, failed with what it had not finished. */
  rows: {
    start(jobId: number): Promise<void>;
    retry(jobId: number): Promise<void>;
    fail(jobId: number, reason: string): Promise<void>;
  };
  /** Runs it in a thread; the thread stores every function's outcome itself. */
  run(input: FunctionJobInput): Promise<O | { kind: 'refused'; reason: string }>;
  /** The log line of a finished run. */
  done(out: O, ms: number): string;
}

const payloadOf = (job: JobRow) => JSON.parse(job.payload) as { analysisId: number; debugSha256: string | null };

/**
 * Runs a per-function job (data-type generation, decompilation) of a finished analysis: the functions it was
 * asked for move pending → running → done or failed, and the analysis's log says when it starts, retries, fails
 * and ends.
 */
export class FunctionJobHandler<O extends { kind: 'done' }> implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly maxAnalysisBytes: number,
    /** The database the worker threads store results in: this store's. */
    private readonly databaseUrl: string,
    private readonly kind: FunctionJobKind<O>,
  ) {}

  async run(job: JobRow): Promise<void> {
    const { analysisId, debugSha256 } = payloadOf(job);
    const analysis = await this.store.analyses.get(analysisId);
    if (!analysis) return; // deleted while queued: its functions' rows went with it
    // Requeued meanwhile: its functions are being replaced, so there is nothing whole to match results to.
    if (analysis.status !== 'Complete')
      throw new PermanentJobError(`the analysis is ${analysis.status} (re-analysed): ask again once it is Complete`);
    const { events } = this.store;
    await this.kind.rows.start(job.id);
    await events.log(analysisId, `${this.kind.label}: started (attempt ${job.attempts} of ${job.max_attempts})`);
    const started = performance.now();
    const out = await this.kind.run({
      ...(await sampleInput(this.blobs, analysis, debugSha256, this.maxAnalysisBytes)),
      databaseUrl: this.databaseUrl,
      analysisId,
      jobId: job.id,
    });
    if ((out as { kind?: unknown }).kind === 'refused') throw new PermanentJobError((out as { reason: string }).reason);
    await events.log(
      analysisId,
      `${this.kind.label}: ${this.kind.done(out as O, Math.round(performance.now() - started))}`,
    );
  }

  async failed(job: JobRow, err: Error, retrying: boolean, retryInMs: number): Promise<void> {
    const { analysisId } = payloadOf(job);
    if (!(await this.store.analyses.get(analysisId))) return;
    const { label, rows } = this.kind;
    if (retrying) {
      await rows.retry(job.id);
      await this.store.events.log(
        analysisId,
        `${label}: attempt ${job.attempts} failed: ${err.message}; retrying in ${Math.round(retryInMs / 1000)} s`,
      );
    } else {
      await rows.fail(job.id, err.message);
      await this.store.events.log(analysisId, `${label}: failed: ${err.message}`);
    }
  }
}
