import type { Kysely, Selectable, SelectQueryBuilder, Transaction } from 'kysely';
import { errors } from '../shared/errors.js';
import { inKeyChunks } from './analysis-rows.js';
import { BATCH, inBatches } from './batches.js';
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

/**
 * Gives functions the names of the history entries `entryIds` selects (the latest of each function), as
 * one joined UPDATE (UPDATE … FROM, which both databases have); `types` keeps only entries of those
 * types. Naming 20 000 functions on PostgreSQL, on the shared 2-core VM: one UPDATE per function 9.9 s,
 * a correlated subquery per column 1.9 s, this join 0.5 s (SQLite: 1.3 s, -, 0.08 s).
 */
function takeNames(
  db: Kysely<Database>,
  entryIds: SelectQueryBuilder<Database, 'function_name_history', { id: number }>,
  types?: readonly string[],
) {
  let q = db
    .updateTable('functions')
    .from('function_name_history as h')
    .set((eb) => ({
      name: eb.ref('h.name'),
      mangled_name: eb.ref('h.mangled_name'),
      name_source_type: eb.ref('h.name_source_type'),
      debug: eb.ref('h.debug'),
      name_source_function_id: eb.ref('h.source_function_id'),
      name_source_binary_id: eb.ref('h.source_binary_id'),
      name_source_analysis_id: eb.ref('h.source_analysis_id'),
    }))
    .whereRef('functions.id', '=', 'h.function_id')
    .where('h.id', 'in', entryIds);
  if (types) q = q.where('h.name_source_type', 'in', types);
  return q.execute();
}

/** The id of the latest entry of each group of history entries `qb` selects. */
const latestIds = (qb: SelectQueryBuilder<Database, 'function_name_history', object>) =>
  qb.select((eb) => eb.fn.max<number>('id').as('id'));

const pickNames = (e: NameColumns): NameColumns => ({
  name: e.name,
  mangled_name: e.mangled_name,
  name_source_type: e.name_source_type,
  debug: e.debug,
  source_function_id: e.source_function_id,
  source_binary_id: e.source_binary_id,
  source_analysis_id: e.source_analysis_id,
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
 * After re-analysis replaced an analysis's functions: points every history entry at the new row at its
 * address, then gives each function the latest chosen name of its history. A function whose latest entry
 * is an analysis name (a revert to it) keeps the name the new run gave. Entries whose address the new run
 * did not recover stay, unattached, until a later run finds it again. Runs over the history ~1 000 entries
 * at a time (by address, each chunk one short transaction): unstripping may have named every function.
 */
export function reattachNames(db: Kysely<Database>, analysisId: number): Promise<void> {
  return inKeyChunks(db, 'function_name_history', analysisId, BATCH, (chunk) =>
    db.transaction().execute(async (tx) => {
      await tx
        .updateTable('function_name_history')
        .from('functions as f')
        .set((eb) => ({ function_id: eb.ref('f.id') }))
        .whereRef('f.vaddr', '=', 'function_name_history.vaddr')
        .where('f.analysis_id', '=', analysisId)
        .where(chunk)
        .execute();
      const byAddress = tx.selectFrom('function_name_history').where(chunk).groupBy('vaddr');
      await takeNames(tx, latestIds(byAddress), CHOSEN);
    }),
  );
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
    return this.append(
      changes.map((c) => ({
        functionId: c.functionId,
        names: entryColumns(c),
        userId: c.userId,
        evidence: c.evidence == null ? null : JSON.stringify(c.evidence),
      })),
    );
  }

  /**
   * Gives a function the name of one of its history entries again (with its type, source and evidence),
   * as a new entry by `userId`. False when the function has no such entry.
   */
  async revert(functionId: number, historyId: number, userId: number): Promise<boolean> {
    const e = await this.db
      .selectFrom('function_name_history')
      .selectAll()
      .where('id', '=', historyId)
      .where('function_id', '=', functionId)
      .executeTakeFirst();
    if (!e) return false;
    await this.append([{ functionId, names: e, userId, evidence: e.evidence }]);
    return true;
  }

  private append(changes: { functionId: number; names: NameColumns; userId: number; evidence: string | null }[]) {
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
          ...pickNames(c.names),
          function_id: c.functionId,
          analysis_id: t.analysis_id,
          vaddr: t.vaddr,
          user_id: c.userId,
          created_at: now,
          evidence: c.evidence,
        };
      });
      await inBatches([...first, ...appended], (batch) =>
        tx.insertInto('function_name_history').values(batch).execute(),
      );
      await inBatches(ids, (batch) =>
        takeNames(
          tx,
          latestIds(tx.selectFrom('function_name_history').where('function_id', 'in', batch).groupBy('function_id')),
        ),
      );
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
}
