import { sql, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { Viewer } from './analyses.js';
import { containsText as contains } from './like.js';
import type { CollectionsTable, Database } from './schema.js';
import { carriesTag } from './tag-filter.js';
import { analysisVisible, collectionVisible } from './visibility.js';

export type CollectionWithOwner = Selectable<CollectionsTable> & {
  username: string;
  owner_team_id: number | null;
  owner_role: string;
};
/** A listed collection with the number of its binaries the viewer can see. */
export type CollectionListRow = CollectionWithOwner & { size: number };

export interface NewCollection {
  userId: number;
  name: string;
  description: string;
  scope: string;
  modelName: string | null;
  binaryIds: number[];
  tags: string[];
}

export type CollectionFilterFlag = 'official_only' | 'user_only' | 'team_only' | 'public_only' | 'hide_empty';
export type CollectionOrder = 'created' | 'collection' | 'model' | 'owner' | 'collection_size' | 'updated';

export interface CollectionFilter {
  /** Substring of the name or the description. */
  search?: string | null;
  /** Substring of the name only. */
  name?: string | null;
  /** The collection holds a visible binary whose name / SHA-256 contains this. */
  binaryName?: string | null;
  binarySha256?: string | null;
  /** The collection carries every one of these tags. */
  tags?: string[] | null;
  modelName?: string | null;
  flags: readonly CollectionFilterFlag[];
  orderBy: CollectionOrder;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Ids per `IN (…)` list. */
const ID_BATCH = 5000;

/** Owners whose collections are the service's own ("official"): its operators. */
export const OFFICIAL_ROLES: readonly string[] = ['ADMIN', 'SUPERADMIN', 'SYSTEM'];

const ORDER_COLUMNS = {
  created: 'c.created_at',
  collection: 'c.name',
  model: 'c.model_name',
  owner: 'o.username',
  collection_size: 'size',
  updated: 'c.updated_at',
} as const;

export interface CollectionBinaryRow {
  analysis_id: number;
  binary_id: number;
  binary_name: string;
  sha256: string;
  owner_id: number;
  owner_role: string;
  created_at: number;
}

export class CollectionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withOwner() {
    return this.db
      .selectFrom('collections as c')
      .innerJoin('users as o', 'o.id', 'c.user_id')
      .selectAll('c')
      .select(['o.username as username', 'o.team_id as owner_team_id', 'o.role as owner_role']);
  }

  get(id: number): Promise<CollectionWithOwner | undefined> {
    return this.withOwner().where('c.id', '=', id).executeTakeFirst();
  }

  /** The collection, its binaries and its tags, atomically. */
  create(c: NewCollection): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const row = await tx
        .insertInto('collections')
        .values({
          user_id: c.userId,
          name: c.name,
          description: c.description,
          scope: c.scope,
          model_name: c.modelName,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertBinaries(tx, row.id, c.binaryIds);
      await insertTags(tx, row.id, c.tags);
      return row.id;
    });
  }

  async update(id: number, set: { name?: string; description?: string; scope?: string }): Promise<void> {
    await this.db
      .updateTable('collections')
      .set({ ...set, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('collections').where('id', '=', id).execute();
  }

  /** Makes `binaryIds` the collection's binaries, exactly. */
  replaceBinaries(id: number, binaryIds: number[]): Promise<void> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('collection_binaries').where('collection_id', '=', id).execute();
      await insertBinaries(tx, id, binaryIds);
      await touch(tx, id);
    });
  }

  /** Adds `binaryIds`; ones already there stay once. */
  addBinaries(id: number, binaryIds: number[]): Promise<void> {
    return this.db.transaction().execute(async (tx) => {
      await insertBinaries(tx, id, binaryIds);
      await touch(tx, id);
    });
  }

  /** Makes `names` the collection's tags, exactly. */
  replaceTags(id: number, names: string[]): Promise<void> {
    return this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('collection_tags').where('collection_id', '=', id).execute();
      await insertTags(tx, id, names);
      await touch(tx, id);
    });
  }

  tags(ids: number[]): Promise<{ collection_id: number; name: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('collection_tags')
      .select(['collection_id', 'name'])
      .where('collection_id', 'in', ids)
      .orderBy('collection_id')
      .orderBy('name')
      .execute();
  }

  /** A page of the collection's binaries that the viewer can see, by binary id; `search` matches names. */
  binaries(
    id: number,
    viewer: Viewer,
    page: { offset: number; limit: number; search?: string | null },
  ): Promise<CollectionBinaryRow[]> {
    let q = this.db
      .selectFrom('collection_binaries as cb')
      .innerJoin('analyses as a', 'a.binary_id', 'cb.binary_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select([
        'a.id as analysis_id',
        'a.binary_id as binary_id',
        'a.binary_name as binary_name',
        'a.sha256 as sha256',
        'a.user_id as owner_id',
        'u.role as owner_role',
        'a.created_at as created_at',
      ])
      .where('cb.collection_id', '=', id)
      .where(analysisVisible(viewer));
    if (page.search) q = q.where(contains('a.binary_name', page.search));
    return q.orderBy('a.binary_id').limit(page.limit).offset(page.offset).execute();
  }

  /** How many of the collection's binaries the viewer can see. */
  async binaryCount(id: number, viewer: Viewer): Promise<number> {
    const r = await this.db
      .selectFrom('collection_binaries as cb')
      .innerJoin('analyses as a', 'a.binary_id', 'cb.binary_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('cb.collection_id', '=', id)
      .where(analysisVisible(viewer))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Binary ids held by those of `collectionIds` the viewer can see, restricted to binaries the viewer can
   * see, ascending and without repeats. Unknown and invisible collections contribute nothing.
   */
  async binaryIds(collectionIds: number[], viewer: Viewer): Promise<number[]> {
    const unique = [...new Set(collectionIds)];
    const found = new Set<number>();
    // Bound parameters per statement stay far below SQLite's 32 766 and PostgreSQL's 65 535.
    for (let i = 0; i < unique.length; i += ID_BATCH) {
      const rows = await this.db
        .selectFrom('collection_binaries as cb')
        .innerJoin('collections as c', 'c.id', 'cb.collection_id')
        .innerJoin('users as o', 'o.id', 'c.user_id')
        .innerJoin('analyses as a', 'a.binary_id', 'cb.binary_id')
        .innerJoin('users as u', 'u.id', 'a.user_id')
        .select('cb.binary_id')
        .distinct()
        .where('cb.collection_id', 'in', unique.slice(i, i + ID_BATCH))
        .where(collectionVisible(viewer))
        .where(analysisVisible(viewer))
        .execute();
      for (const r of rows) found.add(r.binary_id);
    }
    return [...found].sort((a, b) => a - b);
  }

  /** Which of `binaryIds` name an analysis the viewer can see. */
  async visibleBinaryIds(binaryIds: number[], viewer: Viewer): Promise<Set<number>> {
    if (binaryIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('analyses as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('a.binary_id')
      .where('a.binary_id', 'in', [...new Set(binaryIds)])
      .where(analysisVisible(viewer))
      .execute();
    return new Set(rows.map((r) => r.binary_id));
  }

  /** Collections the viewer can see, filtered, ordered and paged, each with its visible size. */
  list(viewer: Viewer, f: CollectionFilter): Promise<CollectionListRow[]> {
    const size = sql<number>`(select count(*) from collection_binaries cb
      inner join analyses ba on ba.binary_id = cb.binary_id
      inner join users bu on bu.id = ba.user_id
      where cb.collection_id = c.id and ${analysisVisible(viewer, 'ba', 'bu')})`;
    let q = this.withOwner().select(size.as('size')).where(collectionVisible(viewer));
    if (f.search) {
      const s = f.search;
      q = q.where((eb) => eb.or([contains('c.name', s), contains('c.description', s)]));
    }
    if (f.name) q = q.where(contains('c.name', f.name));
    if (f.modelName) q = q.where('c.model_name', '=', f.modelName);
    for (const tag of new Set(f.tags ?? [])) q = q.where(carriesTag('collection_tags', 'c.id', tag));
    const binaryMatch = [
      f.binaryName ? contains('ba.binary_name', f.binaryName) : null,
      f.binarySha256 ? contains('ba.sha256', f.binarySha256) : null,
    ].filter((x) => x !== null);
    for (const match of binaryMatch)
      q = q.where(sql<SqlBool>`exists (select 1 from collection_binaries cb
        inner join analyses ba on ba.binary_id = cb.binary_id
        inner join users bu on bu.id = ba.user_id
        where cb.collection_id = c.id and ${analysisVisible(viewer, 'ba', 'bu')} and ${match})`);
    const flags = new Set(f.flags);
    if (flags.has('official_only')) q = q.where('o.role', 'in', [...OFFICIAL_ROLES]);
    if (flags.has('user_only')) q = q.where('c.user_id', '=', viewer.id);
    if (flags.has('team_only'))
      q = viewer.teamId === null ? q.where(sql<SqlBool>`1 = 0`) : q.where('o.team_id', '=', viewer.teamId);
    if (flags.has('public_only')) q = q.where('c.scope', '=', 'PUBLIC');
    if (flags.has('hide_empty')) q = q.where(sql<SqlBool>`${size} > 0`);
    return q
      .orderBy(sql.ref(ORDER_COLUMNS[f.orderBy]), f.order)
      .orderBy('c.id', f.order)
      .limit(f.limit)
      .offset(f.offset)
      .execute();
  }
}

async function insertBinaries(tx: Transaction<Database>, id: number, binaryIds: number[]) {
  const unique = [...new Set(binaryIds)];
  if (unique.length === 0) return;
  await tx
    .insertInto('collection_binaries')
    .values(unique.map((binary_id) => ({ collection_id: id, binary_id })))
    .onConflict((oc) => oc.columns(['collection_id', 'binary_id']).doNothing())
    .execute();
}

async function insertTags(tx: Transaction<Database>, id: number, names: string[]) {
  const unique = [...new Set(names)];
  if (unique.length === 0) return;
  await tx
    .insertInto('collection_tags')
    .values(unique.map((name) => ({ collection_id: id, name })))
    .execute();
}

async function touch(tx: Transaction<Database>, id: number) {
  await tx.updateTable('collections').set({ updated_at: Date.now() }).where('id', '=', id).execute();
}
