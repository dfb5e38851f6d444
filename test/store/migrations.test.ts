// The schema the migrations build, read back from each database's catalog: every foreign key has an index
// (a parent's delete otherwise scans the child table once per parent row).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseDriver } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { readCatalog } from '../helpers/schema-catalog.js';

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
