import { sql, type Kysely } from 'kysely';
import { likePattern } from './like.js';
import type { Database } from './schema.js';

export interface StringsPageOptions {
  offset: number;
  limit: number;
  search?: string | null;
  functionSearch?: string | null;
  orderBy: 'length' | 'value';
  order: 'asc' | 'desc';
}

/** Strings of an analysis (found by the engine or added by users) and the functions that use them. */
export class StringsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private filtered(analysisId: number, o: Pick<StringsPageOptions, 'search' | 'functionSearch'>) {
    let q = this.db.selectFrom('analysis_strings as s').where('s.analysis_id', '=', analysisId);
    if (o.search) q = q.where(sql<boolean>`lower(s.value) like lower(${likePattern(o.search)}) escape '\\'`);
    if (o.functionSearch) {
      const pattern = likePattern(o.functionSearch);
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('string_refs as r')
            .innerJoin('functions as f', 'f.id', 'r.function_id')
            .select('r.site')
            .whereRef('r.analysis_id', '=', 's.analysis_id')
            .whereRef('r.string_vaddr', '=', 's.vaddr')
            .where(sql<boolean>`lower(f.name) like lower(${pattern}) escape '\\'`),
        ),
      );
    }
    return q;
  }

  async page(analysisId: number, o: StringsPageOptions) {
    const total = await this.filtered(analysisId, o)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const orderExpr = o.orderBy === 'length' ? sql`length(s.value)` : sql`s.value`;
    const rows = await this.filtered(analysisId, o)
      .select(['s.vaddr', 's.value', 's.source'])
      .orderBy(orderExpr, o.order)
      .orderBy('s.vaddr')
      .limit(o.limit)
      .offset(o.offset)
      .execute();
    const users = rows.length
      ? await this.db
          .selectFrom('string_refs as r')
          .innerJoin('functions as f', 'f.id', 'r.function_id')
          .select(['r.string_vaddr', 'f.id', 'f.vaddr'])
          .where('r.analysis_id', '=', analysisId)
          .where(
            'r.string_vaddr',
            'in',
            rows.map((r) => r.vaddr),
          )
          .distinct()
          .execute()
      : [];
    return { total: Number(total.n), rows, users };
  }

  async ofFunction(functionId: number, o: { offset: number; limit: number; search?: string | null }) {
    let q = this.db
      .selectFrom('string_refs as r')
      .innerJoin('analysis_strings as s', (j) =>
        j.onRef('s.analysis_id', '=', 'r.analysis_id').onRef('s.vaddr', '=', 'r.string_vaddr'),
      )
      .where('r.function_id', '=', functionId);
    if (o.search) q = q.where(sql<boolean>`lower(s.value) like lower(${likePattern(o.search)}) escape '\\'`);
    const total = await q.select((eb) => eb.fn.count<number>('s.vaddr').distinct().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['s.vaddr', 's.value', 's.source'])
      .distinct()
      .orderBy('s.vaddr')
      .limit(o.limit)
      .offset(o.offset)
      .execute();
    return { total: Number(total.n), rows };
  }
}
