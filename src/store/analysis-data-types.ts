// An analysis's type table (migration 010): one entry per C spelling its functions' data types use, with an id
// (/v3 data_type_id), and the types its owner defined; and which functions, by address, use which entries.
import { sql, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { DataTypeEntry } from '../shared/data-type-spelling.js';
import { errors } from '../shared/errors.js';
import { inBatches } from './batches.js';
import { containsText } from './like.js';
import type { AnalysisDataTypesTable, Database } from './schema.js';

export type DataTypeRow = Selectable<AnalysisDataTypesTable>;

/** A row of the analysis's type table as the entry it stores. */
export const tableEntry = (t: DataTypeRow): DataTypeEntry => ({
  name: t.name,
  kind: t.kind as DataTypeEntry['kind'],
  size: t.size,
  definition: t.definition === null ? null : (JSON.parse(t.definition) as DataTypeEntry['definition']),
});
type Db = Kysely<Database> | Transaction<Database>;

/** Who gave a type its definition: a generation (SYSTEM) or a person (USER). */
export type DataTypeSource = 'SYSTEM' | 'USER';

/** Kinds whose definition comes from a declaration; a pointer's or array's follows from its spelling. */
const DECLARED = ['STRUCT', 'UNION', 'ENUM', 'TYPEDEF'];

export interface DataTypeFilter {
  kinds?: string[];
  namespaces?: string[];
  search?: string;
  sourceTypes?: string[];
  orderBy: 'name' | 'size';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A type as a person defines it (/v3 POST and PUT …/data-types): a full entry. */
export interface DefinedDataType extends DataTypeEntry {
  namespace: string;
}

/** Who writes the types of a function's data types, and, for a copied signature, which function it came from. */
export interface DataTypeWrite {
  source: DataTypeSource;
  from: { analysisId: number; functionId: number } | null;
}

export class AnalysisDataTypesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds `entries` to the analysis's table and returns the id of each by name. A declared definition (structure,
   * union, enumeration, typedef) replaces the stored one when a person gives it (USER) or when a generation
   * updates its own (SYSTEM over SYSTEM); a generation never replaces what a person defined, and a copied
   * signature brings the definitions the analysis lacks without replacing its own.
   */
  async register(
    tx: Db,
    analysisId: number,
    entries: DataTypeEntry[],
    { source, from }: DataTypeWrite,
  ): Promise<Map<string, number>> {
    const unique = [...new Map(entries.map((e) => [e.name, e])).values()];
    const now = Date.now();
    const row = (e: DataTypeEntry) => ({
      analysis_id: analysisId,
      name: e.name,
      namespace: '',
      kind: e.kind,
      size: e.size,
      definition: e.definition ? JSON.stringify(e.definition) : null,
      source_type: source,
      source_analysis_id: from?.analysisId ?? null,
      source_function_id: from?.functionId ?? null,
      created_at: now,
      updated_at: now,
    });
    const declared = from ? [] : unique.filter((e) => e.definition && DECLARED.includes(e.kind));
    await inBatches(declared, (batch) =>
      tx
        .insertInto('analysis_data_types')
        .values(batch.map(row))
        .onConflict((oc) => {
          const update = oc.columns(['analysis_id', 'name']).doUpdateSet((eb) => ({
            kind: eb.ref('excluded.kind'),
            size: sql<number | null>`coalesce(excluded.size, analysis_data_types.size)`,
            definition: eb.ref('excluded.definition'),
            source_type: eb.ref('excluded.source_type'),
            updated_at: eb.ref('excluded.updated_at'),
          }));
          return source === 'USER' ? update : update.where('analysis_data_types.source_type', '=', 'SYSTEM');
        })
        .execute(),
    );
    const implied = unique.filter((e) => !declared.includes(e));
    await inBatches(implied, (batch) =>
      tx
        .insertInto('analysis_data_types')
        .values(batch.map(row))
        .onConflict((oc) => oc.columns(['analysis_id', 'name']).doNothing())
        .execute(),
    );
    const rows = await this.byNames(
      analysisId,
      unique.map((e) => e.name),
      tx,
    );
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Replaces what the functions at `vaddrs` use with `uses` (type names, resolved through `ids`). */
  async setUses(
    tx: Db,
    analysisId: number,
    vaddrs: number[],
    uses: { vaddr: number; names: string[] }[],
    ids: Map<string, number>,
  ): Promise<void> {
    await inBatches(vaddrs, (batch) =>
      tx.deleteFrom('data_type_uses').where('analysis_id', '=', analysisId).where('vaddr', 'in', batch).execute(),
    );
    const rows = uses.flatMap((u) =>
      [...new Set(u.names.map((n) => ids.get(n)))]
        .filter((id) => id !== undefined)
        .map((id) => ({ data_type_id: id, analysis_id: analysisId, vaddr: u.vaddr })),
    );
    await inBatches(rows, (batch) => tx.insertInto('data_type_uses').values(batch).execute());
  }

  /** A page of the table, filtered, and how many entries pass the filter. */
  async list(analysisId: number, f: DataTypeFilter): Promise<{ rows: DataTypeRow[]; total: number }> {
    let q = this.db.selectFrom('analysis_data_types').where('analysis_id', '=', analysisId);
    if (f.kinds?.length) q = q.where('kind', 'in', f.kinds);
    if (f.namespaces?.length) q = q.where('namespace', 'in', f.namespaces);
    if (f.sourceTypes?.length) q = q.where('source_type', 'in', f.sourceTypes);
    if (f.search) q = q.where(containsText('name', f.search));
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    // Unknown sizes sort first both ways on both databases (they disagree on where NULL goes).
    const key = f.orderBy === 'size' ? sql`coalesce(size, -1)` : sql`name`;
    const rows = await q.selectAll().orderBy(key, f.order).orderBy('id').limit(f.limit).offset(f.offset).execute();
    return { rows, total: Number(total.n) };
  }

  byIds(analysisId: number, ids: number[], db: Db = this.db): Promise<DataTypeRow[]> {
    return this.matching(analysisId, 'id', ids, db);
  }

  byNames(analysisId: number, names: string[], db: Db = this.db): Promise<DataTypeRow[]> {
    return this.matching(analysisId, 'name', names, db);
  }

  /** The analysis's entries whose `column` is one of `values` (1 000 values a query). */
  private async matching(
    analysisId: number,
    column: 'id' | 'name',
    values: (number | string)[],
    db: Db,
  ): Promise<DataTypeRow[]> {
    const out: DataTypeRow[] = [];
    await inBatches([...new Set(values)], async (batch) => {
      out.push(
        ...(await db
          .selectFrom('analysis_data_types')
          .selectAll()
          .where('analysis_id', '=', analysisId)
          .where(sql<SqlBool>`${sql.ref(column)} in (${sql.join(batch)})`)
          .execute()),
      );
    });
    return out;
  }

  /** The entries the functions at `vaddrs` use, each with the address of its user. */
  async usedBy(analysisId: number, vaddrs: number[]): Promise<(DataTypeRow & { vaddr: number })[]> {
    const out: (DataTypeRow & { vaddr: number })[] = [];
    await inBatches([...new Set(vaddrs)], async (batch) => {
      out.push(
        ...(await this.db
          .selectFrom('data_type_uses as u')
          .innerJoin('analysis_data_types as t', 't.id', 'u.data_type_id')
          .selectAll('t')
          .select('u.vaddr')
          .where('u.analysis_id', '=', analysisId)
          .where('u.vaddr', 'in', batch)
          .orderBy('t.id')
          .execute()),
      );
    });
    return out;
  }

  /** The analysis's functions using the entry, by function id after `after`: a keyset page. */
  functionsUsing(analysisId: number, dataTypeId: number, after: number, limit: number) {
    return this.db
      .selectFrom('data_type_uses as u')
      .innerJoin('functions as f', (j) =>
        j.onRef('f.analysis_id', '=', 'u.analysis_id').onRef('f.vaddr', '=', 'u.vaddr'),
      )
      .select(['f.id', 'f.name'])
      .where('u.data_type_id', '=', dataTypeId)
      .where('u.analysis_id', '=', analysisId)
      .where('f.id', '>', after)
      .orderBy('f.id')
      .limit(limit)
      .execute();
  }

  /** Adds types a person defined; 409 when a name is taken. */
  create(analysisId: number, entries: DefinedDataType[]): Promise<DataTypeRow[]> {
    return this.db.transaction().execute(async (tx) => {
      const taken = await this.byNames(
        analysisId,
        entries.map((e) => e.name),
        tx,
      );
      if (taken[0]) throw errors.dataTypeExists(taken[0].name);
      const now = Date.now();
      const out: DataTypeRow[] = [];
      await inBatches(entries, async (batch) => {
        out.push(
          ...(await tx
            .insertInto('analysis_data_types')
            .values(batch.map((e) => ({ ...columns(e), analysis_id: analysisId, created_at: now, updated_at: now })))
            .returningAll()
            .execute()),
        );
      });
      return out;
    });
  }

  /**
   * Replaces types by id (all or nothing): 404 for an id not in the table; 409 for a new name that is taken, or
   * for renaming a type functions use (their data types spell it by its name).
   */
  update(analysisId: number, entries: (DefinedDataType & { id: number })[]): Promise<DataTypeRow[]> {
    return this.db.transaction().execute(async (tx) => {
      const stored = new Map(
        (
          await this.byIds(
            analysisId,
            entries.map((e) => e.id),
            tx,
          )
        ).map((r) => [r.id, r]),
      );
      const missing = entries.find((e) => !stored.has(e.id));
      if (missing) throw errors.dataTypeNotFound(missing.id, analysisId);
      const renamed = entries.filter((e) => stored.get(e.id)!.name !== e.name);
      const taken = await this.byNames(
        analysisId,
        renamed.map((e) => e.name),
        tx,
      );
      // A name another entry holds, even one this request renames too (a swap would pass through a clash).
      const clash = taken.find((t) => renamed.find((e) => e.name === t.name)!.id !== t.id);
      if (clash) throw errors.dataTypeExists(clash.name);
      for (const e of renamed) {
        const used = await tx
          .selectFrom('data_type_uses')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('data_type_id', '=', e.id)
          .executeTakeFirstOrThrow();
        if (Number(used.n) > 0) throw errors.dataTypeInUse(stored.get(e.id)!.name, Number(used.n));
      }
      const now = Date.now();
      for (const e of entries)
        await tx
          .updateTable('analysis_data_types')
          .set({ ...columns(e), updated_at: now })
          .where('id', '=', e.id)
          .execute();
      return this.byIds(
        analysisId,
        entries.map((e) => e.id),
        tx,
      );
    });
  }
}

/** The stored columns of a type a person defined. */
const columns = (e: DefinedDataType) => ({
  name: e.name,
  namespace: e.namespace,
  kind: e.kind,
  size: e.size,
  definition: e.definition ? JSON.stringify(e.definition) : null,
  source_type: 'USER',
  source_analysis_id: null,
  source_function_id: null,
});
