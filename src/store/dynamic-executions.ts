// Each analysis's emulated run: queued with the analysis when its create request asks for the sandbox
// (analyses.create), then its report or the reason it could not run, with the status the list filters on
// (analyses.dynamic_execution_status: PENDING, SUCCESS, ERROR; null when never asked for).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface DynamicExecutionRow {
  status: 'PENDING' | 'SUCCESS' | 'ERROR';
  /** JSON DynamicReport on success. */
  report: string | null;
  error: string | null;
}

export class DynamicExecutionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The run's outcome: its report, or why there is none; and the analysis's status with it. */
  finish(analysisId: number, outcome: { report: string } | { error: string }): Promise<void> {
    const report = 'report' in outcome ? outcome.report : null;
    const error = 'error' in outcome ? outcome.error : null;
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      await tx
        .insertInto('dynamic_executions')
        .values({ analysis_id: analysisId, report, error, updated_at: now })
        .onConflict((oc) => oc.column('analysis_id').doUpdateSet({ report, error, updated_at: now }))
        .execute();
      await tx
        .updateTable('analyses')
        .set({ dynamic_execution_status: report === null ? 'ERROR' : 'SUCCESS' })
        .where('id', '=', analysisId)
        .execute();
    });
  }

  /** Where the analysis's run stands; null when none was asked for. */
  async get(analysisId: number): Promise<DynamicExecutionRow | null> {
    const row = await this.db
      .selectFrom('analyses as a')
      .leftJoin('dynamic_executions as d', 'd.analysis_id', 'a.id')
      .select(['a.dynamic_execution_status as status', 'd.report', 'd.error'])
      .where('a.id', '=', analysisId)
      .executeTakeFirst();
    if (!row?.status) return null;
    return {
      status: row.status as DynamicExecutionRow['status'],
      report: row.report ?? null,
      error: row.error ?? null,
    };
  }
}
