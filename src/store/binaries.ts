// A binary row: one per analysed sample, per dump or extracted file, per firmware image.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function insertBinary(db: Kysely<Database>, sha256: string, now: number): Promise<number> {
  const row = await db
    .insertInto('binaries')
    .values({ sha256, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
