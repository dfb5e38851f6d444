// Each function's latest decompilation (migration 011), keyed by (analysis_id, vaddr): its status, its result
// and when the job read the names it wrote. A result older than the analysis's last rename, data-type edit or
// re-analysis is stale: served as uninitialised and made again on the next request.
import type { Kysely, Selectable } from 'kysely';
import { FUNCTIONS_PER_CHUNK } from './analysis-rows.js';
import { inBatches, inChunks } from './batches.js';
import type { JobsRepository, NewJob } from './jobs.js';
import type { Database, FunctionDecompilationsTable } from './schema.js';

export type FunctionDecompilationRow = Selectable<FunctionDecompilationsTable>;

/** One function's decompilation as a job made it: the stored result (JSON), or why there is none. */
export interface DecompilationOutcome {
  vaddr: number;
  result: string | null;
  error: string | null;
}

const ACTIVE = ['pending', 'running'];

export class FunctionDecompilationsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobsRepository,
  ) {}

  async rows(analysisId: number, vaddrs: number[], db: Kysely<Database> = this.db) {
    const out: FunctionDecompilationRow[] = [];
    await inBatches([...new Set(vaddrs)], async (batch) => {
      out.push(
        ...(await db
          .selectFrom('function_decompilations')
          .selectAll()
          .where('analysis_id', '=', analysisId)
          .where('vaddr', 'in', batch)
          .execute()),
      );
    });
    return out;
  }

  /**
   * When the analysis last changed what a decompilation spells: a function renamed, data types edited, or the
   * analysis's results replaced (re-analysis); 0 when never.
   */
  async changedAt(analysisId: number, db: Kysely<Database> = this.db): Promise<number> {
    const r = await db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('function_name_history')
          .select((e) => e.fn.max('created_at').as('t'))
          .where('analysis_id', '=', analysisId)
          .as('names'),
        eb
          .selectFrom('function_data_types')
          .select((e) => e.fn.max('last_change').as('t'))
          .where('analysis_id', '=', analysisId)
          .as('types'),
        eb.selectFrom('analysis_results').select('updated_at').where('analysis_id', '=', analysisId).as('results'),
      ])
      .executeTakeFirstOrThrow();
    return Math.max(Number(r.names ?? 0), Number(r.types ?? 0), Number(r.results ?? 0));
  }

  /** A row's result is current: made after the analysis's last change. */
  static fresh(row: FunctionDecompilationRow, changedAt: number): boolean {
    return row.status === 'success' && (row.made_at ?? 0) > changedAt;
  }

  /**
   * Queues the functions at `vaddrs` that have neither a current result nor a decompilation under way — on the
   * analysis's waiting decompile job when it has one (row-locked, so no runner claims it meanwhile), else on
   * `job`, enqueued in the same transaction; `withModel` (a per-function request while a model is configured)
   * marks them to be made with the language model too. ~500 functions a short transaction (a whole analysis's request
   * would otherwise hold SQLite's writer for seconds); returns how many were queued.
   */
  async request(
    analysisId: number,
    vaddrs: number[],
    job: Omit<NewJob, 'analysisId'>,
    withModel = false,
  ): Promise<number> {
    let queued = 0;
    await inChunks(
      [...new Set(vaddrs)],
      async (chunk) => (queued += await this.requestChunk(analysisId, chunk, job, withModel)),
      FUNCTIONS_PER_CHUNK,
    );
    return queued;
  }

  private requestChunk(
    analysisId: number,
    vaddrs: number[],
    job: Omit<NewJob, 'analysisId'>,
    withModel: boolean,
  ): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await this.changedAt(analysisId, tx);
      const rows = new Map((await this.rows(analysisId, vaddrs, tx)).map((r) => [r.vaddr, r]));
      // A current result made without the model is made again when the model is asked for.
      const queue = vaddrs.filter((v) => {
        const r = rows.get(v);
        if (!r) return true;
        if (ACTIVE.includes(r.status)) return false;
        return !FunctionDecompilationsRepository.fresh(r, changed) || (withModel && !r.with_model);
      });
      // One still waiting (queued by a whole-analysis request) is made with the model when its job starts.
      if (withModel)
        await tx
          .updateTable('function_decompilations')
          .set({ with_model: 1 })
          .where('analysis_id', '=', analysisId)
          .where('vaddr', 'in', vaddrs)
          .where('status', '=', 'pending')
          .execute();
      if (queue.length === 0) return 0;
      const waiting = await tx
        .selectFrom('function_decompilations')
        .select('job_id')
        .distinct()
        .where('analysis_id', '=', analysisId)
        .where('status', '=', 'pending')
        .execute();
      // Not tied to the analysis (analysis_id null), as data types: a requeue ends the analysis's jobs.
      const jobId =
        (await this.jobs.newestQueued(
          tx,
          waiting.map((r) => r.job_id),
        )) ?? (await this.jobs.enqueue({ ...job, analysisId: null }, tx));
      const now = Date.now();
      await tx
        .insertInto('function_decompilations')
        .values(
          queue.map((vaddr) => ({
            analysis_id: analysisId,
            vaddr,
            status: 'pending',
            job_id: jobId,
            with_model: withModel ? 1 : 0,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['analysis_id', 'vaddr']).doUpdateSet({
            status: 'pending',
            error: null,
            job_id: jobId,
            with_model: withModel ? 1 : 0,
            updated_at: now,
          }),
        )
        .execute();
      return queue.length;
    });
  }

  /** The functions the job is to decompile (those it has not finished), and whether with the model too. */
  async claimed(jobId: number): Promise<{ vaddr: number; withModel: boolean }[]> {
    const rows = await this.db
      .selectFrom('function_decompilations')
      .select(['vaddr', 'with_model'])
      .where('job_id', '=', jobId)
      .where('status', 'in', ACTIVE)
      .orderBy('vaddr')
      .execute();
    return rows.map((r) => ({ vaddr: r.vaddr, withModel: Boolean(r.with_model) }));
  }

  /** The job has started: its waiting functions are running. */
  start(jobId: number) {
    return this.moveJob(jobId, ['pending'], { status: 'running' });
  }

  /** The job will run again after a transient failure: its functions wait again. */
  retry(jobId: number) {
    return this.moveJob(jobId, ['running'], { status: 'pending' });
  }

  /** The job failed for good: what it had not finished failed with it. */
  fail(jobId: number, reason: string) {
    return this.moveJob(jobId, ACTIVE, { status: 'error', error: reason });
  }

  private async moveJob(jobId: number, from: string[], set: { status: string; error?: string }): Promise<void> {
    await this.db
      .updateTable('function_decompilations')
      .set({ ...set, updated_at: Date.now() })
      .where('job_id', '=', jobId)
      .where('status', 'in', from)
      .execute();
  }

  /**
   * Stores a job's outcomes, ~500 functions a short transaction: success with the result, or error with why.
   * `madeAt` is when the job read the names it wrote. Functions the job was asked for and did not reach fail.
   */
  async store(analysisId: number, jobId: number, madeAt: number, outcomes: DecompilationOutcome[]): Promise<void> {
    await inChunks(
      outcomes,
      (batch) =>
        this.db
          .insertInto('function_decompilations')
          .values(
            batch.map((o) => ({
              analysis_id: analysisId,
              vaddr: o.vaddr,
              status: o.result === null ? 'error' : 'success',
              error: o.result === null ? o.error : null,
              job_id: jobId,
              result: o.result,
              made_at: madeAt,
              updated_at: Date.now(),
            })),
          )
          .onConflict((oc) =>
            oc.columns(['analysis_id', 'vaddr']).doUpdateSet((eb) => ({
              status: eb.ref('excluded.status'),
              error: eb.ref('excluded.error'),
              job_id: eb.ref('excluded.job_id'),
              result: eb.ref('excluded.result'),
              made_at: eb.ref('excluded.made_at'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute(),
      FUNCTIONS_PER_CHUNK,
    );
    await this.fail(jobId, 'the function is no longer among the analysis’s functions: it was re-analysed meanwhile');
  }
}
