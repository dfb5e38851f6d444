// The nearest-function index on every database driver: exact neighbours, visibility, filters, thresholds,
// ties, and vectors following their functions through re-analysis and deletion.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HASHED_DIM, LSH_BANDS, packVectors } from '../../src/shared/simhash.js';
import { type IndexFilter, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { functionRecord, migratedStore } from '../helpers/store-fixtures.js';

/** Seeded unit vectors, and copies of them turned by a little noise. */
function vectors(seed: number) {
  let s = seed >>> 0;
  const rand = () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
  const unit = (v: Float32Array) => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
  return {
    random: () => unit(Float32Array.from({ length: HASHED_DIM }, rand)),
    near: (v: Float32Array, noise: number) => unit(v.map((x) => x + noise * rand() * 0.06)),
  };
}
const { random, near } = vectors(7);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

for (const backend of backends) {
  describe(`similarity index (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    const users: Record<'alice' | 'carol' | 'bob', { userId: number; teamId: number | null }> = {} as never;

    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
      for (const [name, team] of [
        ['alice', 'red'],
        ['carol', 'red'],
        ['bob', 'blue'],
      ] as const) {
        const u = await store.users.create({
          username: name,
          email: `${name}@x.io`,
          role: 'USER',
          teamName: team,
          apiKeyHash: name,
        });
        users[name] = { userId: u.id, teamId: u.team_id };
      }
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    /** An analysis of `owner` whose functions have these vectors (function i debug when `debug(i)`). */
    async function indexed(owner: number, vs: Float32Array[], scope = 'PRIVATE', debug = (i: number) => i % 2 === 0) {
      const sha = Math.random().toString(16).slice(2).padEnd(64, '0');
      await store.samples.recordUpload(
        { sha256: sha, size: 10, identity: '{}' },
        { user_id: owner, file_type: 'BINARY', filename: 'x' },
      );
      const ids = await store.analyses.create(
        {
          userId: owner,
          sha256: sha,
          binaryName: 'x',
          binarySize: 10,
          scope,
          modelName: 'm',
          baseAddress: null,
          debugHash: null,
          config: '{}',
          tags: [],
        },
        { kind: 'test', payload: null, maxAttempts: 1 },
      );
      await replace(ids.analysisId, vs, debug);
      const fns = await store.functions.map(ids.analysisId);
      return { ...ids, functionIds: fns.map((f) => f.id) };
    }

    const replace = (analysisId: number, vs: Float32Array[], debug = (i: number) => i % 2 === 0) =>
      store.functions.replace(analysisId, {
        functions: vs.map((_, i) => functionRecord(0x1000 + i * 16, `f${i}`, debug(i) ? 'symbol' : 'generated')),
        calls: [],
        strings: [],
        refs: [],
        vectors: packVectors(vs.length, (i) => vs[i]!),
      });

    const bucketRows = async (analysisId: number) =>
      Number(
        (
          await store.driver.db
            .selectFrom('function_lsh')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('analysis_id', '=', analysisId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('nearest finds the exact neighbour first, best first, k at most', async () => {
      const vs = Array.from({ length: 40 }, random);
      const a = await indexed(users.alice.userId, vs);
      const q = near(vs[7]!, 1);
      const got = await store.similarity.nearest({ vector: q, k: 5, minSimilarity: -1, viewer: users.alice });
      assert.equal(got[0]?.functionId, a.functionIds[7]);
      assert.equal(got[0]?.analysisId, a.analysisId);
      assert.equal(got[0]?.binaryId, a.binaryId);
      assert.equal(got[0]?.name, 'f7');
      assert.equal(got[0]?.debug, false);
      assert.ok(Math.abs(got[0]!.similarity - dot(q, vs[7]!)) < 0.01, 'similarity is the cosine');
      assert.ok(got.length <= 5);
      for (let i = 1; i < got.length; i++) assert.ok(got[i - 1]!.similarity >= got[i]!.similarity);
    });

    test('visibility: another user’s PRIVATE analysis never; the same team’s and PUBLIC ones yes', async () => {
      const v = random();
      const priv = await indexed(users.alice.userId, [v]);
      const ask = (viewer: { userId: number; teamId: number | null }) =>
        store.similarity
          .nearest({ vector: v, k: 10, minSimilarity: 0.9, viewer, filter: { analysisIds: [priv.analysisId] } })
          .then((r) => r.map((n) => n.functionId));
      const askAll = (viewer: { userId: number; teamId: number | null }) =>
        store.similarity
          .nearest({ vector: v, k: 10, minSimilarity: 0.9, viewer })
          .then((r) => r.map((n) => n.functionId));
      assert.deepEqual(await ask(users.bob), []);
      assert.deepEqual(await askAll(users.bob), []);
      assert.deepEqual(await askAll(users.carol), priv.functionIds);
      assert.deepEqual(await askAll(users.alice), priv.functionIds);
      await store.analyses.update(priv.analysisId, { analysis_scope: 'PUBLIC' });
      assert.deepEqual(await ask(users.bob), priv.functionIds);
      assert.deepEqual(await askAll(users.bob), priv.functionIds);
    });

    test('filters: analysis, binary, function, user, debug, excluded analyses', async () => {
      const v = random();
      const mine = await indexed(users.alice.userId, [v, near(v, 0.2)]);
      const public_ = await indexed(users.bob.userId, [near(v, 0.2)], 'PUBLIC');
      const ids = async (filter: IndexFilter) =>
        (await store.similarity.nearest({ vector: v, k: 10, minSimilarity: 0.9, viewer: users.alice, filter }))
          .map((n) => n.functionId)
          .sort((x, y) => x - y);
      const all = [...mine.functionIds, ...public_.functionIds];
      const cases: [string, IndexFilter, number[]][] = [
        ['none', {}, all],
        ['empty lists', { analysisIds: [], binaryIds: [] }, all],
        ['analysisIds', { analysisIds: [public_.analysisId] }, public_.functionIds],
        ['binaryIds', { binaryIds: [mine.binaryId] }, mine.functionIds],
        ['functionIds', { functionIds: [mine.functionIds[1]!] }, [mine.functionIds[1]!]],
        ['userIds', { userIds: [users.bob.userId] }, public_.functionIds],
        ['debug', { debug: true }, [mine.functionIds[0]!, public_.functionIds[0]!]],
        ['not debug', { debug: false }, [mine.functionIds[1]!]],
        ['excludeAnalysisIds', { excludeAnalysisIds: [mine.analysisId] }, public_.functionIds],
        [
          'all at once',
          { binaryIds: [mine.binaryId], debug: false, userIds: [users.alice.userId] },
          [mine.functionIds[1]!],
        ],
      ];
      for (const [what, filter, want] of cases) assert.deepEqual(await ids(filter), want, what);
    });

    test('minSimilarity bounds the answers; ties are ordered by function id; k cuts', async () => {
      const v = random();
      const far = random();
      const a = await indexed(users.alice.userId, [v, far]);
      const b = await indexed(users.alice.userId, [v]);
      const filter = { analysisIds: [a.analysisId, b.analysisId] };
      const ask = (k: number, minSimilarity: number) =>
        store.similarity.nearest({ vector: v, k, minSimilarity, viewer: users.alice, filter });
      const twins = await ask(10, 0.99);
      assert.deepEqual(
        twins.map((n) => n.functionId),
        [a.functionIds[0]!, b.functionIds[0]!],
      );
      assert.equal(twins[0]!.similarity, twins[1]!.similarity);
      assert.deepEqual(
        (await ask(1, 0.99)).map((n) => n.functionId),
        [a.functionIds[0]!],
      );
      assert.equal((await ask(10, -1)).length, 3);
      await assert.rejects(ask(0, 0), RangeError);
    });

    test('nearestMany answers as nearest does for each query', async () => {
      const vs = Array.from({ length: 30 }, random);
      const a = await indexed(users.alice.userId, vs);
      const queries = [0, 5, 29].flatMap((i) => [
        { vector: near(vs[i]!, 1), k: 3, minSimilarity: 0, viewer: users.alice },
        {
          vector: near(vs[i]!, 1),
          k: 3,
          minSimilarity: 0,
          viewer: users.alice,
          filter: { analysisIds: [a.analysisId] },
        },
      ]);
      const many = await store.similarity.nearestMany(queries);
      assert.equal(many.length, queries.length);
      for (const [i, q] of queries.entries()) assert.deepEqual(many[i], await store.similarity.nearest(q));
      assert.equal(many[2]![0]!.functionId, a.functionIds[5]);
    });

    test('vectors: the stored vectors, absent ones left out', async () => {
      const vs = [random(), random()];
      const a = await indexed(users.alice.userId, vs);
      const got = await store.similarity.vectors([...a.functionIds, 987_654_321]);
      assert.deepEqual([...got.keys()].sort(), [...a.functionIds].sort());
      for (const [i, id] of a.functionIds.entries()) assert.ok(dot(got.get(id)!, vs[i]!) > 0.999);
    });

    test('re-analysis replaces the vectors; deletion removes them', async () => {
      const before = [random(), random(), random()];
      const a = await indexed(users.alice.userId, before);
      assert.equal(await bucketRows(a.analysisId), before.length * LSH_BANDS);
      const after = [random(), random()];
      await replace(a.analysisId, after);
      const ids = (await store.functions.map(a.analysisId)).map((f) => f.id);
      assert.equal((await store.similarity.vectors(a.functionIds)).size, 0);
      assert.equal((await store.similarity.vectors(ids)).size, 2);
      assert.equal(await bucketRows(a.analysisId), after.length * LSH_BANDS);
      const ask = (v: Float32Array) =>
        store.similarity.nearest({ vector: v, k: 1, minSimilarity: 0.99, viewer: users.alice });
      assert.deepEqual(await ask(before[0]!), []);
      assert.equal((await ask(after[1]!))[0]?.functionId, ids[1]);

      assert.equal(await store.analyses.deleteMany([a.analysisId]), true);
      assert.equal((await store.similarity.vectors(ids)).size, 0);
      assert.equal(await bucketRows(a.analysisId), 0);
      assert.deepEqual(await ask(after[1]!), []);
    });
  });
}
