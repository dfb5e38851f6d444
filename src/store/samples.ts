import type { Kysely, Selectable } from 'kysely';
import type { Database, SamplesTable, UploadsTable } from './schema.js';

export type SampleRow = Selectable<SamplesTable>;
export type UploadRow = Selectable<UploadsTable>;

export class SamplesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  get(sha256: string): Promise<SampleRow | undefined> {
    return this.db.selectFrom('samples').selectAll().where('sha256', '=', sha256).executeTakeFirst();
  }

  /** Records a stored sample and the caller's upload of it; both are idempotent (content-addressed). */
  async recordUpload(
    s: { sha256: string; size: number; identity: string },
    up: Omit<UploadRow, 'id' | 'created_at' | 'sha256'>,
  ) {
    const now = Date.now();
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('samples')
        .values({ ...s, created_at: now })
        .onConflict((oc) => oc.column('sha256').doNothing())
        .execute();
      await tx
        .insertInto('uploads')
        .values({ ...up, sha256: s.sha256, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'sha256', 'file_type']).doUpdateSet({ filename: up.filename }))
        .execute();
    });
  }

  /** Whether this user has uploaded the hash (as any file type): a sample is not shared by its hash alone. */
  async uploadedBy(userId: number, sha256: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', userId)
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    return row !== undefined;
  }
}
