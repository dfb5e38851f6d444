// Function names and their history on every database driver: applying names in one transaction, the
// analysis name as first entry, and names surviving re-analysis (functions replaced) by address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type NameChange, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { functionsAt, newAnalysis, migratedStore } from '../helpers/store-fixtures.js';

for (const backend of backends) {
  describe(`name history (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    let alice: number;
    let bob: number;

    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
      const user = (username: string) =>
        store.users.create({ username, email: `${username}@x.io`, role: 'USER', teamName: null, apiKeyHash: username });
      alice = (await user('alice')).id;
      bob = (await user('bob')).id;
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    /** An analysis of alice's with functions at these addresses; its functions by address. */
    const analysed = async (vaddrs: number[], calls: [number, number][] = []) => {
      const { analysisId } = await newAnalysis(store, alice);
      await store.functions.replace(analysisId, functionsAt(vaddrs, calls));
      return { analysisId, byVaddr: await byVaddr(analysisId) };
    };
    const byVaddr = async (analysisId: number) =>
      new Map((await store.functions.page(analysisId, { offset: 0, limit: 100 })).map((f) => [f.vaddr, f]));
    const names = async (functionId: number) =>
      (await store.nameHistory.list(functionId, 100)).map((e) => [e.name, e.name_source_type, e.username]);

    test('applyNames renames, records the source, and starts history with the analysis name', async () => {
      const { analysisId, byVaddr: fns } = await analysed([0x1000, 0x2000], [[1, 0]]);
      const f = fns.get(0x1000)!;
      const source = { functionId: 77, binaryId: 5, analysisId: 6 };
      const evidence = { similarity: 0.97, confidence: 0.91, neighbours: 3 };
      await store.nameHistory.applyNames([
        { functionId: f.id, name: 'parse_header', sourceType: 'AUTO_UNSTRIP', userId: bob, source, evidence },
      ]);
      const after = (await byVaddr(analysisId)).get(0x1000)!;
      assert.deepEqual(
        [after.name, after.mangled_name, after.name_source_type, after.debug],
        ['parse_header', 'parse_header', 'AUTO_UNSTRIP', 0],
      );
      assert.deepEqual(
        [after.name_source_function_id, after.name_source_binary_id, after.name_source_analysis_id],
        [77, 5, 6],
      );
      assert.deepEqual(await names(f.id), [
        ['sub_1000', 'SYSTEM', 'alice'],
        ['parse_header', 'AUTO_UNSTRIP', 'bob'],
      ]);
      const callees = await store.functions.callees(fns.get(0x2000)!.id);
      assert.deepEqual(
        callees.map((c) => c.callee_name),
        ['parse_header'],
        'callers see the new name',
      );
      const [, applied] = await store.nameHistory.list(f.id, 100);
      assert.deepEqual(JSON.parse(applied!.evidence!), evidence);
      assert.deepEqual(await store.nameHistory.list(fns.get(0x2000)!.id, 100), [], 'untouched functions have none');

      await store.nameHistory.applyNames([
        { functionId: f.id, name: 'parse_hdr', mangledName: '_Z9parse_hdrv', sourceType: 'USER', userId: alice },
      ]);
      const renamed = (await byVaddr(analysisId)).get(0x1000)!;
      assert.deepEqual(
        [renamed.name, renamed.mangled_name, renamed.name_source_type, renamed.name_source_function_id],
        ['parse_hdr', '_Z9parse_hdrv', 'USER', null],
      );
      assert.equal((await names(f.id)).length, 3, 'the analysis name is recorded once');
      assert.equal((await store.nameHistory.list(f.id, 2))[1]!.name, 'parse_hdr', 'a limit keeps the latest');
    });

    test('applyNames is all or nothing, and applies changes in order', async () => {
      const { analysisId, byVaddr: fns } = await analysed([0x10, 0x20]);
      const [a, b] = [fns.get(0x10)!.id, fns.get(0x20)!.id];
      const change = (functionId: number, name: string): NameChange => ({
        functionId,
        name,
        sourceType: 'USER',
        userId: alice,
      });
      await assert.rejects(store.nameHistory.applyNames([change(a, 'x'), change(987654321, 'y')]), {
        status: 404,
        message: 'Function with ID 987654321 could not be found',
      });
      assert.equal((await byVaddr(analysisId)).get(0x10)!.name, 'sub_10');
      assert.deepEqual(await store.nameHistory.list(a, 100), []);

      await store.nameHistory.applyNames([change(a, 'first'), change(b, 'other'), change(a, 'second')]);
      const now = await byVaddr(analysisId);
      assert.deepEqual([now.get(0x10)!.name, now.get(0x20)!.name], ['second', 'other']);
      assert.deepEqual(
        (await names(a)).map(([n]) => n),
        ['sub_10', 'first', 'second'],
      );
      await store.nameHistory.applyNames([]);
    });

    test('re-analysis keeps chosen names by address, and history with them', async () => {
      const { analysisId, byVaddr: fns } = await analysed([0x100, 0x200, 0x300, 0x400]);
      const id = (v: number) => fns.get(v)!.id;
      const source = { functionId: 9, binaryId: 8, analysisId: 7 };
      await store.nameHistory.applyNames([
        { functionId: id(0x100), name: 'user_name', sourceType: 'USER', userId: alice },
        { functionId: id(0x200), name: 'ai_name', sourceType: 'AI_UNSTRIP', userId: alice, source },
        { functionId: id(0x300), name: 'renamed', sourceType: 'USER', userId: alice },
        { functionId: id(0x400), name: 'gone', sourceType: 'USER', userId: alice },
      ]);
      // A revert to the analysis name: the next run's own name stands.
      const original = (await store.nameHistory.list(id(0x300), 100))[0]!;
      await store.nameHistory.applyNames([
        {
          functionId: id(0x300),
          name: original.name,
          sourceType: 'SYSTEM',
          userId: alice,
        },
      ]);

      const rerun = functionsAt([0x100, 0x200, 0x300, 0x500]);
      rerun.functions[2]!.name = 'better_system_name';
      await store.functions.replace(analysisId, rerun);
      const now = await byVaddr(analysisId);
      assert.notEqual(now.get(0x100)!.id, id(0x100), 'rows were replaced');
      assert.deepEqual(
        [0x100, 0x200, 0x300, 0x500].map((v) => [now.get(v)!.name, now.get(v)!.name_source_type]),
        [
          ['user_name', 'USER'],
          ['ai_name', 'AI_UNSTRIP'],
          ['better_system_name', 'SYSTEM'],
          ['sub_500', 'SYSTEM'],
        ],
      );
      assert.equal(now.get(0x200)!.name_source_analysis_id, 7);
      assert.deepEqual(await names(now.get(0x100)!.id), [
        ['sub_100', 'SYSTEM', 'alice'],
        ['user_name', 'USER', 'alice'],
      ]);
      assert.equal((await names(now.get(0x300)!.id)).length, 3);
      assert.deepEqual(await names(id(0x400)), [], 'the old row id no longer leads to history');

      // The address comes back in a later run: so does its name.
      await store.functions.replace(analysisId, functionsAt([0x100, 0x400]));
      const later = await byVaddr(analysisId);
      assert.deepEqual([later.get(0x100)!.name, later.get(0x400)!.name], ['user_name', 'gone']);
      assert.deepEqual(
        (await names(later.get(0x400)!.id)).map(([n]) => n),
        ['sub_400', 'gone'],
      );
    });

    test('deleting an analysis deletes its history', async () => {
      const { analysisId, byVaddr: fns } = await analysed([0x10]);
      const fid = fns.get(0x10)!.id;
      await store.nameHistory.applyNames([{ functionId: fid, name: 'n', sourceType: 'USER', userId: alice }]);
      const count = () =>
        store.driver.db
          .selectFrom('function_name_history')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('analysis_id', '=', analysisId)
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
      assert.equal(await count(), 2);
      assert.equal(await store.analyses.deleteMany([analysisId]), true);
      assert.equal(await count(), 0);
    });
  });
}
