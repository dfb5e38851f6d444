// Each function's data types (migration 010), keyed by (analysis_id, vaddr): the generation status, the
// engine's record, the owner's version and the versions edits replaced. Every write keeps the analysis's type
// table and the function's uses in step with what it serves (analysis-data-types.ts).
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { typesOfRecord } from '../shared/data-type-spelling.js';
import type { FunctionTypesRecord } from '../shared/type-records.js';
import { FUNCTIONS_PER_CHUNK } from './analysis-rows.js';
import type { AnalysisDataTypesRepository, DataTypeWrite } from './analysis-data-types.js';
import { inBatches, inChunks } from './batches.js';
import type { DatabaseDriver } from './driver.js';
import type { JobsRepository, NewJob } from './jobs.js';
import type { Database, FunctionDataTypesTable } from './schema.js';

export type FunctionDataTypesRow = Selectable<FunctionDataTypesTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** A generation's outcome for one function: its record, or none (the reason is the generation's). */
export interface GeneratedTypes {
  vaddr: number;
  record: FunctionTypesRecord | null;
}

/** One change of a function's data types by a person. */
export interface DataTypesEdit {
  analysisId: number;
  vaddr: number;
  record: FunctionTypesRecord;
  userId: number;
  /** The version the change was made on; null: whatever is current (/v3 signature updates and copies). */
  expected: number | null;
  /** Where a copied signature came from. */
  from: { analysisId: number; functionId: number } | null;
}

export interface DataTypesHistoryRow {
  version: number;
  record: FunctionTypesRecord;
  /** Who made the version (null: the engine) and when; who replaced it and when. */
  author: string | null;
  created_at: number;
  replaced_by: string;
  replaced_at: number;
}

/** What a function serves: its owner's version, else the engine's; null when it has neither. */
export const servedRecord = (r: Pick<FunctionDataTypesRow, 'edited' | 'generated'>): FunctionTypesRecord | null => {
  const text = r.edited ?? r.generated;
  return text === null ? null : (JSON.parse(text) as FunctionTypesRecord);
};

/**
 * A record as stored: structures, unions, enumerations and typedefs live in the analysis's type table (one
 * definition for every function using them), so a record keeps only its globals.
 */
const stored = (r: FunctionTypesRecord) => JSON.stringify({ ...r, deps: r.deps.filter((d) => d.kind === 'global') });

const ACTIVE = ['pending', 'running'];

export class FunctionDataTypesRepository {
  constructor(
    private readonly driver: DatabaseDriver,
    private readonly jobs: JobsRepository,
    private readonly types: AnalysisDataTypesRepository,
  ) {}

  private get db(): Kysely<Database> {
    return this.driver.db;
  }

  /** The rows of the functions at `vaddrs` (those that have one). */
  async rows(analysisId: number, vaddrs: number[], db: Db = this.db): Promise<FunctionDataTypesRow[]> {
    const out: FunctionDataTypesRow[] = [];
    await inBatches([...new Set(vaddrs)], async (batch) => {
      out.push(
        ...(await db
          .selectFrom('function_data_types')
          .selectAll()
          .where('analysis_id', '=', analysisId)
          .where('vaddr', 'in', batch)
          .execute()),
      );
    });
    return out;
  }

  /** The functions a generation request named or a person changed, as they are now (id, size, name), by id. */
  listed(
    analysisId: number,
  ): Promise<(FunctionDataTypesRow & { function_id: number; function_size: number; function_name: string })[]> {
    return this.db
      .selectFrom('function_data_types as t')
      .innerJoin('functions as f', (j) =>
        j.onRef('f.analysis_id', '=', 't.analysis_id').onRef('f.vaddr', '=', 't.vaddr'),
      )
      .selectAll('t')
      .select(['f.id as function_id', 'f.size as function_size', 'f.name as function_name'])
      .where('t.analysis_id', '=', analysisId)
      .where((eb) => eb.or([eb('t.requested', '=', 1), eb('t.edited', 'is not', null)]))
      .orderBy('f.id')
      .execute();
  }

  /**
   * A generation request for the functions at `vaddrs`: marks them requested and queues those never generated,
   * whose last generation failed, or generated before the analysis's current results (it was re-analysed since)
   * — on the analysis's queued job when it has one (row-locked, so no runner claims it meanwhile), else on
   * `job`, enqueued in the same transaction. Functions pending, running or generated since stay as they are.
   */
  async request(analysisId: number, vaddrs: number[], job: Omit<NewJob, 'analysisId'>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const rows = new Map((await this.rows(analysisId, vaddrs, tx)).map((r) => [r.vaddr, r]));
      const results = await tx
        .selectFrom('analysis_results')
        .select('updated_at')
        .where('analysis_id', '=', analysisId)
        .executeTakeFirst();
      const stale = (r: FunctionDataTypesRow) =>
        r.status === 'failed' || (r.status === 'completed' && (r.generated_at ?? 0) < (results?.updated_at ?? 0));
      const queue = vaddrs.filter((v) => !rows.has(v) || stale(rows.get(v)!));
      await inBatches([...rows.keys()], (batch) =>
        tx
          .updateTable('function_data_types')
          .set({ requested: 1, updated_at: now })
          .where('analysis_id', '=', analysisId)
          .where('vaddr', 'in', batch)
          .execute(),
      );
      if (queue.length === 0) return;
      // Not tied to the analysis (analysis_id null), as similarity runs: a requeue ends the analysis's jobs,
      // and this one must still end its functions' generation.
      const jobId =
        (await this.queuedJob(tx, analysisId)) ?? (await this.jobs.enqueue({ ...job, analysisId: null }, tx));
      await inBatches(queue, (batch) =>
        tx
          .insertInto('function_data_types')
          .values(
            batch.map((vaddr) => ({
              analysis_id: analysisId,
              vaddr,
              status: 'pending',
              requested: 1,
              job_id: jobId,
              version: 0,
              updated_at: now,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(['analysis_id', 'vaddr'])
              .doUpdateSet({ status: 'pending', error: null, requested: 1, job_id: jobId, updated_at: now }),
          )
          .execute(),
      );
    });
  }

  /** A data-types job of the analysis that no runner has claimed yet, locked until the transaction ends. */
  private async queuedJob(tx: Transaction<Database>, analysisId: number): Promise<number | undefined> {
    const waiting = await tx
      .selectFrom('function_data_types')
      .select('job_id')
      .distinct()
      .where('analysis_id', '=', analysisId)
      .where('status', '=', 'pending')
      .execute();
    return this.jobs.newestQueued(
      tx,
      waiting.map((r) => r.job_id),
    );
  }

  /** The job has started: its waiting functions are running. */
  async start(jobId: number): Promise<void> {
    await this.moveJob(jobId, ['pending'], { status: 'running' });
  }

  /** The job will run again after a transient failure: its functions wait again. */
  async retry(jobId: number): Promise<void> {
    await this.moveJob(jobId, ['running'], { status: 'pending' });
  }

  /** The job failed for good: what it had not finished failed with it. */
  async fail(jobId: number, reason: string): Promise<void> {
    await this.moveJob(jobId, ACTIVE, { status: 'failed', error: reason });
  }

  private async moveJob(jobId: number, from: string[], set: { status: string; error?: string }): Promise<void> {
    await this.db
      .updateTable('function_data_types')
      .set({ ...set, updated_at: Date.now() })
      .where('job_id', '=', jobId)
      .where('status', 'in', from)
      .execute();
  }

  /**
   * Stores a generation's outcome for every function of the analysis, ~500 functions a short transaction: the
   * record, or `reason` for having none. A function its owner edited keeps serving the edit (the new record is
   * kept beside it); for the others the served record, its uses and the type table follow the new one, and
   * data_types_version goes up when it changed. Functions of the job that are no longer among the analysis's
   * (re-analysed meanwhile) then fail.
   */
  async storeGenerated(analysisId: number, jobId: number, outcomes: GeneratedTypes[], reason: string): Promise<void> {
    await inChunks(
      outcomes,
      (batch) =>
        this.db.transaction().execute(async (tx) => {
          const now = Date.now();
          await tx
            .insertInto('function_data_types')
            .values(
              batch.map((o) => ({
                analysis_id: analysisId,
                vaddr: o.vaddr,
                status: o.record ? 'completed' : 'failed',
                error: o.record ? null : reason,
                job_id: jobId,
                generated: o.record ? stored(o.record) : null,
                generated_at: o.record ? now : null,
                version: o.record ? 1 : 0,
                updated_at: now,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['analysis_id', 'vaddr']).doUpdateSet((eb) => ({
                status: eb.ref('excluded.status'),
                error: eb.ref('excluded.error'),
                job_id: eb.ref('excluded.job_id'),
                generated: sql<string>`coalesce(excluded.generated, function_data_types.generated)`,
                generated_at: sql<number>`coalesce(excluded.generated_at, function_data_types.generated_at)`,
                version: sql<number>`case when function_data_types.edited is null and excluded.generated is not null
                  and function_data_types.generated is distinct from excluded.generated
                  then function_data_types.version + 1 else function_data_types.version end`,
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
          const edited = await tx
            .selectFrom('function_data_types')
            .select('vaddr')
            .where('analysis_id', '=', analysisId)
            .where(
              'vaddr',
              'in',
              batch.map((o) => o.vaddr),
            )
            .where('edited', 'is not', null)
            .execute();
          const keep = new Set(edited.map((r) => r.vaddr));
          const served = batch.filter((o) => o.record && !keep.has(o.vaddr)) as {
            vaddr: number;
            record: FunctionTypesRecord;
          }[];
          await this.writeUses(tx, analysisId, served, { source: 'SYSTEM', from: null });
        }),
      FUNCTIONS_PER_CHUNK,
    );
    await this.fail(jobId, 'the function is no longer among the analysis’s functions: it was re-analysed meanwhile');
  }

  /**
   * Makes `record` the function's data types, as a new version by the editor (the version it replaces goes to
   * the history with who made it and when); with `expected`, only when the function is still at that version.
   * A generation pending or running stays so (it will not overwrite the edit). Returns the new row, or the
   * current version when it is not the expected one.
   */
  edit(e: DataTypesEdit): Promise<{ row: FunctionDataTypesRow } | { conflict: number }> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const where = { analysisId: e.analysisId, vaddr: e.vaddr };
      const current = async () => (await this.rows(e.analysisId, [e.vaddr], tx))[0];
      const row = await current();
      const version = row?.version ?? 0;
      if (e.expected !== null && e.expected !== version) return { conflict: version };
      const replaced = row?.edited ?? row?.generated ?? null;
      if (row && replaced !== null)
        await tx
          .insertInto('function_data_type_history')
          .values({
            analysis_id: where.analysisId,
            vaddr: where.vaddr,
            version,
            record: replaced,
            user_id: row.edited ? row.edited_by : null,
            created_at: (row.edited ? row.last_change : row.generated_at) ?? row.updated_at,
            replaced_by: e.userId,
            replaced_at: now,
          })
          .execute();
      const change = {
        edited: stored(e.record),
        edited_by: e.userId,
        last_change: now,
        source_function_id: e.from?.functionId ?? null,
        updated_at: now,
      };
      const written = row
        ? Number(
            (
              await tx
                .updateTable('function_data_types')
                .set({
                  ...change,
                  version: version + 1,
                  status: sql<string>`case when status in ('pending', 'running') then status else 'completed' end`,
                  error: sql<null>`case when status in ('pending', 'running') then error else null end`,
                })
                .where('analysis_id', '=', where.analysisId)
                .where('vaddr', '=', where.vaddr)
                .where('version', '=', version)
                .executeTakeFirst()
            ).numUpdatedRows,
          )
        : Number(
            (
              await tx
                .insertInto('function_data_types')
                .values({
                  analysis_id: where.analysisId,
                  vaddr: where.vaddr,
                  status: 'completed',
                  version: 1,
                  ...change,
                })
                .onConflict((oc) => oc.columns(['analysis_id', 'vaddr']).doNothing())
                .executeTakeFirst()
            ).numInsertedOrUpdatedRows ?? 0,
          );
      // Another edit landed between the read and the write.
      if (written !== 1) return { conflict: (await current())?.version ?? 0 };
      await this.writeUses(tx, e.analysisId, [{ vaddr: e.vaddr, record: e.record }], { source: 'USER', from: e.from });
      return { row: (await current())! };
    });
  }

  /** The versions of a function's data types that edits replaced, oldest first. */
  async history(analysisId: number, vaddr: number): Promise<DataTypesHistoryRow[]> {
    const rows = await this.db
      .selectFrom('function_data_type_history as h')
      .leftJoin('users as a', 'a.id', 'h.user_id')
      .leftJoin('users as r', 'r.id', 'h.replaced_by')
      .select([
        'h.version',
        'h.record',
        'h.created_at',
        'h.replaced_at',
        'a.username as author',
        'r.username as replacer',
      ])
      .where('h.analysis_id', '=', analysisId)
      .where('h.vaddr', '=', vaddr)
      .orderBy('h.id')
      .execute();
    return rows.map((r) => ({
      version: r.version,
      record: JSON.parse(r.record) as FunctionTypesRecord,
      author: r.author,
      created_at: r.created_at,
      replaced_by: r.replacer ?? '',
      replaced_at: r.replaced_at,
    }));
  }

  /** Registers the types of the served records in the analysis's table and points the functions' uses at them. */
  private async writeUses(
    tx: Db,
    analysisId: number,
    served: { vaddr: number; record: FunctionTypesRecord }[],
    write: DataTypeWrite,
  ): Promise<void> {
    const entries = served.map((s) => typesOfRecord(s.record));
    const ids = await this.types.register(tx, analysisId, entries.flat(), write);
    await this.types.setUses(
      tx,
      analysisId,
      served.map((s) => s.vaddr),
      served.map((s, i) => ({ vaddr: s.vaddr, names: entries[i]!.map((e) => e.name) })),
      ids,
    );
  }
}
