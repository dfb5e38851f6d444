import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseDriver } from './driver.js';
import type { Database, JobsTable } from './schema.js';

export type JobRow = Selectable<JobsTable>;
export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface NewJob {
  kind: string;
  analysisId: number | null;
  payload: unknown;
  priority?: number;
  maxAttempts: number;
}

/**
 * The durable job queue. A claim takes the best ready job — queued and due, or running with an expired
 * lease (its worker died) — and leases it; the worker renews the lease while it runs.
 */
export class JobsRepository {
  constructor(private readonly driver: DatabaseDriver) {}

  private get db(): Kysely<Database> {
    return this.driver.db;
  }

  async enqueue(job: NewJob, tx: Kysely<Database> | Transaction<Database> = this.db): Promise<number> {
    const now = Date.now();
    const row = await tx
      .insertInto('jobs')
      .values({
        kind: job.kind,
        analysis_id: job.analysisId,
        payload: JSON.stringify(job.payload ?? null),
        state: 'queued',
        priority: job.priority ?? 0,
        attempts: 0,
        max_attempts: job.maxAttempts,
        run_after: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * The newest of the jobs `ids` that no runner has claimed yet, row-locked until `tx` ends: work added to it
   * in `tx` is done by that job (per-function requests join their analysis's waiting job).
   */
  async newestQueued(tx: Transaction<Database>, ids: (number | null)[]): Promise<number | undefined> {
    const known = [...new Set(ids.filter((id) => id !== null))];
    if (known.length === 0) return undefined;
    const q = tx
      .selectFrom('jobs')
      .select('id')
      .where('id', 'in', known)
      .where('state', '=', 'queued')
      .orderBy('id', 'desc')
      .limit(1);
    return (await this.driver.lockForClaim(q).executeTakeFirst())?.id;
  }

  /** One statement, so the claim is atomic on SQLite (single writer) and on PostgreSQL (SKIP LOCKED). */
  claim(owner: string, leaseMs: number): Promise<JobRow | undefined> {
    const now = Date.now();
    const candidate = this.driver.lockForClaim(
      this.db
        .selectFrom('jobs')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', now)]),
            eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<', now)]),
          ]),
        )
        .orderBy('priority', 'desc')
        .orderBy('id')
        .limit(1),
    );
    return this.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        lease_owner: owner,
        lease_expires_at: now + leaseMs,
        attempts: eb('attempts', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', candidate)
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends the lease; false when the job was taken over or cancelled meanwhile. */
  async heartbeat(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const now = Date.now();
    const r = await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: now + leaseMs, updated_at: now })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async finish(id: number, owner: string, state: 'done' | 'failed', error: string | null = null): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ state, last_error: error, lease_owner: null, lease_expires_at: null, updated_at: Date.now() })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Puts a job back in the queue after a transient failure, to run again after `delayMs`. */
  async retryLater(id: number, owner: string, delayMs: number, error: string): Promise<boolean> {
    const now = Date.now();
    const r = await this.db
      .updateTable('jobs')
      .set({
        state: 'queued',
        run_after: now + delayMs,
        last_error: error,
        lease_owner: null,
        lease_expires_at: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  get(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Ends every unfinished job of an analysis (before a requeue starts a new one). */
  async cancelForAnalysis(analysisId: number, tx: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    await tx
      .updateTable('jobs')
      .set({
        state: 'failed',
        last_error: 'superseded',
        lease_owner: null,
        lease_expires_at: null,
        updated_at: Date.now(),
      })
      .where('analysis_id', '=', analysisId)
      .where('state', 'in', ['queued', 'running'])
      .execute();
  }
}
