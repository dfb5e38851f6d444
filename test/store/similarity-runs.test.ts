// Matching/unstrip runs and what they read beside the index, on every database driver: a run and its job
// together, transitions that a cancel wins, names applied once, call edges and address order, and the
// named-function pool counted under the visibility rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FunctionResults, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { callRecord, functionRecord, functionsAt, newAnalysis, migratedStore } from '../helpers/store-fixtures.js';

for (const backend of backends) {
  describe(`similarity runs and inputs (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    let alice: number;
    let bob: number;
    let carol: number;

    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
      const user = (username: string, teamName: string | null) =>
        store.users.create({ username, email: `${username}@x.io`, role: 'USER', teamName, apiKeyHash: username });
      alice = (await user('alice', 'red')).id;
      bob = (await user('bob', null)).id;
      carol = (await user('carol', 'red')).id;
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    const run = (key: string, analysisId: number | null = null) =>
      store.similarityRuns.create(
        { kind: 'matches', userId: alice, analysisId, requestKey: key, request: { q: key } },
        (runId) => ({ kind: 'similarity-run', payload: { runId }, maxAttempts: 3 }),
      );

    test('create queues the job with the run; latest answers a key; latestOfAnalysis a kind', async () => {
      const { analysisId } = await newAnalysis(store, alice);
      const first = await run('k1', analysisId);
      const second = await run('k1', analysisId);
      await run('k2');
      assert.equal((await store.similarityRuns.latest('k1'))?.id, second.id);
      assert.equal(await store.similarityRuns.latest('nope'), undefined);
      assert.equal((await store.similarityRuns.latestOfAnalysis(analysisId, 'matches'))?.id, second.id);
      assert.equal(await store.similarityRuns.latestOfAnalysis(analysisId, 'ai_unstrip'), undefined);
      assert.deepEqual(
        [first.status, first.progress, first.applied, JSON.parse(first.request)],
        ['PENDING', 0, 0, { q: 'k1' }],
      );
      // Claim every queued job: the runs' jobs are among them, with their run ids.
      const payloads: unknown[] = [];
      for (let j = await store.jobs.claim('t', 1000); j; j = await store.jobs.claim('t', 1000))
        if (j.kind === 'similarity-run') payloads.push(JSON.parse(j.payload));
      assert.deepEqual(payloads.slice(0, 2), [{ runId: first.id }, { runId: second.id }]);
    });

    test('start → progress → complete; a cancel wins over the steps after it', async () => {
      const r = await run('t1');
      const runs = store.similarityRuns;
      assert.equal(await runs.progress(r.id, 10), false, 'no progress before start');
      assert.equal(await runs.start(r.id), true);
      assert.equal(await runs.progress(r.id, 42.7), true);
      assert.equal((await runs.get(r.id))?.progress, 42);
      assert.equal(await runs.complete(r.id, { ok: 1 }), true);
      const done = (await runs.get(r.id))!;
      assert.deepEqual([done.status, done.progress, JSON.parse(done.result!)], ['COMPLETED', 100, { ok: 1 }]);
      assert.equal(await runs.cancel(r.id), false, 'a finished run cannot be cancelled');

      const c = await run('t2');
      await runs.start(c.id);
      assert.equal(await runs.cancel(c.id), true);
      assert.equal(await runs.progress(c.id, 50), false);
      assert.equal(await runs.complete(c.id, {}), false);
      assert.equal(await runs.start(c.id), false);
      assert.equal((await runs.get(c.id))?.status, 'CANCELLED');

      const f = await run('t3');
      assert.equal(await runs.fail(f.id, 'boom'), true);
      assert.deepEqual([(await runs.get(f.id))?.status, (await runs.get(f.id))?.error], ['FAILED', 'boom']);
    });

    test('applyOnce writes once, only for a completed run, and a failed write can be retried', async () => {
      const r = await run('a1');
      const runs = store.similarityRuns;
      let writes = 0;
      const write = async () => void writes++;
      assert.equal(await runs.applyOnce(r.id, write), false, 'not completed yet');
      await runs.start(r.id);
      await runs.complete(r.id, {});
      await assert.rejects(
        runs.applyOnce(r.id, async () => {
          throw new Error('db down');
        }),
      );
      assert.equal((await runs.get(r.id))?.applied, 0);
      assert.equal(await runs.applyOnce(r.id, write), true);
      assert.equal(await runs.applyOnce(r.id, write), false);
      assert.deepEqual([writes, (await runs.get(r.id))?.applied], [1, 1]);
    });

    test('inputs: functions, direct call edges, matched-function details', async () => {
      const { analysisId, binaryId } = await newAnalysis(store, alice, 'calls.bin');
      const results: FunctionResults = {
        ...functionsAt([0x10, 0x20, 0x30]),
        calls: [callRecord(0, 1, 0x20, 0x11), callRecord(1, 2, 0x30, 0x21), callRecord(1, null, -1, 0x22, 'malloc')],
      };
      await store.functions.replace(analysisId, results);
      const fns = await store.similarityInputs.functions(analysisId);
      assert.deepEqual(
        fns.map((f) => [f.vaddr, f.name, f.debug, f.name_source_type]),
        [
          [0x10, 'sub_10', 0, 'SYSTEM'],
          [0x20, 'sub_20', 0, 'SYSTEM'],
          [0x30, 'sub_30', 0, 'SYSTEM'],
        ],
      );
      const [a, b, c] = fns.map((f) => f.id);
      assert.deepEqual(await store.similarityInputs.calls([analysisId, analysisId]), [
        { caller: a, callee: b },
        { caller: b, callee: c },
      ]);
      assert.deepEqual(await store.similarityInputs.layout([analysisId]), [[a, b, c]]);
      const d = await store.similarityInputs.describe([c!, 999_999, a!]);
      assert.deepEqual(
        d.sort((x, y) => x.id - y.id).map((x) => [x.id, x.vaddr, x.analysis_id, x.binary_id, x.binary_name]),
        [
          [a, 0x10, analysisId, binaryId, 'calls.bin'],
          [c, 0x30, analysisId, binaryId, 'calls.bin'],
        ],
      );
    });

    test('countNamed: named functions the viewer may see, the excepted analysis left out', async () => {
      // n − 1 named from symbols, one placeholder
      const named = (n: number): FunctionResults => ({
        ...functionsAt([]),
        functions: Array.from({ length: n }, (_, i) =>
          i > 0 ? functionRecord(0x100 + i * 0x10, `f${i}`, 'symbol') : functionRecord(0x100),
        ),
      });
      const before = {
        alice: await store.similarityInputs.countNamed({ id: alice, teamId: null }, null),
        bob: await store.similarityInputs.countNamed({ id: bob, teamId: null }, null),
      };
      const mine = await newAnalysis(store, alice, 'mine', 'PRIVATE');
      await store.functions.replace(mine.analysisId, named(4));
      const shared = await newAnalysis(store, alice, 'shared', 'PUBLIC');
      await store.functions.replace(shared.analysisId, named(3));
      const team = (await store.users.byId(alice))!.team_id;
      const count = (id: number, teamId: number | null, except: number | null = null) =>
        store.similarityInputs.countNamed({ id, teamId }, except);
      assert.equal((await count(alice, team)) - before.alice, 5);
      assert.equal((await count(carol, team)) - before.alice, 5, 'alice’s team sees her private analysis');
      assert.equal((await count(bob, null)) - before.bob, 2, 'bob sees only the public one');
      assert.equal((await count(alice, team, mine.analysisId)) - before.alice, 2);
    });
  });
}
