// Long store work (a re-analysis replacing 100k+ rows, deleting an analysis) runs as short transactions.
// SQLite runs on the API's event loop through one connection, so a long transaction stalls every request
// of the server; here a 50 000-function analysis is written, re-written and deleted while a probe measures
// the longest event-loop stall and the longest wait of a concurrent one-row query. On both databases:
// what the chunks keep across a re-analysis, and bulk deletion checking ids a batch at a time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { AnalysesService } from '../../src/services/analyses.js';
import { HASHED_DIM, LSH_BANDS } from '../../src/shared/simhash.js';
import { createStore, type FunctionResults, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { callRecord, functionRecord, newAnalysis, migratedStore } from '../helpers/store-fixtures.js';

/**
 * Recovery results of `n` functions: two calls each (the next function, an import), four xrefs each (its two calls, a string, other data), a
 * string per 10 functions referenced from 4 of them, and a vector with its LSH buckets each.
 */
function largeResults(n: number): FunctionResults {
  const vaddr = (i: number) => 0x400000 + i * 16;
  const buckets = new Int32Array(n * LSH_BANDS);
  for (let i = 0; i < buckets.length; i++) buckets[i] = ((i % LSH_BANDS) << 16) | ((i * 2_654_435_761) >>> 16);
  return {
    functions: Array.from({ length: n }, (_, i) => functionRecord(vaddr(i))),
    calls: Array.from({ length: n }, (_, i) => [
      callRecord(i, (i + 1) % n, vaddr((i + 1) % n), vaddr(i) + 4),
      callRecord(i, null, 0x10, vaddr(i) + 8, 'malloc'),
    ]).flat(),
    strings: Array.from({ length: n / 10 }, (_, s) => ({
      vaddr: 0x900000 + s * 32,
      value: `string ${s}`,
      encoding: 'ascii',
      section: '.rodata',
      refs: [0, 1, 2, 3].map((k) => ({ site: vaddr(s * 10 + k) + 12, func: s * 10 + k })),
    })),
    refs: Array.from({ length: n }, (_, i) => [
      { site: vaddr(i) + 12, func: i, target: 0x900000 + Math.floor(i / 10) * 32 },
      { site: vaddr(i) + 14, func: i, target: 0xa00000 + i * 8 },
    ]).flat(),
    vectors: { count: n, vectors: new Int8Array(n * HASHED_DIM).fill(3), buckets },
  };
}

/**
 * Runs `work` while a probe ticks every 5 ms and times a one-row query (one at a time); returns the
 * longest gap between ticks (an event-loop stall: better-sqlite3 blocks the loop while a statement runs)
 * and the longest wait of a query (for the one connection, which a transaction holds across statements).
 * The probe outlives `work` by a few ticks, so a stall that lasts to its end is measured too.
 */
async function probed(store: Store, analysisId: number, work: () => Promise<unknown>) {
  let longestQuery = 0;
  let longestStall = 0;
  let lastTick = performance.now();
  let query: Promise<unknown> | null = null;
  const probe = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - lastTick);
    lastTick = now;
    query ??= store.analyses.get(analysisId).then(() => {
      longestQuery = Math.max(longestQuery, performance.now() - now);
      query = null;
    });
  }, 5);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(probe);
  await query;
  return { ms, longestQuery, longestStall };
}

/** Rows of an analysis in each table that holds its results. */
async function rowsOf(store: Store, analysisId: number) {
  const db = store.driver.db;
  const count = async (
    table: 'functions' | 'function_calls' | 'string_refs' | 'xrefs' | 'analysis_strings' | 'function_name_history',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('analysis_id', '=', analysisId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lsh = await db
    .selectFrom('function_lsh')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('analysis_id', '=', analysisId)
    .executeTakeFirstOrThrow();
  return {
    functions: await count('functions'),
    calls: await count('function_calls'),
    stringRefs: await count('string_refs'),
    xrefs: await count('xrefs'),
    strings: await count('analysis_strings'),
    history: await count('function_name_history'),
    lsh: Number(lsh.n),
  };
}

const none = { functions: 0, calls: 0, stringRefs: 0, xrefs: 0, strings: 0, history: 0 };

// Robust on the shared, loaded 2-core machine; a chunk takes a few milliseconds when the machine is idle.
const MAX_WAIT_MS = 150;

const sqlite = backends.find((b) => b.name === 'sqlite')!;

describe('short transactions: event loop (sqlite)', () => {
  let db: TestDatabase;
  let store: Store;
  let alice: number;

  before(async () => {
    db = await sqlite.create();
    store = await migratedStore(db);
    alice = (await store.users.create({ username: 'a', email: 'a', role: 'USER', teamName: null, apiKeyHash: 'a' })).id;
  });
  after(async () => {
    await store.driver.close();
    await db.drop();
  });

  test('writing, re-writing and deleting a 50 000-function analysis never holds other queries long', async () => {
    const n = 50_000;
    const results = largeResults(n);
    const { analysisId } = await newAnalysis(store, alice);
    const other = (await newAnalysis(store, alice)).analysisId;
    const expected = {
      functions: n,
      calls: 2 * n,
      stringRefs: (4 * n) / 10,
      xrefs: 4 * n,
      strings: n / 10,
      history: 0,
    };

    const write = await probed(store, other, () => store.functions.replace(analysisId, results));
    assert.deepEqual(await rowsOf(store, analysisId), { ...expected, lsh: n * LSH_BANDS });
    const rewrite = await probed(store, other, () => store.functions.replace(analysisId, results));
    assert.deepEqual(await rowsOf(store, analysisId), { ...expected, lsh: n * LSH_BANDS });
    const remove = await probed(store, other, () => store.analyses.deleteMany([analysisId]));
    assert.equal(await store.analyses.get(analysisId), undefined);
    assert.deepEqual(await rowsOf(store, analysisId), { ...none, lsh: 0 });

    const report = { write, rewrite, remove };
    console.log(JSON.stringify(report, (_, v: unknown) => (typeof v === 'number' ? Math.round(v) : v)));
    for (const [step, r] of Object.entries(report)) {
      assert.ok(r.longestQuery <= MAX_WAIT_MS, `${step}: a query waited ${r.longestQuery.toFixed(0)} ms`);
      assert.ok(r.longestStall <= MAX_WAIT_MS, `${step}: the event loop stalled ${r.longestStall.toFixed(0)} ms`);
    }
  });
});

/** Counts the queries a store built over it runs. */
class QueryCounter implements KyselyPlugin {
  queries = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    this.queries++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

for (const backend of backends) {
  describe(`short transactions (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    let alice: number;

    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
      alice = (await store.users.create({ username: 'a', email: 'a', role: 'USER', teamName: null, apiKeyHash: 'a' }))
        .id;
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    test('a re-analysis over many chunks keeps user strings and chosen names; a delete leaves nothing', async () => {
      const n = 2_500;
      const results = largeResults(n);
      const { analysisId } = await newAnalysis(store, alice);
      await store.functions.replace(analysisId, results);
      // User strings between the found ones, and 1 500 renamed functions (3 000 history entries).
      const userStrings = Array.from({ length: 300 }, (_, s) => ({
        vaddr: 0x900010 + s * 32,
        value: 'u',
        source: 'USER',
      }));
      assert.equal(await store.events.addStrings(analysisId, userStrings), null);
      const fns = await store.functions.map(analysisId);
      await store.nameHistory.applyNames(
        fns
          .slice(0, 1_500)
          .map((f) => ({ functionId: f.id, name: `named_${f.vaddr}`, sourceType: 'USER', userId: alice })),
      );

      await store.functions.replace(analysisId, results);
      const after = await store.functions.map(analysisId);
      assert.equal(after.length, n);
      assert.notEqual(after[0]!.id, fns[0]!.id, 'rows were replaced');
      assert.deepEqual(
        after.map((f) => f.name),
        fns.map((f, i) => (i < 1_500 ? `named_${f.vaddr}` : f.name)),
      );
      assert.equal((await store.nameHistory.list(after[1_499]!.id, 10)).length, 2, 'history follows the function');
      assert.deepEqual(await rowsOf(store, analysisId), {
        functions: n,
        calls: 2 * n,
        stringRefs: (4 * n) / 10,
        xrefs: 4 * n,
        strings: n / 10 + 300,
        history: 3_000,
        lsh: n * LSH_BANDS,
      });

      assert.equal(await store.analyses.deleteMany([analysisId]), true);
      assert.equal(await store.analyses.get(analysisId), undefined);
      assert.deepEqual(await rowsOf(store, analysisId), { ...none, lsh: 0 });
    });

    test('bulk delete checks 2 500 ids with one query per 1 000, not one per id', async () => {
      const { analysisId } = await newAnalysis(store, alice);
      const counter = new QueryCounter();
      const counted = createStore({ ...store.driver, db: store.driver.db.withPlugin(counter) });
      const service = new AnalysesService(counted, async () => []);
      const caller = { id: alice, username: 'a', teamId: null, role: 'USER' };
      const missing = Array.from({ length: 2_499 }, (_, i) => 10_000_000 + i);
      await assert.rejects(service.bulkDelete(caller, [analysisId, ...missing]), { status: 404 });
      assert.ok(counter.queries <= 3, `${counter.queries} queries`);
      assert.equal(await counted.analyses.deleteMany([analysisId, ...missing]), false);
      assert.ok(counter.queries <= 6, `${counter.queries} queries`);
      assert.ok(await store.analyses.get(analysisId), 'nothing was deleted');
      await service.bulkDelete(caller, [analysisId]);
      assert.equal(await store.analyses.get(analysisId), undefined);
    });

    test('bulk tag add looks 1 000 ids up and tags them in a few queries, not a few per id', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await newAnalysis(store, alice)).analysisId);
      const counter = new QueryCounter();
      const counted = createStore({ ...store.driver, db: store.driver.db.withPlugin(counter) });
      const service = new AnalysesService(counted, async () => []);
      const caller = { id: alice, username: 'a', teamId: null, role: 'USER' };
      const missing = Array.from({ length: 997 }, (_, i) => 10_000_000 + i);
      const { results } = await service.bulkAddTags(caller, [...ids, ...missing], ['t1', 't2']);
      assert.ok(counter.queries <= 3, `${counter.queries} queries`);
      assert.equal(results.filter((r) => r.message === 'Tags added').length, 3);
      assert.equal(results.filter((r) => r.error !== null).length, 997);
      const tags = (await store.analyses.tags(ids)).filter((t) => t.name === 't1' || t.name === 't2');
      assert.equal(tags.length, 6);
    });
  });
}
