import { randomUUID } from 'node:crypto';
import { ANALYSIS_JOB_KIND } from '../contracts/index.js';
import type { Logger } from '../shared/logger.js';
import type { JobRow, Store } from '../store/index.js';
import { PermanentJobError, retryDelayMs } from './failures.js';

export interface JobHandler {
  run(job: JobRow): Promise<void>;
  /** Records a failed attempt; `retrying` tells whether another attempt is scheduled. */
  failed(job: JobRow, err: Error, retrying: boolean, retryInMs: number): Promise<void>;
}

export interface RunnerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs?: number;
  retryBaseMs?: number;
  logger: Logger;
}

/**
 * Claims jobs from the database queue and runs them, `concurrency` at a time. A running job's lease is
 * renewed every third of its length; a runner that dies stops renewing, and after the lease expires any
 * runner (this process after a restart, or another node) takes the job over.
 */
/** How a job is named in the log: `analysis 12`, or its kind and id. */
const jobTitle = (job: JobRow) =>
  job.kind === ANALYSIS_JOB_KIND && job.analysis_id !== null
    ? `analysis ${job.analysis_id}`
    : `${job.kind} job ${job.id}${job.analysis_id === null ? '' : ` of analysis ${job.analysis_id}`}`;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

export class JobRunner {
  readonly owner = `runner-${randomUUID()}`;
  private running = 0;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly handlers: Record<string, JobHandler>,
    private readonly opts: RunnerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.poke();
  }

  /** Looks for work now (after an enqueue in this process) instead of at the next poll. */
  poke(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.fill();
  }

  /** Stops claiming; waits for the jobs in flight to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running < this.opts.concurrency) {
      let job: JobRow | undefined;
      try {
        job = await this.store.jobs.claim(this.owner, this.opts.leaseMs);
      } catch (err) {
        this.opts.logger.error({ err }, 'job claim failed');
        break;
      }
      if (!job) break;
      this.running++;
      const p = this.execute(job).finally(() => {
        this.running--;
        this.inFlight.delete(p);
        this.poke();
      });
      this.inFlight.add(p);
    }
    if (!this.stopped && !this.timer) this.timer = setTimeout(() => this.poke(), this.opts.pollMs ?? 250);
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers[job.kind];
    const beat = setInterval(
      () => {
        this.store.jobs.heartbeat(job.id, this.owner, this.opts.leaseMs).catch((err: unknown) => {
          this.opts.logger.warn({ err, job: job.id }, 'job heartbeat failed');
        });
      },
      Math.max(this.opts.leaseMs / 3, 50),
    );
    const what = jobTitle(job);
    const started = performance.now();
    const fields = { job: job.id, kind: job.kind, analysis: job.analysis_id, attempt: job.attempts };
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind "${job.kind}"`);
      this.opts.logger.info(fields, `${what} started (attempt ${job.attempts} of ${job.max_attempts})`);
      await handler.run(job);
      await this.store.jobs.finish(job.id, this.owner, 'done');
      this.opts.logger.info(fields, `${what} done in ${seconds(started)}`);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const retrying = !(err instanceof PermanentJobError) && job.attempts < job.max_attempts;
      const delay = retryDelayMs(job.attempts, this.opts.retryBaseMs);
      const next = retrying ? `retrying in ${Math.round(delay / 1000)} s` : 'not retried';
      this.opts.logger.warn(
        { ...fields, retrying, err: err.message },
        `${what} failed after ${seconds(started)}: ${err.message}; ${next}`,
      );
      try {
        await handler?.failed(job, err, retrying, delay);
        if (retrying) await this.store.jobs.retryLater(job.id, this.owner, delay, err.message);
        else await this.store.jobs.finish(job.id, this.owner, 'failed', err.message);
      } catch (recordErr) {
        // The lease will expire and the job will be taken up again: nothing is lost.
        this.opts.logger.error({ err: recordErr, job: job.id }, 'recording a job failure failed');
      }
    } finally {
      clearInterval(beat);
    }
  }
}
