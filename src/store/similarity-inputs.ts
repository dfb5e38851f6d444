import type { Kysely } from 'kysely';
import type { Viewer } from './analyses.js';
import { inBatches } from './batches.js';
import type { Database } from './schema.js';
import { analysisVisible } from './visibility.js';

/** What matching and naming read beside the similarity index: functions, call edges, the index's size. */
export class SimilarityInputsRepository {
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

  /** Matched functions with their binary, for the response (absent ids left out). */
  async describe(functionIds: number[]) {
    const out: {
      id: number;
      vaddr: number;
      name: string;
      mangled_name: string;
      debug: number;
      analysis_id: number;
      binary_id: number;
      binary_name: string;
      sha256: string;
    }[] = [];
    await inBatches([...new Set(functionIds)], async (batch) => {
      const rows = await this.db
        .selectFrom('functions as f')
        .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
        .select(['f.id', 'f.vaddr', 'f.name', 'f.mangled_name', 'f.debug', 'f.analysis_id', 'a.binary_id'])
        .select(['a.binary_name', 'a.sha256'])
        .where('f.id', 'in', batch)
        .execute();
      out.push(...rows);
    });
    return out;
  }

  /** Per analysis, its function ids in address order (the linker keeps source order within an object). */
  async layout(analysisIds: number[]): Promise<number[][]> {
    const out = new Map<number, number[]>();
    await inBatches([...new Set(analysisIds)], async (batch) => {
      const rows = await this.db
        .selectFrom('functions')
        .select(['id', 'analysis_id'])
        .where('analysis_id', 'in', batch)
        .orderBy('analysis_id')
        .orderBy('vaddr')
        .execute();
      for (const r of rows) {
        const ids = out.get(r.analysis_id) ?? [];
        ids.push(r.id);
        out.set(r.analysis_id, ids);
      }
    });
    return [...out.values()];
  }

  /** Direct calls between functions of these analyses (external and indirect calls left out). */
  async calls(analysisIds: number[]): Promise<{ caller: number; callee: number }[]> {
    const out: { caller: number; callee: number }[] = [];
    await inBatches([...new Set(analysisIds)], async (batch) => {
      const rows = await this.db
        .selectFrom('function_calls')
        .select(['caller_id', 'callee_id'])
        .where('analysis_id', 'in', batch)
        .where('callee_id', 'is not', null)
        .execute();
      for (const r of rows) out.push({ caller: r.caller_id, callee: r.callee_id! });
    });
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
      .where(analysisVisible(viewer));
    if (exceptAnalysisId !== null) q = q.where('a.id', '!=', exceptAnalysisId);
    const r = await q.executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
