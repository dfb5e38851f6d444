import type { Kysely } from 'kysely';
import type { Viewer } from './analyses.js';
import type { Database } from './schema.js';

// Rows per IN list: well under both dialects' bound-parameter limits.
const BATCH = 1000;

/** What naming reads beside the similarity index: query functions, call edges, and the index's size. */
export class NamingInputsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every function of an analysis with what decides whether it may be renamed. */
  functions(analysisId: number) {
    return this.db
      .selectFrom('functions')
      .select(['id', 'vaddr', 'name', 'mangled_name', 'debug', 'name_source_type'])
      .where('analysis_id', '=', analysisId)
      .orderBy('vaddr')
      .execute();
  }

  /** Direct calls between functions of these analyses (external and indirect calls left out). */
  async calls(analysisIds: number[]): Promise<{ caller: number; callee: number }[]> {
    const out: { caller: number; callee: number }[] = [];
    const ids = [...new Set(analysisIds)];
    for (let i = 0; i < ids.length; i += BATCH) {
      const rows = await this.db
        .selectFrom('function_calls')
        .select(['caller_id', 'callee_id'])
        .where('analysis_id', 'in', ids.slice(i, i + BATCH))
        .where('callee_id', 'is not', null)
        .execute();
      for (const r of rows) out.push({ caller: r.caller_id, callee: r.callee_id! });
    }
    return out;
  }

  /**
   * Functions named from symbols or debug info in analyses the viewer may see (PRIVATE: owner and the
   * owner's team; PUBLIC: everyone), other than `exceptAnalysisId`: the pool a naming match is drawn from.
   */
  async countNamed(viewer: Viewer, exceptAnalysisId: number | null): Promise<number> {
    let q = this.db
      .selectFrom('functions as f')
      .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('f.debug', '=', 1)
      .where((eb) => {
        const seen = [eb('a.user_id', '=', viewer.id), eb('a.analysis_scope', '=', 'PUBLIC')];
        if (viewer.teamId !== null) seen.push(eb('u.team_id', '=', viewer.teamId));
        return eb.or(seen);
      });
    if (exceptAnalysisId !== null) q = q.where('a.id', '!=', exceptAnalysisId);
    const r = await q.executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
