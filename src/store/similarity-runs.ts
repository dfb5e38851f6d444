import type { Kysely, Selectable } from 'kysely';
import type { JobsRepository, NewJob } from './jobs.js';
import type { Database, SimilarityRunsTable } from './schema.js';

export type SimilarityRunRow = Selectable<SimilarityRunsTable>;

export interface NewSimilarityRun {
  kind: string;
  userId: number;
  analysisId: number | null;
  /** Same key = same question (kind, asker, subject and parameters): its latest run answers it. */
  requestKey: string;
  request: unknown;
}

const ACTIVE = ['PENDING', 'RUNNING'];

/**
 * Matching and unstripping runs. Every transition names the state it leaves, so a cancel racing the
 * worker is decided by the database: whichever update lands first wins, the other changes nothing.
 */
export class SimilarityRunsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobsRepository,
  ) {}

  /** The run and the job that will do it, in one transaction: a run never waits for a job that is not queued. */
  create(run: NewSimilarityRun, job: (runId: number) => Omit<NewJob, 'analysisId'>): Promise<SimilarityRunRow> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const row = await tx
        .insertInto('similarity_runs')
        .values({
          kind: run.kind,
          user_id: run.userId,
          analysis_id: run.analysisId,
          request_key: run.requestKey,
          request: JSON.stringify(run.request),
          status: 'PENDING',
          progress: 0,
          applied: 0,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // Not tied to the analysis: a requeue ends the analysis's jobs, and this one must then still end its
      // run (a deleted analysis takes the run with it; its job then finds nothing to do).
      await this.jobs.enqueue({ ...job(row.id), analysisId: null }, tx);
      return row;
    });
  }

  get(id: number): Promise<SimilarityRunRow | undefined> {
    return this.db.selectFrom('similarity_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The newest run that answers this request key. */
  latest(requestKey: string): Promise<SimilarityRunRow | undefined> {
    return this.db
      .selectFrom('similarity_runs')
      .selectAll()
      .where('request_key', '=', requestKey)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The newest run of this kind on the analysis (any asker, any parameters). */
  latestOfAnalysis(analysisId: number, kind: string): Promise<SimilarityRunRow | undefined> {
    return this.db
      .selectFrom('similarity_runs')
      .selectAll()
      .where('analysis_id', '=', analysisId)
      .where('kind', '=', kind)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async start(id: number): Promise<boolean> {
    return this.move(id, ['PENDING', 'RUNNING'], { status: 'RUNNING', started_at: Date.now() });
  }

  async progress(id: number, percent: number): Promise<boolean> {
    return this.move(id, ['RUNNING'], { progress: Math.max(0, Math.min(100, Math.floor(percent))) });
  }

  async complete(id: number, result: unknown): Promise<boolean> {
    const now = Date.now();
    return this.move(id, ['RUNNING'], {
      status: 'COMPLETED',
      progress: 100,
      result: JSON.stringify(result),
      finished_at: now,
    });
  }

  async fail(id: number, error: string): Promise<boolean> {
    return this.move(id, ACTIVE, { status: 'FAILED', error, finished_at: Date.now() });
  }

  async cancel(id: number): Promise<boolean> {
    return this.move(id, ACTIVE, { status: 'CANCELLED', finished_at: Date.now() });
  }

  /**
   * Applies a completed run's names once: `write` runs only for the caller that flips `applied`, and a
   * failed write flips it back so a later request can try again.
   */
  async applyOnce(id: number, write: () => Promise<void>): Promise<boolean> {
    const claimed = await this.db
      .updateTable('similarity_runs')
      .set({ applied: 1, updated_at: Date.now() })
      .where('id', '=', id)
      .where('status', '=', 'COMPLETED')
      .where('applied', '=', 0)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    try {
      await write();
    } catch (err) {
      await this.db
        .updateTable('similarity_runs')
        .set({ applied: 0, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      throw err;
    }
    return true;
  }

  private async move(id: number, from: string[], set: Partial<Omit<SimilarityRunRow, 'id'>>): Promise<boolean> {
    const r = await this.db
      .updateTable('similarity_runs')
      .set({ ...set, updated_at: Date.now() })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
