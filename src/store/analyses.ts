import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { clearAnalysis } from './analysis-rows.js';
import { insertBinary } from './binaries.js';
import type { JobsRepository, NewJob } from './jobs.js';
import { inBatches } from './batches.js';
import { likePattern } from './like.js';
import type { AnalysesTable, Database } from './schema.js';

export type AnalysisRow = Selectable<AnalysesTable>;
export type AnalysisWithOwner = AnalysisRow & { username: string; owner_team_id: number | null };

export interface Viewer {
  id: number;
  teamId: number | null;
}

export interface NewAnalysis {
  userId: number;
  sha256: string;
  binaryName: string;
  binarySize: number;
  scope: string;
  modelName: string;
  baseAddress: number | null;
  debugHash: string | null;
  /** The create request's settings, as JSON text (contracts/stored-config.ts writes and reads it). */
  config: string;
  tags: string[];
  /** An existing binary without an analysis (a child binary) that this analysis is of; otherwise a new one. */
  binaryId?: number;
}

export interface ListFilter {
  workspaces: string[];
  statuses: string[] | null;
  modelNames: string[] | null;
  dynamicExecutionStatus: string | null;
  usernames: string[] | null;
  sha256: string | null;
  searchTerm: string;
  orderBy: 'created' | 'name' | 'size';
  order: 'ASC' | 'DESC';
  limit: number;
  offset: number;
}

const ORDER_COLUMNS = { created: 'a.created_at', name: 'a.binary_name', size: 'a.binary_size' } as const;

export class AnalysesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobsRepository,
  ) {}

  private withOwner() {
    return this.db
      .selectFrom('analyses as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .selectAll('a')
      .select(['u.username as username', 'u.team_id as owner_team_id']);
  }

  get(id: number): Promise<AnalysisWithOwner | undefined> {
    return this.withOwner().where('a.id', '=', id).executeTakeFirst();
  }

  byBinaryId(binaryId: number): Promise<AnalysisWithOwner | undefined> {
    return this.withOwner().where('a.binary_id', '=', binaryId).executeTakeFirst();
  }

  /** Binary, analysis, tags and its first job, atomically: a created analysis is always queued. */
  /** A new analysis with its job, and the job of its emulated run (`dynamic`) when the sandbox was asked for. */
  create(
    a: NewAnalysis,
    job: Omit<NewJob, 'analysisId'>,
    dynamic: Omit<NewJob, 'analysisId'> | null = null,
  ): Promise<{ analysisId: number; binaryId: number }> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const binary = { id: a.binaryId ?? (await insertBinary(tx, a.sha256, now)) };
      const analysis = await tx
        .insertInto('analyses')
        .values({
          binary_id: binary.id,
          user_id: a.userId,
          sha256: a.sha256,
          binary_name: a.binaryName,
          binary_size: a.binarySize,
          analysis_scope: a.scope,
          status: 'Queued',
          model_name: a.modelName,
          base_address: a.baseAddress,
          debug_hash: a.debugHash,
          config: a.config,
          dynamic_execution_status: dynamic ? 'PENDING' : null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (a.tags.length > 0) {
        await tx
          .insertInto('analysis_tags')
          .values([...new Set(a.tags)].map((name) => ({ analysis_id: analysis.id, name, origin: 'USER' })))
          .execute();
      }
      await tx
        .insertInto('analysis_stages')
        .values({ analysis_id: analysis.id, stage: 'ANALYSIS', status: 'QUEUED', created_at: now })
        .execute();
      await this.jobs.enqueue({ ...job, analysisId: analysis.id }, tx);
      if (dynamic) await this.jobs.enqueue({ ...dynamic, analysisId: analysis.id }, tx);
      return { analysisId: analysis.id, binaryId: binary.id };
    });
  }

  /**
   * Re-queues: ends running jobs, drops old results, queues a new job (and a new emulated run, `dynamic`,
   * when the analysis asked for the sandbox), in one transaction.
   */
  requeue(
    id: number,
    model: string,
    job: Omit<NewJob, 'analysisId'>,
    tags: string[],
    dynamic: Omit<NewJob, 'analysisId'> | null = null,
  ): Promise<void> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      await this.jobs.cancelForAnalysis(id, tx);
      await tx.deleteFrom('analysis_results').where('analysis_id', '=', id).execute();
      await tx.deleteFrom('analysis_features').where('analysis_id', '=', id).execute();
      await tx.deleteFrom('dynamic_executions').where('analysis_id', '=', id).execute();
      await tx
        .updateTable('analyses')
        .set({
          status: 'Queued',
          model_name: model,
          updated_at: now,
          dynamic_execution_status: dynamic ? 'PENDING' : null,
        })
        .where('id', '=', id)
        .execute();
      if (dynamic) await this.jobs.enqueue({ ...dynamic, analysisId: id }, tx);
      if (tags.length > 0) await this.addTags(id, tags, tx);
      await tx
        .insertInto('analysis_stages')
        .values({ analysis_id: id, stage: 'ANALYSIS', status: 'QUEUED', created_at: now })
        .execute();
      await this.jobs.enqueue({ ...job, analysisId: id }, tx);
    });
  }

  async list(viewer: Viewer, f: ListFilter): Promise<AnalysisWithOwner[]> {
    let q = this.withOwner().where((eb) => {
      const ws = [];
      if (f.workspaces.includes('personal')) ws.push(eb('a.user_id', '=', viewer.id));
      if (f.workspaces.includes('public')) ws.push(eb('a.analysis_scope', '=', 'PUBLIC'));
      if (f.workspaces.includes('team') && viewer.teamId !== null) ws.push(eb('u.team_id', '=', viewer.teamId));
      // No workspace the viewer belongs to (bob's `team` without a team): nothing. A bound `false` is not
      // something better-sqlite3 can bind, so the empty match is spelled in SQL.
      return ws.length ? eb.or(ws) : sql<SqlBool>`1 = 0`;
    });
    if (f.statuses) q = q.where('a.status', 'in', f.statuses);
    if (f.modelNames) q = q.where('a.model_name', 'in', f.modelNames);
    if (f.dynamicExecutionStatus) q = q.where('a.dynamic_execution_status', '=', f.dynamicExecutionStatus);
    if (f.usernames) q = q.where('u.username', 'in', f.usernames);
    if (f.sha256) q = q.where('a.sha256', '=', f.sha256.toLowerCase());
    if (f.searchTerm) {
      const pattern = likePattern(f.searchTerm.toLowerCase());
      q = q.where((eb) =>
        eb.or([
          sql<SqlBool>`lower(a.binary_name) like ${pattern} escape '\\'`,
          sql<SqlBool>`a.sha256 like ${pattern} escape '\\'`,
        ]),
      );
    }
    const dir = f.order === 'ASC' ? 'asc' : 'desc';
    return q.orderBy(ORDER_COLUMNS[f.orderBy], dir).orderBy('a.id', dir).limit(f.limit).offset(f.offset).execute();
  }

  async update(id: number, set: { binary_name?: string; analysis_scope?: string }): Promise<void> {
    await this.db
      .updateTable('analyses')
      .set({ ...set, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  async setStatus(id: number, status: string): Promise<void> {
    await this.db.updateTable('analyses').set({ status, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /**
   * Deletes all or none: returns false, deleting nothing, when any id is missing (checked first, one query
   * per 1 000 ids). Then, one analysis at a time, the rows that grow with its binary go in chunks
   * (clearAnalysis) and its own row in one short statement, whose cascade is a few rows.
   */
  async deleteMany(ids: number[]): Promise<boolean> {
    const unique = [...new Set(ids)];
    let found = 0;
    await inBatches(unique, async (batch) => {
      const r = await this.db
        .selectFrom('analyses')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id', 'in', batch)
        .executeTakeFirstOrThrow();
      found += Number(r.n);
    });
    if (found !== unique.length) return false;
    for (const id of unique) {
      await clearAnalysis(this.db, id);
      await this.db.deleteFrom('analyses').where('id', '=', id).execute();
    }
    return true;
  }

  /** The analyses of `ids` that exist, with their owners (one query per 1 000 ids). */
  async getMany(ids: number[]): Promise<AnalysisWithOwner[]> {
    const out: AnalysisWithOwner[] = [];
    await inBatches([...new Set(ids)], async (batch) => {
      out.push(...(await this.withOwner().where('a.id', 'in', batch).execute()));
    });
    return out;
  }

  tags(ids: number[]): Promise<{ analysis_id: number; name: string; origin: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('analysis_tags')
      .select(['analysis_id', 'name', 'origin'])
      .where('analysis_id', 'in', ids)
      .orderBy('analysis_id')
      .orderBy('name')
      .execute();
  }

  async addTags(id: number, names: string[], tx: Kysely<Database> = this.db): Promise<void> {
    await this.addTagsToMany([id], names, tx);
  }

  /** Adds the user's tags `names` to every analysis of `ids` (those it has already are kept). */
  async addTagsToMany(ids: number[], names: string[], tx: Kysely<Database> = this.db): Promise<void> {
    const unique = [...new Set(names)];
    const rows = ids.flatMap((analysis_id) => unique.map((name) => ({ analysis_id, name, origin: 'USER' })));
    await inBatches(rows, (batch) =>
      tx
        .insertInto('analysis_tags')
        .values(batch)
        .onConflict((oc) => oc.columns(['analysis_id', 'name']).doNothing())
        .execute(),
    );
  }

  /** Replaces the user's tags of an analysis with exactly `names`. */
  replaceTags(id: number, names: string[]): Promise<void> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('analysis_tags').where('analysis_id', '=', id).where('origin', '=', 'USER').execute();
      await this.addTags(id, names, tx);
    });
  }
}
