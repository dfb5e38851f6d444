import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Viewer } from './analyses.js';
import { idRange, scanIds } from './id-scan.js';
import { containsText as contains } from './like.js';
import type { Database } from './schema.js';
import { carriesTag } from './tag-filter.js';
import { analysisVisible, collectionVisible } from './visibility.js';

export interface SearchPage {
  limit: number;
  offset: number;
}

export interface BinarySearch extends SearchPage {
  name?: string | null;
  sha256?: string | null;
  /** The analysis carries every one of these tags. */
  tags?: string[] | null;
  modelName?: string | null;
  /** Only analyses owned by one of these users. */
  userIds?: number[] | null;
  excludeBinaryId?: number | null;
}

export interface FunctionSearch extends SearchPage {
  name?: string | null;
  modelName?: string | null;
}

/** Ids one step of a substring scan covers: ~10 ms of SQLite time each (measured: 0.45 µs a function row). */
const SCAN_FUNCTIONS = 20_000;
const SCAN_ANALYSES = 10_000;

/** What a function search returns of each function, its analysis and its owner. */
const FUNCTION_COLUMNS = [
  'f.id as id',
  'f.name as name',
  'a.binary_name as binary_name',
  'a.created_at as created_at',
  'a.model_name as model_name',
  'u.username as username',
] as const;

/** What a binary search returns of each analysis and its owner. */
const BINARY_COLUMNS = [
  'a.id as analysis_id',
  'a.binary_id as binary_id',
  'a.binary_name as binary_name',
  'a.sha256 as sha256',
  'a.created_at as created_at',
  'a.model_name as model_name',
  'u.username as username',
] as const;

/** How many rows a query matches. */
async function countMatches<DB, TB extends keyof DB>(q: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const r = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number((r as { n: number | string }).n);
}

/**
 * Name searches over everything a viewer may see: functions and binaries of visible analyses, and tags
 * of visible analyses or collections. Visibility is part of the query, so paging never counts what the
 * viewer cannot see.
 */
export class SearchRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Functions in ids [from, to) of visible analyses that match the filter. */
  private matchingFunctions(viewer: Viewer, f: FunctionSearch, from: number, to: number) {
    // CROSS JOIN with the join conditions in WHERE is an inner join to PostgreSQL; SQLite takes it as the
    // loop order, so it walks the id range of `functions` instead of every visible analysis first.
    let q = this.db
      .selectFrom('functions as f')
      .crossJoin('analyses as a')
      .crossJoin('users as u')
      .whereRef('a.id', '=', 'f.analysis_id')
      .whereRef('u.id', '=', 'a.user_id')
      .where('f.id', '>=', from)
      .where('f.id', '<', to)
      .where(analysisVisible(viewer));
    if (f.name) q = q.where(contains('f.name', f.name));
    if (f.modelName) q = q.where('a.model_name', '=', f.modelName);
    return q;
  }

  /** Functions whose name contains `name`, by id (see scanIds: never a long hold of the event loop). */
  async functions(viewer: Viewer, f: FunctionSearch) {
    const matching = (from: number, to: number) => this.matchingFunctions(viewer, f, from, to);
    return scanIds(await idRange(this.db, 'functions'), f, 'asc', SCAN_FUNCTIONS, {
      count: (from, to) => countMatches(matching(from, to)),
      rows: (from, to, skip, limit) =>
        matching(from, to).select(FUNCTION_COLUMNS).orderBy('f.id').offset(skip).limit(limit).execute(),
    });
  }

  /** Analyses in ids [from, to) the viewer can see that match the filter. */
  private matchingBinaries(viewer: Viewer, f: BinarySearch, from: number, to: number) {
    let q = this.db
      .selectFrom('analyses as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .where('a.id', '>=', from)
      .where('a.id', '<', to)
      .where(analysisVisible(viewer));
    if (f.name) q = q.where(contains('a.binary_name', f.name));
    if (f.sha256) q = q.where(contains('a.sha256', f.sha256));
    if (f.modelName) q = q.where('a.model_name', '=', f.modelName);
    if (f.userIds) q = q.where('a.user_id', 'in', f.userIds.length ? f.userIds : [-1]);
    if (f.excludeBinaryId != null) q = q.where('a.binary_id', '!=', f.excludeBinaryId);
    for (const tag of new Set(f.tags ?? [])) q = q.where(carriesTag('analysis_tags', 'a.id', tag));
    return q;
  }

  /** Binaries (one an analysis) matching the filter, newest first (by id; see scanIds). */
  async binaries(viewer: Viewer, f: BinarySearch) {
    const matching = (from: number, to: number) => this.matchingBinaries(viewer, f, from, to);
    return scanIds(await idRange(this.db, 'analyses'), f, 'desc', SCAN_ANALYSES, {
      count: (from, to) => countMatches(matching(from, to)),
      rows: (from, to, skip, limit) =>
        matching(from, to).select(BINARY_COLUMNS).orderBy('a.id', 'desc').offset(skip).limit(limit).execute(),
    });
  }

  /** Tags whose name contains `name`, used by an analysis or a collection the viewer can see, by name. */
  tags(viewer: Viewer, f: SearchPage & { name: string }) {
    return this.db
      .selectFrom('tags as t')
      .select(['t.id as id', 't.name as name'])
      .where(contains('t.name', f.name))
      .where((eb) =>
        eb.or([
          sql<SqlBool>`exists (select 1 from analysis_tags atg inner join analyses a on a.id = atg.analysis_id
            inner join users u on u.id = a.user_id where atg.name = t.name and ${analysisVisible(viewer)})`,
          sql<SqlBool>`exists (select 1 from collection_tags ct inner join collections c on c.id = ct.collection_id
            inner join users o on o.id = c.user_id where ct.name = t.name and ${collectionVisible(viewer)})`,
        ]),
      )
      .orderBy('t.name')
      .limit(f.limit)
      .offset(f.offset)
      .execute();
  }
}
