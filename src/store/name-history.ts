import type { Kysely, Selectable, Transaction } from 'kysely';
import { errors } from '../shared/errors.js';
import { inBatches } from './batches.js';
import type { Database, FunctionNameHistoryTable } from './schema.js';

export type NameHistoryRow = Selectable<FunctionNameHistoryTable> & { username: string };

/** Names a person or unstripping chose; re-analysis keeps them (SYSTEM and EXTERNAL names it recomputes). */
const CHOSEN: readonly string[] = ['USER', 'AUTO_UNSTRIP', 'AI_UNSTRIP'];

/** One name to give one function; it is also appended to the function's history. */
export interface NameChange {
  functionId: number;
  name: string;
  /** Defaults to `name`. */
  mangledName?: string;
  sourceType: 'SYSTEM' | 'EXTERNAL' | 'USER' | 'AUTO_UNSTRIP' | 'AI_UNSTRIP';
  /** Who made the change (for unstripping: who applied it). */
  userId: number;
  /** Whether the name comes from symbols or debug information; only a revert to an analysis name has it. */
  debug?: boolean;
  /** The matched function an automatic name was taken from. */
  source?: { functionId: number; binaryId: number; analysisId: number } | null;
  /** Why an automatic name was chosen (matched function/binary/analysis, similarity, confidence, neighbours). */
  evidence?: object | null;
}

type NameColumns = Pick<
  FunctionNameHistoryTable,
  | 'name'
  | 'mangled_name'
  | 'name_source_type'
  | 'debug'
  | 'source_function_id'
  | 'source_binary_id'
  | 'source_analysis_id'
>;

/** A history entry's name, as the columns of the function that bears it. */
const functionColumns = (e: NameColumns) => ({
  name: e.name,
  mangled_name: e.mangled_name,
  name_source_type: e.name_source_type,
  debug: e.debug,
  name_source_function_id: e.source_function_id,
  name_source_binary_id: e.source_binary_id,
  name_source_analysis_id: e.source_analysis_id,
});

const entryColumns = (c: NameChange): NameColumns => ({
  name: c.name,
  mangled_name: c.mangledName ?? c.name,
  name_source_type: c.sourceType,
  debug: c.debug ? 1 : 0,
  source_function_id: c.source?.functionId ?? null,
  source_binary_id: c.source?.binaryId ?? null,
  source_analysis_id: c.source?.analysisId ?? null,
});

/**
 * After re-analysis replaced an analysis's functions (inside the same transaction): points every history
 * entry at the new row at its address, then gives each function the latest chosen name of its history.
 * A function whose latest entry is an analysis name (a revert to it) keeps the name the new run gave.
 * Entries whose address the new run did not recover stay, unattached, until a later run finds it again.
 */
export async function reattachNames(tx: Transaction<Database>, analysisId: number): Promise<void> {
  await tx
    .updateTable('function_name_history')
    .set((eb) => ({
      function_id: eb
        .selectFrom('functions')
        .select('functions.id')
        .where('functions.analysis_id', '=', analysisId)
        .whereRef('functions.vaddr', '=', 'function_name_history.vaddr'),
    }))
    .where('analysis_id', '=', analysisId)
    .execute();
  const latest = await tx
    .selectFrom('function_name_history')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('function_name_history')
        .select((e) => e.fn.max('id').as('id'))
        .where('analysis_id', '=', analysisId)
        .groupBy('vaddr'),
    )
    .where('function_id', 'is not', null)
    .where('name_source_type', 'in', CHOSEN)
    .execute();
  for (const e of latest)
    await tx.updateTable('functions').set(functionColumns(e)).where('id', '=', e.function_id).execute();
}

type Target = Awaited<ReturnType<NameHistoryRepository['targets']>>[number];

/** Every name each function has had, append-only: renames, applied unstrip names and reverts. */
export class NameHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Renames functions and appends each change to their history, all in one transaction: nothing changes
   * when any function is missing (404 for the first one). Changes apply in order, so with two for one
   * function the later wins. The first time a function is renamed, the name the analysis gave it becomes
   * its first entry (analyses write no history themselves), so a revert can always return to it.
   */
  applyNames(changes: NameChange[]): Promise<void> {
    return this.db.transaction().execute(async (tx) => {
      const ids = [...new Set(changes.map((c) => c.functionId))];
      const targets = new Map<number, Target>();
      const named = new Set<number>();
      await inBatches(ids, async (batch) => {
        for (const t of await this.targets(tx, batch)) targets.set(t.id, t);
        const rows = await tx
          .selectFrom('function_name_history')
          .select('function_id')
          .distinct()
          .where('function_id', 'in', batch)
          .execute();
        for (const r of rows) named.add(r.function_id!);
      });
      const missing = ids.find((id) => !targets.has(id));
      if (missing !== undefined) throw errors.functionNotFound(missing);

      const now = Date.now();
      const first = ids
        .filter((id) => !named.has(id))
        .map((id) => {
          const t = targets.get(id)!;
          return {
            function_id: id,
            analysis_id: t.analysis_id,
            vaddr: t.vaddr,
            name: t.name,
            mangled_name: t.mangled_name,
            name_source_type: t.name_source_type,
            debug: t.debug,
            source_function_id: t.name_source_function_id,
            source_binary_id: t.name_source_binary_id,
            source_analysis_id: t.name_source_analysis_id,
            user_id: t.owner_id,
            created_at: t.analysed_at,
            evidence: null,
          };
        });
      const appended = changes.map((c) => {
        const t = targets.get(c.functionId)!;
        return {
          function_id: c.functionId,
          analysis_id: t.analysis_id,
          vaddr: t.vaddr,
          ...entryColumns(c),
          user_id: c.userId,
          created_at: now,
          evidence: c.evidence == null ? null : JSON.stringify(c.evidence),
        };
      });
      await inBatches([...first, ...appended], (batch) =>
        tx.insertInto('function_name_history').values(batch).execute(),
      );
      for (const c of changes)
        await tx
          .updateTable('functions')
          .set(functionColumns(entryColumns(c)))
          .where('id', '=', c.functionId)
          .execute();
    });
  }

  private targets(tx: Transaction<Database>, ids: number[]) {
    return tx
      .selectFrom('functions as f')
      .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
      .select([
        'f.id',
        'f.analysis_id',
        'f.vaddr',
        'f.name',
        'f.mangled_name',
        'f.name_source_type',
        'f.debug',
        'f.name_source_function_id',
        'f.name_source_binary_id',
        'f.name_source_analysis_id',
        'a.user_id as owner_id',
        'a.created_at as analysed_at',
      ])
      .where('f.id', 'in', ids)
      .execute();
  }

  /** The latest `limit` entries of a function's history, oldest first, with who made each change. */
  async list(functionId: number, limit: number): Promise<NameHistoryRow[]> {
    const rows = await this.db
      .selectFrom('function_name_history as h')
      .innerJoin('users as u', 'u.id', 'h.user_id')
      .selectAll('h')
      .select('u.username')
      .where('h.function_id', '=', functionId)
      .orderBy('h.id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  /** One entry of a function's history, or undefined when the function has no such entry. */
  entry(functionId: number, historyId: number): Promise<Selectable<FunctionNameHistoryTable> | undefined> {
    return this.db
      .selectFrom('function_name_history')
      .selectAll()
      .where('id', '=', historyId)
      .where('function_id', '=', functionId)
      .executeTakeFirst();
  }
}
