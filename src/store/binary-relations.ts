// Child binaries: a binary found inside another (a dump of an emulated run, a file extracted from firmware),
// each a binary of its own, with the parent it came from and where in it (migration 014).
import type { Kysely } from 'kysely';
import { insertBinary } from './binaries.js';
import type { Database } from './schema.js';

export interface NewChild {
  parentBinaryId: number;
  /** Whom it was found for: the one who may analyse it. */
  userId: number;
  origin: 'dump' | 'firmware';
  sha256: string;
  name: string;
  location: string;
}

/** A binary as a relative of another, with its analysis when it has one. */
export interface RelativeRow {
  binary_id: number;
  analysis_id: number | null;
  name: string;
  sha256: string;
  /** Where in its parent it was found (a dump's name, an offset path); null for a binary found in none. */
  location: string | null;
  /** What found it in its parent; null for a binary found in none. */
  origin: 'dump' | 'firmware' | null;
  /** The firmware task whose image it is, when it is one. */
  task_id: string | null;
}

/** A row of the relatives query as its record: the name coalesced to text, the origin as written by addChild. */
const asRelative = (
  r: Omit<RelativeRow, 'name' | 'origin'> & { name: unknown; origin: string | null },
): RelativeRow => ({
  ...r,
  name: String(r.name),
  origin: r.origin as RelativeRow['origin'],
});

export class BinaryRelationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The child binary at `location` in the parent, created with its relation when it is new: a job that runs
   * again finds the children it made before.
   */
  addChild(c: NewChild): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const known = await tx
        .selectFrom('binary_relations')
        .select('child_binary_id')
        .where('parent_binary_id', '=', c.parentBinaryId)
        .where('origin', '=', c.origin)
        .where('location', '=', c.location)
        .executeTakeFirst();
      if (known) return known.child_binary_id;
      const now = Date.now();
      const child = await insertBinary(tx, c.sha256, now);
      await tx
        .insertInto('binary_relations')
        .values({
          child_binary_id: child,
          parent_binary_id: c.parentBinaryId,
          user_id: c.userId,
          origin: c.origin,
          name: c.name,
          location: c.location,
          created_at: now,
        })
        .execute();
      return child;
    });
  }

  private relatives() {
    return this.db
      .selectFrom('binaries as b')
      .leftJoin('analyses as a', 'a.binary_id', 'b.id')
      .leftJoin('binary_relations as r', 'r.child_binary_id', 'b.id')
      .leftJoin('firmware_tasks as f', 'f.binary_id', 'b.id')
      .select((eb) => [
        'b.id as binary_id',
        'b.sha256 as sha256',
        'a.id as analysis_id',
        'r.location as location',
        'r.origin as origin',
        'f.id as task_id',
        eb.fn.coalesce('a.binary_name', 'r.name', 'f.filename', eb.val('')).as('name'),
      ]);
  }

  /** The binary's children, in the order they were found. */
  async children(parentBinaryId: number): Promise<RelativeRow[]> {
    const rows = await this.relatives().where('r.parent_binary_id', '=', parentBinaryId).orderBy('b.id').execute();
    return rows.map(asRelative);
  }

  /** The binary's own record as a relative (its analysis, its name inside its parent, or its firmware file). */
  async relative(binaryId: number): Promise<RelativeRow | undefined> {
    const r = await this.relatives().where('b.id', '=', binaryId).executeTakeFirst();
    return r && asRelative(r);
  }

  /** Where the binary was found, when it was found inside another. */
  foundIn(childBinaryId: number) {
    return this.db
      .selectFrom('binary_relations')
      .select(['parent_binary_id', 'user_id', 'origin', 'location'])
      .where('child_binary_id', '=', childBinaryId)
      .executeTakeFirst();
  }

  /**
   * A child binary of these bytes found for this user and not analysed yet: their analysis of the hash
   * becomes the child's, so the parent's listing leads to it.
   */
  async unanalysedChild(userId: number, sha256: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('binary_relations as r')
      .innerJoin('binaries as b', 'b.id', 'r.child_binary_id')
      .leftJoin('analyses as a', 'a.binary_id', 'b.id')
      .select('b.id')
      .where('r.user_id', '=', userId)
      .where('b.sha256', '=', sha256)
      .where('a.id', 'is', null)
      .orderBy('b.id')
      .executeTakeFirst();
    return row?.id;
  }
}
