// SearchRepository on every database driver, over more functions than one scan step (20 000) covers, so
// pages that start, end and span step boundaries are checked against the same search done in memory.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Store } from '../../src/store/index.js';
import type { Viewer } from '../../src/store/analyses.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { functionRecord, newAnalysis, migratedStore } from '../helpers/store-fixtures.js';

const PER_ANALYSIS = 13_000;

for (const backend of backends) {
  describe(`search store (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    let alice: Viewer;
    let bob: Viewer;
    /** Every function as [id, name, owner is alice and private], in id order. */
    const rows: { id: number; name: string; hiddenFromBob: boolean }[] = [];

    before(async () => {
      if (backend.skip) return;
      db = await backend.create();
      store = await migratedStore(db);
      const user = async (username: string) => {
        const u = await store.users.create({
          username,
          email: username,
          role: 'USER',
          teamName: null,
          apiKeyHash: username,
        });
        return { id: u.id, teamId: u.team_id };
      };
      alice = await user('alice');
      bob = await user('bob');
      // alice's PRIVATE analysis, then bob's PUBLIC one: 26 000 functions, names repeating every 1000.
      for (const [owner, scope, n] of [
        [alice, 'PRIVATE', 1],
        [bob, 'PUBLIC', 2],
      ] as const) {
        const { analysisId } = await newAnalysis(store, owner.id, `b${n}`, scope);
        const functions = Array.from({ length: PER_ANALYSIS }, (_, i) => functionRecord(i, `f${n}_${i % 1000}`));
        await store.functions.replace(analysisId, { functions, calls: [], strings: [], refs: [] });
        for (const f of await store.functions.map(analysisId))
          rows.push({ id: f.id, name: f.name, hiddenFromBob: owner === alice });
      }
      rows.sort((a, b) => a.id - b.id);
    });
    after(async () => {
      if (backend.skip) return;
      await store.driver.close();
      await db.drop();
    });

    const expected = (viewer: Viewer, name: string, offset: number, limit: number) =>
      rows
        .filter((r) => r.name.includes(name) && (viewer === alice || !r.hiddenFromBob))
        .slice(offset, offset + limit)
        .map((r) => r.id);
    const found = async (viewer: Viewer, name: string, offset: number, limit: number) =>
      (await store.search.functions(viewer, { name, offset, limit })).map((r) => r.id);

    test('pages across scan steps match the search done in memory, for each viewer', async () => {
      for (const [viewer, name, offset, limit] of [
        [alice, '_7', 0, 10],
        [alice, '_999', 20, 10],
        [alice, '_999', 24, 4],
        [bob, '_5', 0, 25],
        [bob, 'f1_', 0, 5],
        [bob, '_12', 100, 50],
        [alice, 'nothing', 0, 10],
      ] as const)
        assert.deepEqual(
          await found(viewer, name, offset, limit),
          expected(viewer, name, offset, limit),
          `${name} ${offset}`,
        );
    });

    test('binaries: newest first, only visible ones', async () => {
      const names = async (viewer: Viewer) =>
        (await store.search.binaries(viewer, { name: 'b', offset: 0, limit: 10 })).map((b) => b.binary_name);
      assert.deepEqual(await names(alice), ['b2', 'b1']);
      assert.deepEqual(await names(bob), ['b2']);
    });
  });
}
