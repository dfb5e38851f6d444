// The local vulnerability database on every driver: replace by id, lookup by package name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type OsvRecordRow, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { migratedStore } from '../helpers/store-fixtures.js';

const row = (id: string, packages: string[], summary = id): OsvRecordRow => ({
  id,
  modified: '2026-01-01T00:00:00Z',
  document: JSON.stringify({ id, summary }),
  packages,
});

for (const backend of backends) {
  describe(`vulnerability records (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    test('records are found by any package they affect, each once', async () => {
      await store.vulnerabilities.upsert([row('A', ['zlib']), row('B', ['zlib', 'minizip']), row('C', ['lz4'])]);
      const ids = async (names: string[]) =>
        (await store.vulnerabilities.forPackages(names)).map((d) => (JSON.parse(d) as { id: string }).id);
      assert.deepEqual(await ids(['zlib']), ['A', 'B']);
      assert.deepEqual(await ids(['zlib', 'minizip']), ['A', 'B']);
      assert.deepEqual(await ids(['lz4', 'openssl']), ['C']);
      assert.deepEqual(await ids([]), []);
    });

    test('a record imported again is replaced, packages included; duplicates in one batch keep the last', async () => {
      await store.vulnerabilities.upsert([row('B', ['bzip2'], 'old'), row('B', ['bzip2'], 'new')]);
      const zlib = (await store.vulnerabilities.forPackages(['zlib'])).map((d) => (JSON.parse(d) as { id: string }).id);
      assert.deepEqual(zlib, ['A']);
      const [b] = await store.vulnerabilities.forPackages(['bzip2']);
      assert.equal((JSON.parse(b!) as { summary: string }).summary, 'new');
      assert.equal(await store.vulnerabilities.count(), 3);
    });

    test('large imports go in batches', async () => {
      const many = Array.from({ length: 1200 }, (_, i) => row(`M${i}`, ['big', `p${i}`]));
      await store.vulnerabilities.upsert(many);
      assert.equal((await store.vulnerabilities.forPackages(['big'])).length, 1200);
    });
  });
}
