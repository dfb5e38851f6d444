// CollectionsRepository on every database driver: membership, visibility, filters and the tag vocabulary.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CollectionFilter, type Store } from '../../src/store/index.js';
import type { Viewer } from '../../src/store/analyses.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { newAnalysis, migratedStore } from '../helpers/store-fixtures.js';

const LIST: CollectionFilter = { flags: [], orderBy: 'collection', order: 'asc', limit: 50, offset: 0 };

for (const backend of backends) {
  describe(`collections store (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    let alice: Viewer;
    let bob: Viewer;
    let carol: Viewer;

    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
      const user = async (username: string, teamName: string | null) => {
        const u = await store.users.create({
          username,
          email: `${username}@x.io`,
          role: 'USER',
          teamName,
          apiKeyHash: username,
        });
        return { id: u.id, teamId: u.team_id };
      };
      alice = await user('alice', 'red');
      bob = await user('bob', null);
      carol = await user('carol', 'red');
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    let n = 0;
    /** A new analysis; returns its binary id. */
    const binary = async (owner: Viewer, scope: string, name = `b${++n}.bin`, tags: string[] = []) => {
      const r = await newAnalysis(store, owner.id, name, scope);
      await store.analyses.addTags(r.analysisId, tags);
      return r.binaryId;
    };
    const collection = (
      owner: Viewer,
      scope: string,
      binaryIds: number[] = [],
      name = `c${++n}`,
      tags: string[] = [],
    ) =>
      store.collections.create({ userId: owner.id, name, description: 'd', scope, modelName: null, binaryIds, tags });

    test('binaryIds: only visible collections, only visible binaries, ascending, no repeats', async () => {
      const alicePublic = await binary(alice, 'PUBLIC');
      const alicePrivate = await binary(alice, 'PRIVATE');
      const bobPrivate = await binary(bob, 'PRIVATE');
      const open = await collection(alice, 'PUBLIC', [alicePrivate, alicePublic]);
      const mine = await collection(alice, 'PRIVATE', [alicePublic]);
      const team = await collection(alice, 'TEAM', [alicePrivate]);
      const bobs = await collection(bob, 'PUBLIC', [bobPrivate, alicePublic]);

      assert.deepEqual(await store.collections.binaryIds([open, mine, team, bobs], alice), [alicePublic, alicePrivate]);
      // bob: alice's PRIVATE collection and her PRIVATE analysis are invisible; his own private binary is his.
      assert.deepEqual(await store.collections.binaryIds([open, mine, team, bobs], bob), [alicePublic, bobPrivate]);
      // carol shares alice's team: TEAM collections and alice's PRIVATE analyses, not her PRIVATE collections.
      assert.deepEqual(await store.collections.binaryIds([team], carol), [alicePrivate]);
      assert.deepEqual(await store.collections.binaryIds([mine], carol), []);
      assert.deepEqual(await store.collections.binaryIds([999999], alice), []);
      // More ids than one statement takes: answered in batches, merged, still ascending.
      const many = Array.from({ length: 12_000 }, (_, i) => 1_000_000 + i);
      assert.deepEqual(await store.collections.binaryIds([bobs, ...many, open], alice), [alicePublic, alicePrivate]);
      assert.deepEqual(await store.collections.binaryIds([], alice), []);
    });

    test('deleting an analysis removes its binary from every collection', async () => {
      const b = await binary(alice, 'PUBLIC');
      const c = await collection(alice, 'PUBLIC', [b]);
      const a = await store.analyses.byBinaryId(b);
      assert.ok(await store.analyses.deleteMany([a!.id]));
      assert.deepEqual(await store.collections.binaryIds([c], alice), []);
    });

    test('replace, add and tags; deleting the collection keeps the binaries', async () => {
      const [b1, b2, b3] = [
        await binary(alice, 'PUBLIC'),
        await binary(alice, 'PUBLIC'),
        await binary(alice, 'PUBLIC'),
      ];
      const c = await collection(alice, 'PRIVATE', [b1], 'replace-me', ['x']);
      await store.collections.replaceBinaries(c, [b2, b3, b3]);
      assert.deepEqual(await store.collections.binaryIds([c], alice), [b2, b3]);
      await store.collections.addBinaries(c, [b1, b2]);
      assert.deepEqual(await store.collections.binaryIds([c], alice), [b1, b2, b3]);
      const page = await store.collections.binaries(c, alice, { offset: 1, limit: 1 });
      assert.deepEqual(
        page.map((r) => r.binary_id),
        [b2],
      );
      await store.collections.replaceTags(c, ['y', 'z', 'y']);
      assert.deepEqual(
        (await store.collections.tags([c])).map((t) => t.name),
        ['y', 'z'],
      );
      await store.collections.delete(c);
      assert.equal(await store.collections.get(c), undefined);
      assert.ok(await store.analyses.byBinaryId(b1));
    });

    test('every tag name gets one id, from analyses and collections alike', async () => {
      await binary(alice, 'PUBLIC', 'tagged.bin', ['vocab-a', 'vocab-b']);
      await collection(alice, 'PUBLIC', [], 'tagged', ['vocab-b', 'vocab-c']);
      const rows = await store.driver.db
        .selectFrom('tags')
        .select(['id', 'name'])
        .where('name', 'like', 'vocab-%')
        .orderBy('name')
        .execute();
      assert.deepEqual(
        rows.map((r) => r.name),
        ['vocab-a', 'vocab-b', 'vocab-c'],
      );
      assert.equal(new Set(rows.map((r) => r.id)).size, 3);
    });

    test('list: visibility, visible size, filters, order and paging', async () => {
      const priv = await binary(bob, 'PRIVATE', 'hidden.bin');
      const pub = await binary(bob, 'PUBLIC', 'shown.bin');
      const full = await collection(bob, 'PUBLIC', [priv, pub], 'list-full', ['list-t1', 'list-t2']);
      const empty = await collection(bob, 'PUBLIC', [], 'list-empty', ['list-t1']);
      const hidden = await collection(bob, 'PRIVATE', [pub], 'list-hidden');
      const filter = (f: Partial<CollectionFilter>) => ({ ...LIST, name: 'list-', ...f });
      const ids = async (viewer: Viewer, f: Partial<CollectionFilter> = {}) =>
        (await store.collections.list(viewer, filter(f))).map((r) => r.id);

      assert.deepEqual(await ids(alice), [empty, full]);
      assert.deepEqual(await ids(bob), [empty, full, hidden]);
      const sizes = await store.collections.list(alice, filter({}));
      assert.deepEqual(
        sizes.map((r) => Number(r.size)),
        [0, 1],
      );
      assert.equal((await store.collections.list(bob, filter({}))).find((r) => r.id === full)?.size, 2);
      assert.deepEqual(await ids(alice, { flags: ['hide_empty'] }), [full]);
      assert.deepEqual(await ids(alice, { flags: ['user_only'] }), []);
      assert.deepEqual(await ids(bob, { flags: ['public_only'] }), [empty, full]);
      assert.deepEqual(await ids(bob, { flags: ['team_only'] }), []);
      assert.deepEqual(await ids(alice, { tags: ['list-t1', 'list-t2'] }), [full]);
      assert.deepEqual(await ids(alice, { binaryName: 'SHOWN' }), [full]);
      // A binary the viewer cannot see does not make its collection match.
      assert.deepEqual(await ids(alice, { binaryName: 'hidden' }), []);
      assert.deepEqual(await ids(bob, { binaryName: 'hidden' }), [full]);
      assert.deepEqual(await ids(alice, { orderBy: 'collection_size', order: 'desc' }), [full, empty]);
      assert.deepEqual(await ids(bob, { limit: 1, offset: 1 }), [full]);
      assert.deepEqual(await ids(alice, { search: 'list-e%' }), []);
    });

    test('visibleBinaryIds: what exists and the viewer can see', async () => {
      const mine = await binary(bob, 'PRIVATE');
      const theirs = await binary(alice, 'PRIVATE');
      assert.deepEqual([...(await store.collections.visibleBinaryIds([mine, theirs, 999999], bob))], [mine]);
      assert.deepEqual([...(await store.collections.visibleBinaryIds([theirs], carol))], [theirs]);
    });
  });
}
