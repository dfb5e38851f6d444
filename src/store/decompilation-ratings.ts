// Ratings of functions' decompilations (migration 011): one per user and function, by address.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface DecompilationRating {
  rating: string;
  reason: string | null;
}

export class DecompilationRatingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  get(analysisId: number, vaddr: number, userId: number): Promise<DecompilationRating | undefined> {
    return this.db
      .selectFrom('decompilation_ratings')
      .select(['rating', 'reason'])
      .where('analysis_id', '=', analysisId)
      .where('vaddr', '=', vaddr)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The user's rating, replacing their earlier one. */
  async upsert(analysisId: number, vaddr: number, userId: number, r: DecompilationRating): Promise<void> {
    const row = { analysis_id: analysisId, vaddr, user_id: userId, ...r, updated_at: Date.now() };
    await this.db
      .insertInto('decompilation_ratings')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['analysis_id', 'vaddr', 'user_id'])
          .doUpdateSet({ rating: r.rating, reason: r.reason, updated_at: row.updated_at }),
      )
      .execute();
  }
}
