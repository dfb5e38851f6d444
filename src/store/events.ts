import type { Kysely } from 'kysely';
import { inBatches } from './batches.js';
import type { Database } from './schema.js';

/** Per-analysis JSON documents, one row each. */
type DocumentTable = 'analysis_results' | 'analysis_features';

/** Per-analysis progress: log lines, stage events, the result document and user-supplied strings. */
export class AnalysisEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async log(analysisId: number, line: string): Promise<void> {
    await this.db
      .insertInto('analysis_logs')
      .values({ analysis_id: analysisId, line, created_at: Date.now() })
      .execute();
  }

  logs(analysisId: number): Promise<{ line: string; created_at: number }[]> {
    return this.db
      .selectFrom('analysis_logs')
      .select(['line', 'created_at'])
      .where('analysis_id', '=', analysisId)
      .orderBy('id')
      .execute();
  }

  async stage(analysisId: number, stage: string, status: string, progress: number | null = null): Promise<void> {
    await this.db
      .insertInto('analysis_stages')
      .values({ analysis_id: analysisId, stage, status, created_at: Date.now(), progress })
      .execute();
  }

  stages(
    analysisId: number,
  ): Promise<{ stage: string; status: string; created_at: number; progress: number | null }[]> {
    return this.db
      .selectFrom('analysis_stages')
      .select(['stage', 'status', 'created_at', 'progress'])
      .where('analysis_id', '=', analysisId)
      .orderBy('id')
      .execute();
  }

  /** The progress of the analysis's latest stage event that reports one, or null. */
  async progress(analysisId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('analysis_stages')
      .select('progress')
      .where('analysis_id', '=', analysisId)
      .where('progress', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.progress ?? null;
  }

  saveResult(analysisId: number, document: unknown): Promise<void> {
    return this.saveDocument('analysis_results', analysisId, document);
  }

  /** The stored result document, parsed: contracts/result-document.ts reads it. */
  result(analysisId: number): Promise<unknown> {
    return this.document<unknown>('analysis_results', analysisId);
  }

  /** The capability features of an analysis (frozen JSON), kept apart from its result document. */
  saveFeatures(analysisId: number, document: unknown): Promise<void> {
    return this.saveDocument('analysis_features', analysisId, document);
  }

  features<T>(analysisId: number): Promise<T | undefined> {
    return this.document<T>('analysis_features', analysisId);
  }

  private async saveDocument(table: DocumentTable, analysisId: number, document: unknown): Promise<void> {
    const row = { analysis_id: analysisId, document: JSON.stringify(document), updated_at: Date.now() };
    await this.db
      .insertInto(table)
      .values(row)
      .onConflict((oc) => oc.column('analysis_id').doUpdateSet({ document: row.document, updated_at: row.updated_at }))
      .execute();
  }

  private async document<T>(table: DocumentTable, analysisId: number): Promise<T | undefined> {
    const row = await this.db
      .selectFrom(table)
      .select('document')
      .where('analysis_id', '=', analysisId)
      .executeTakeFirst();
    return row ? (JSON.parse(row.document) as T) : undefined;
  }

  /** Adds strings; none is added when any vaddr already holds one (returns that vaddr). */
  addStrings(analysisId: number, strings: { value: string; vaddr: number; source: string }[]): Promise<number | null> {
    return this.db.transaction().execute(async (tx) => {
      const vaddrs = strings.map((s) => s.vaddr);
      const seen = new Set<number>();
      for (const v of vaddrs) {
        if (seen.has(v)) return v;
        seen.add(v);
      }
      if (vaddrs.length === 0) return null;
      // In bounded batches: one `in (…)` list or multi-row insert of 10 000 strings passes SQLite's
      // bound-parameter limit (and did answer 500 there while PostgreSQL took it).
      let clash: number | null = null;
      await inBatches(vaddrs, async (batch) => {
        if (clash !== null) return;
        const row = await tx
          .selectFrom('analysis_strings')
          .select('vaddr')
          .where('analysis_id', '=', analysisId)
          .where('vaddr', 'in', batch)
          .executeTakeFirst();
        if (row) clash = row.vaddr;
      });
      if (clash !== null) return clash;
      await inBatches(strings, (batch) =>
        tx
          .insertInto('analysis_strings')
          .values(batch.map((s) => ({ analysis_id: analysisId, ...s })))
          .execute(),
      );
      return null;
    });
  }
}
