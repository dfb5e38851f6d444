import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, Database } from './schema.js';

export type CommentRow = Selectable<CommentsTable>;

/** What a comment is on: an analysis (vaddr null), or the decompilation of its function at vaddr. */
export interface CommentSubject {
  analysisId: number;
  vaddr: number | null;
}

export class CommentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private of({ analysisId, vaddr }: CommentSubject) {
    const q = this.db.selectFrom('comments').selectAll().where('analysis_id', '=', analysisId);
    return vaddr === null ? q.where('vaddr', 'is', null) : q.where('vaddr', '=', vaddr);
  }

  list(on: CommentSubject): Promise<CommentRow[]> {
    return this.of(on).orderBy('id').execute();
  }

  get(on: CommentSubject, id: number): Promise<CommentRow | undefined> {
    return this.of(on).where('id', '=', id).executeTakeFirst();
  }

  /** `context`: JSON of the lines a decompilation comment is about. */
  create(on: CommentSubject, userId: number, content: string, context: string | null = null): Promise<CommentRow> {
    const now = Date.now();
    return this.db
      .insertInto('comments')
      .values({
        analysis_id: on.analysisId,
        vaddr: on.vaddr,
        context,
        user_id: userId,
        content,
        created_at: now,
        updated_at: now,
      })
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
