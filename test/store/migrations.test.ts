// The schema the migrations build, read back from each database's catalog: every foreign key has an index
// (a parent's delete otherwise scans the child table once per parent row), and the two dialects' migration
// sets build the same tables, columns, indexes and foreign keys.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseDriver } from '../../src/store/index.js';
import { backends, type Backend, type TestDatabase } from '../helpers/backends.js';
import { readCatalog, type Catalog } from '../helpers/schema-catalog.js';

/** Migrates a fresh database of `backend` and reads its catalog. */
async function migratedCatalog(backend: Backend): Promise<Catalog> {
  const db = await backend.create();
  const driver = openDatabase(db.url);
  try {
    await driver.migrate();
    return await readCatalog(driver);
  } finally {
    await driver.close();
    await db.drop();
  }
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

for (const backend of backends) {
  describe(`migrations (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let driver: DatabaseDriver;

    before(async () => {
      db = await backend.create();
      driver = openDatabase(db.url);
      await driver.migrate();
    });
    after(async () => {
      await driver.close();
      await db.drop();
    });

    test('every foreign key is the leading columns of an index (or the primary key)', async () => {
      const { foreignKeys, indexes } = await readCatalog(driver);
      assert.ok(foreignKeys.length > 20, `read ${foreignKeys.length} foreign keys`);
      const unindexed = foreignKeys
        .filter(
          (fk) =>
            !indexes.some((i) => i.table === fk.table && sameSet(i.columns.slice(0, fk.columns.length), fk.columns)),
        )
        .map((fk) => `${fk.table}(${fk.columns.join(', ')}) → ${fk.parent}`);
      assert.deepEqual(unindexed, [], 'foreign keys without an index');
    });
  });
}

/** One line per column, index and foreign key, the same for both dialects when their schemas agree. */
function lines(c: Catalog): Set<string> {
  return new Set([
    ...c.columns.map((x) => `column ${x.table}.${x.column} ${x.type}${x.notNull ? ' not null' : ''}`),
    ...c.indexes.map(
      (x) => `index ${x.table} ${x.name ?? '(constraint)'} (${x.columns.join(', ')})${x.unique ? ' unique' : ''}`,
    ),
    ...c.foreignKeys.map(
      (x) =>
        `foreign key ${x.table}(${x.columns.join(', ')}) → ${x.parent}(${x.parentColumns.join(', ')}) on delete ${x.onDelete}`,
    ),
  ]);
}

const postgres = backends.find((b) => b.name === 'postgres')!;
const sqlite = backends.find((b) => b.name === 'sqlite')!;

describe('migrations: SQLite and PostgreSQL', { skip: postgres.skip ?? false }, () => {
  test('build the same tables, columns (type, nullability), indexes and foreign keys', async () => {
    const [lite, pg] = (await Promise.all([sqlite, postgres].map(migratedCatalog))).map(lines);
    assert.ok(lite!.size > 200, `read ${lite!.size} schema lines`);
    assert.deepEqual(
      { onlySqlite: [...lite!].filter((l) => !pg!.has(l)), onlyPostgres: [...pg!].filter((l) => !lite!.has(l)) },
      { onlySqlite: [], onlyPostgres: [] },
    );
  });
});
