import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** One OSV record as stored: its JSON text and the package names it affects (lower case). */
export interface OsvRecordRow {
  id: string;
  modified: string;
  document: string;
  packages: string[];
}

/** Inserts per statement: SQLite allows 32 766 bound values; 500 rows × 4 columns stays far below. */
const BATCH = 500;

export class VulnerabilitiesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds or replaces records (by id), with their package names, in one transaction. */
  async upsert(rows: OsvRecordRow[]): Promise<void> {
    const now = Date.now();
    // The last of several copies of one record wins, as if imported one after another.
    const records = [...new Map(rows.map((r) => [r.id, r])).values()];
    await this.db.transaction().execute(async (tx) => {
      for (let i = 0; i < records.length; i += BATCH) {
        const chunk = records.slice(i, i + BATCH);
        const ids = chunk.map((r) => r.id);
        await tx.deleteFrom('osv_packages').where('record_id', 'in', ids).execute();
        await tx.deleteFrom('osv_records').where('id', 'in', ids).execute();
        await tx
          .insertInto('osv_records')
          .values(chunk.map((r) => ({ id: r.id, modified: r.modified, document: r.document, imported_at: now })))
          .execute();
        const packages = chunk.flatMap((r) => [...new Set(r.packages)].map((name) => ({ name, record_id: r.id })));
        for (let j = 0; j < packages.length; j += BATCH)
          await tx
            .insertInto('osv_packages')
            .values(packages.slice(j, j + BATCH))
            .execute();
      }
    });
  }

  /** JSON documents of the records affecting any of these package names (lower case). */
  async forPackages(names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .selectFrom('osv_records as r')
      .innerJoin('osv_packages as p', 'p.record_id', 'r.id')
      .select(['r.id', 'r.document'])
      .where('p.name', 'in', names)
      .distinct()
      .orderBy('r.id')
      .execute();
    return rows.map((r) => r.document);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('osv_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
