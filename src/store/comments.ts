import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, Database } from './schema.js';

export type CommentRow = Selectable<CommentsTable>;

export class CommentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(analysisId: number): Promise<CommentRow[]> {
    return this.db.selectFrom('comments').selectAll().where('analysis_id', '=', analysisId).orderBy('id').execute();
  }

  get(analysisId: number, id: number): Promise<CommentRow | undefined> {
    return this.db
      .selectFrom('comments')
      .selectAll()
      .where('analysis_id', '=', analysisId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  create(analysisId: number, userId: number, content: string): Promise<CommentRow> {
    const now = Date.now();
    return this.db
      .insertInto('comments')
      .values({ analysis_id: analysisId, user_id: userId, content, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, content: string): Promise<CommentRow | undefined> {
    return this.db
      .updateTable('comments')
      .set({ content, updated_at: Date.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}
