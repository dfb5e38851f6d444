// An analysis's large sets of rows (functions and what hangs off them, strings, name history) are written,
// walked and removed a chunk at a time, each chunk one short statement or transaction with the event loop
// free between chunks. SQLite runs on the API's event loop through one connection, so one transaction
// over all of them held every other request: 2–5 s for an analysis of 50 000 functions (docs/decisions.md,
// "Short transactions").
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { BATCH, yieldToEventLoop } from './batches.js';
import type { Database } from './schema.js';

/** Each table walked in chunks, with the column that follows analysis_id in one of its indexes. */
const KEYS = {
  function_lsh: 'bucket',
  xrefs: 'from_vaddr',
  string_refs: 'string_vaddr',
  function_calls: 'site',
  function_name_history: 'vaddr',
  functions: 'vaddr',
  analysis_strings: 'vaddr',
  data_type_uses: 'vaddr',
  analysis_data_types: 'id',
  function_data_type_history: 'vaddr',
  function_data_types: 'vaddr',
  function_decompilations: 'vaddr',
  decompilation_ratings: 'vaddr',
} as const;
type Walked = keyof typeof KEYS;

/** Functions per chunk: each comes with its vector (LSH buckets are written and cleared on their own). */
export const FUNCTIONS_PER_CHUNK = BATCH / 2;

/**
 * Runs `step` once per chunk of an analysis's rows of `table`: at most `rows` rows in key order, found by
 * seeking the (analysis_id, key) index to the chunk's last key (rows sharing that key join the chunk).
 * `step` gets the chunk's condition, with qualified column names so it also serves joins; the last chunk
 * is open-ended, so rows added meanwhile are in it too. Yields to the event loop after each chunk.
 */
export async function inKeyChunks(
  db: Kysely<Database>,
  table: Walked,
  analysisId: number,
  rows: number,
  step: (chunk: RawBuilder<SqlBool>) => Promise<unknown>,
): Promise<void> {
  const key = sql.ref(`${table}.${KEYS[table]}`);
  const ofAnalysis = sql<SqlBool>`${sql.ref(`${table}.analysis_id`)} = ${analysisId}`;
  let after: number | null = null;
  for (;;) {
    const from: RawBuilder<SqlBool> = after === null ? ofAnalysis : sql`${ofAnalysis} and ${key} > ${after}`;
    const edge = await sql<{ key: number }>`select ${key} as key from ${sql.table(table)} where ${from}
      order by ${key} limit 1 offset ${rows - 1}`.execute(db);
    const last = edge.rows[0]?.key;
    await step(last === undefined ? from : sql<SqlBool>`${from} and ${key} <= ${last}`);
    await yieldToEventLoop();
    if (last === undefined) return;
    after = Number(last);
  }
}

const deleteInChunks = (db: Kysely<Database>, table: Walked, analysisId: number, rows = BATCH) =>
  inKeyChunks(db, table, analysisId, rows, (chunk) => db.deleteFrom(table).where(chunk).execute());

/**
 * Removes what recovery wrote for an analysis: LSH buckets (in key order, as insertBuckets writes them),
 * xrefs, string references, calls, functions (with their vectors) and the strings it found. Strings users
 * added stay, and so does the name history (deleting a function nulls its entries' function_id;
 * reattachNames points them at the new rows).
 */
export async function clearResults(db: Kysely<Database>, analysisId: number): Promise<void> {
  // Children first: a function's delete then finds none of them left to cascade to.
  for (const table of ['function_lsh', 'xrefs', 'string_refs', 'function_calls'] as const)
    await deleteInChunks(db, table, analysisId);
  await deleteInChunks(db, 'functions', analysisId, FUNCTIONS_PER_CHUNK);
  await inKeyChunks(db, 'analysis_strings', analysisId, BATCH, (chunk) =>
    db.deleteFrom('analysis_strings').where(chunk).where('source', '=', 'SYSTEM').execute(),
  );
}

/**
 * Removes the parts of an analysis that grow with its binary, so that deleting its row afterwards cascades
 * only to a few rows (tags, stages, log lines, jobs, runs, documents, collection memberships).
 */
export async function clearAnalysis(db: Kysely<Database>, analysisId: number): Promise<void> {
  // The history first: deleting functions would otherwise null each entry's function_id, to no purpose.
  await deleteInChunks(db, 'function_name_history', analysisId);
  await clearResults(db, analysisId);
  await deleteInChunks(db, 'analysis_strings', analysisId);
  // Data types: uses before the type table, so no type's delete cascades to them.
  for (const table of ['data_type_uses', 'analysis_data_types', 'function_data_type_history'] as const)
    await deleteInChunks(db, table, analysisId);
  await deleteInChunks(db, 'function_data_types', analysisId, FUNCTIONS_PER_CHUNK);
  for (const table of ['function_decompilations', 'decompilation_ratings'] as const)
    await deleteInChunks(db, table, analysisId, FUNCTIONS_PER_CHUNK);
}
