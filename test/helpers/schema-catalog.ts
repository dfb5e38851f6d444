// What a migrated database holds, read from its own catalog (SQLite: sqlite_master and the table-valued
// pragmas; PostgreSQL: information_schema, pg_constraint, pg_index), in one shape for both dialects.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseDriver } from '../../src/store/index.js';

export interface Column {
  table: string;
  column: string;
  /** integer, text or blob: what both dialects' declared types mean to the store. */
  type: string;
  notNull: boolean;
}

export interface ForeignKey {
  table: string;
  columns: string[];
  parent: string;
  parentColumns: string[];
  onDelete: string;
}

export interface Index {
  table: string;
  /** Null for the primary key and the indexes of UNIQUE constraints, whose names each dialect makes up. */
  name: string | null;
  columns: string[];
  unique: boolean;
}

export interface Catalog {
  columns: Column[];
  foreignKeys: ForeignKey[];
  indexes: Index[];
}

// Kysely's schema types do not cover catalog tables: these queries are untyped.
type Db = Kysely<unknown>;
const rows = async <T>(db: Db, q: RawBuilder<T>) => (await q.execute(db)).rows;

const TYPES: Record<string, string> = {
  integer: 'integer',
  bigint: 'integer',
  smallint: 'integer',
  text: 'text',
  blob: 'blob',
  bytea: 'blob',
};
const normaliseType = (declared: string) => TYPES[declared.toLowerCase()] ?? declared.toLowerCase();

async function sqlite(db: Db): Promise<Catalog> {
  const tables = `(select name from sqlite_master where type = 'table' and name not like 'sqlite_%')`;
  const columns = await rows<{ table: string; column: string; type: string; notnull: number; pk: number }>(
    db,
    sql`select t.name as "table", c.name as "column", c.type, c."notnull", c.pk
        from ${sql.raw(tables)} t, pragma_table_info(t.name) c`,
  );
  const fkRows = await rows<{ table: string; id: number; from: string; parent: string; to: string; on_delete: string }>(
    db,
    sql`select t.name as "table", f.id, f."from", f."table" as parent, f."to", f.on_delete
        from ${sql.raw(tables)} t, pragma_foreign_key_list(t.name) f order by t.name, f.id, f.seq`,
  );
  const indexRows = await rows<{ table: string; name: string; unique: number; origin: string; column: string }>(
    db,
    sql`select t.name as "table", l.name, l."unique", l.origin, i.name as "column"
        from ${sql.raw(tables)} t, pragma_index_list(t.name) l, pragma_index_info(l.name) i
        order by t.name, l.name, i.seqno`,
  );
  const foreignKeys = new Map<string, ForeignKey>();
  for (const r of fkRows) {
    const key = `${r.table}#${r.id}`;
    const fk = foreignKeys.get(key) ?? {
      table: r.table,
      columns: [],
      parent: r.parent,
      parentColumns: [],
      onDelete: r.on_delete,
    };
    fk.columns.push(r.from);
    fk.parentColumns.push(r.to);
    foreignKeys.set(key, fk);
  }
  const indexes = new Map<string, Index>();
  for (const r of indexRows) {
    const key = `${r.table}#${r.name}`;
    const index = indexes.get(key) ?? {
      table: r.table,
      name: r.origin === 'c' ? r.name : null,
      columns: [],
      unique: r.unique === 1,
    };
    index.columns.push(r.column);
    indexes.set(key, index);
  }
  // A lone INTEGER PRIMARY KEY is the rowid, which pragma_index_list does not list.
  for (const c of columns)
    if (c.pk === 1 && c.type === 'INTEGER' && !columns.some((o) => o.table === c.table && o.pk === 2))
      indexes.set(`${c.table}#rowid`, { table: c.table, name: null, columns: [c.column], unique: true });
  return {
    // SQLite lets a non-integer primary key hold NULL; no write path stores one, PostgreSQL refuses it.
    columns: columns.map((c) => ({
      table: c.table,
      column: c.column,
      type: normaliseType(c.type),
      notNull: c.notnull === 1 || c.pk > 0,
    })),
    foreignKeys: [...foreignKeys.values()],
    indexes: [...indexes.values()],
  };
}

async function postgres(db: Db): Promise<Catalog> {
  const columns = await rows<{ table: string; column: string; type: string; nullable: string }>(
    db,
    sql`select table_name as "table", column_name as "column", data_type as type, is_nullable as nullable
        from information_schema.columns where table_schema = current_schema()`,
  );
  const foreignKeys = await rows<ForeignKey & { action: string }>(
    db,
    sql`select c.conrelid::regclass::text as "table", c.confrelid::regclass::text as parent, c.confdeltype as action,
          array(select a.attname::text from unnest(c.conkey) with ordinality k(n, o)
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.o) as columns,
          array(select a.attname::text from unnest(c.confkey) with ordinality k(n, o)
                join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.o) as "parentColumns"
        from pg_constraint c where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`,
  );
  const indexes = await rows<Index>(
    db,
    sql`select i.indrelid::regclass::text as "table", i.indisunique as "unique",
          case when exists (select 1 from pg_constraint c where c.conindid = i.indexrelid) then null
               else i.indexrelid::regclass::text end as name,
          array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality k(n, o)
                join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.o) as columns
        from pg_index i join pg_class t on t.oid = i.indrelid
        where t.relnamespace = current_schema()::regnamespace`,
  );
  // pg_constraint.confdeltype's letters, spelled as SQLite's pragma_foreign_key_list spells them.
  const actions: Record<string, string> = {
    a: 'NO ACTION',
    r: 'RESTRICT',
    c: 'CASCADE',
    n: 'SET NULL',
    d: 'SET DEFAULT',
  };
  return {
    columns: columns.map((c) => ({
      table: c.table,
      column: c.column,
      type: normaliseType(c.type),
      notNull: c.nullable === 'NO',
    })),
    foreignKeys: foreignKeys.map(({ action, ...fk }) => ({ ...fk, onDelete: actions[action] ?? action })),
    indexes,
  };
}

const readers: Record<DatabaseDriver['dialect'], (db: Db) => Promise<Catalog>> = { sqlite, postgres };

export const readCatalog = (driver: DatabaseDriver): Promise<Catalog> =>
  readers[driver.dialect](driver.db as unknown as Db);
