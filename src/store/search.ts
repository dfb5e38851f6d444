import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Viewer } from './analyses.js';
import { containsText as contains } from './like.js';
import type { Database } from './schema.js';
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

/**
 * Name searches over everything a viewer may see: functions and binaries of visible analyses, and tags
 * of visible analyses or collections. Visibility is part of the query, so paging never counts what the
 * viewer cannot see.
 */
export class SearchRepository {
  constructor(private readonly db: Kysely<Database>) {}

  functions(viewer: Viewer, f: SearchPage & { name?: string | null; modelName?: string | null }) {
    let q = this.db
      .selectFrom('functions as f')
      .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select([
        'f.id as id',
        'f.name as name',
        'a.binary_name as binary_name',
        'a.created_at as created_at',
        'a.model_name as model_name',
        'u.username as username',
      ])
      .where(analysisVisible(viewer));
    if (f.name) q = q.where(contains('f.name', f.name));
    if (f.modelName) q = q.where('a.model_name', '=', f.modelName);
    return q.orderBy('f.id').limit(f.limit).offset(f.offset).execute();
  }

  binaries(viewer: Viewer, f: BinarySearch) {
    let q = this.db
      .selectFrom('analyses as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select([
        'a.id as analysis_id',
        'a.binary_id as binary_id',
        'a.binary_name as binary_name',
        'a.sha256 as sha256',
        'a.created_at as created_at',
        'a.model_name as model_name',
        'u.username as username',
      ])
      .where(analysisVisible(viewer));
    if (f.name) q = q.where(contains('a.binary_name', f.name));
    if (f.sha256) q = q.where(contains('a.sha256', f.sha256));
    if (f.modelName) q = q.where('a.model_name', '=', f.modelName);
    if (f.userIds) q = q.where('a.user_id', 'in', f.userIds.length ? f.userIds : [-1]);
    if (f.excludeBinaryId != null) q = q.where('a.binary_id', '!=', f.excludeBinaryId);
    for (const tag of new Set(f.tags ?? []))
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('analysis_tags as t')
            .select('t.analysis_id')
            .whereRef('t.analysis_id', '=', 'a.id')
            .where('t.name', '=', tag),
        ),
      );
    return q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(f.limit).offset(f.offset).execute();
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
