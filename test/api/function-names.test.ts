// Renaming functions, their name history and reverts, on both databases: who may rename, validation,
// batch atomicity, history order, name sources in listings, and names surviving re-analysis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { createStore, openDatabase, type Store } from '../../src/store/index.js';
import { backends } from '../helpers/backends.js';
import { assertValidation } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';

const program = () => Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));

interface Fn {
  id: number;
  name: string;
  vaddr: number;
  mangled_name: string;
  name_source_type: string;
  name_source: { type: string; function_id: number | null; binary_id: number | null; analysis_id: number | null };
}

interface Entry {
  history_id: number;
  change_made_by: string;
  function_name: string;
  mangled_name: string;
  is_debug: boolean;
  source_type: string;
  created_at: string;
}

for (const backend of backends) {
  describe(`function names API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let alicePrivate: number;
    let alicePublic: number;
    let bobs: number;
    let store: Store;

    const functions = async (analysisId: number, key = h().keys.alice) =>
      (await h().request('GET', `/v2/analyses/${analysisId}/functions`, key)).json().data.functions as Fn[];
    const named = async (analysisId: number, name: string) =>
      (await functions(analysisId)).find((f) => f.name === name)!;
    const rename = (key: string, id: number | string, body: unknown) =>
      h().request('POST', `/v2/functions/rename/${id}`, key, body);
    const batch = (key: string, body: unknown) => h().request('POST', '/v2/functions/rename/batch', key, body);
    const history = async (id: number, key = h().keys.alice) =>
      (await h().request('GET', `/v2/functions/history/${id}`, key)).json().data as Entry[];
    const revert = (key: string, id: number | string, historyId: number | string) =>
      h().request('POST', `/v2/functions/history/${id}/${historyId}`, key);

    before(async () => {
      if (backend.skip) return;
      const { alice, bob } = h().keys;
      alicePrivate = await h().analysis(alice, program());
      alicePublic = await h().analysis(alice, program(), { analysis_scope: 'PUBLIC' });
      bobs = await h().analysis(bob, program());
      for (const [key, id] of [
        [alice, alicePrivate],
        [alice, alicePublic],
        [bob, bobs],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
      const driver = openDatabase(h().config.databaseUrl);
      store = createStore(driver);
    });
    after(async () => {
      await store?.driver.close();
    });

    test('the owner renames a function: lists, details, maps and history follow', async () => {
      const { alice } = h().keys;
      const target = await named(alicePrivate, 'init_fn');
      const res = await rename(alice, target.id, { new_name: 'setup', new_mangled_name: '_Z5setupv' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { status: true, data: {}, message: 'Function renamed', errors: [], meta: {} });

      const f = (await functions(alicePrivate)).find((x) => x.id === target.id)!;
      assert.deepEqual(
        [f.name, f.mangled_name, f.name_source_type, f.name_source],
        ['setup', '_Z5setupv', 'USER', { type: 'USER', function_id: null, binary_id: null, analysis_id: null }],
      );
      const detail = (await h().request('GET', `/v2/functions/${f.id}`, alice)).json().data;
      assert.deepEqual([detail.function_name, detail.function_name_mangled], ['setup', '_Z5setupv']);
      const maps = (await h().request('GET', `/v2/analyses/${alicePrivate}/func_maps`, alice)).json().data;
      assert.equal(maps.function_maps.name_map[String(f.vaddr)], 'setup');

      const entries = await history(f.id);
      assert.equal(entries.length, 2);
      assert.deepEqual(
        entries.map((e) => [e.change_made_by, e.function_name, e.mangled_name, e.source_type, e.is_debug]),
        [
          ['alice', 'init_fn', 'init_fn', 'SYSTEM', true],
          ['alice', 'setup', '_Z5setupv', 'USER', false],
        ],
      );
      assert.ok(entries[0]!.history_id < entries[1]!.history_id);
      for (const e of entries) assert.equal(new Date(e.created_at).toISOString(), e.created_at);
    });

    test('422: the validation envelope for bad ids, bodies and names; nothing changes', async () => {
      const { alice } = h().keys;
      const f = await named(alicePrivate, 'exported_fn');
      const long = 'x'.repeat(8193);
      const cases: [string, () => ReturnType<typeof rename>][] = [
        ['id not an integer', () => rename(alice, 'abc', { new_name: 'a', new_mangled_name: 'a' })],
        ['no mangled name', () => rename(alice, f.id, { new_name: 'a' })],
        ['name not a string', () => rename(alice, f.id, { new_name: 5, new_mangled_name: 'a' })],
        ['blank name', () => rename(alice, f.id, { new_name: '  ', new_mangled_name: 'a' })],
        ['empty mangled name', () => rename(alice, f.id, { new_name: 'a', new_mangled_name: '' })],
        ['control character', () => rename(alice, f.id, { new_name: 'a\nb', new_mangled_name: 'a' })],
        ['NUL', () => rename(alice, f.id, { new_name: 'a\u0000', new_mangled_name: 'a' })],
        ['over 8192 characters', () => rename(alice, f.id, { new_name: long, new_mangled_name: 'a' })],
        ['batch without functions', () => batch(alice, {})],
        ['batch functions not a list', () => batch(alice, { functions: { function_id: f.id } })],
        ['batch entry without id', () => batch(alice, { functions: [{ new_name: 'a', new_mangled_name: 'a' }] })],
        [
          'batch entry with a bad name',
          () => batch(alice, { functions: [{ function_id: f.id, new_name: '', new_mangled_name: 'a' }] }),
        ],
        [
          'batch over 10 000 entries',
          () =>
            batch(alice, {
              functions: Array.from({ length: 10_001 }, () => ({
                function_id: f.id,
                new_name: 'a',
                new_mangled_name: 'a',
              })),
            }),
        ],
        ['history id not an integer', () => h().request('GET', '/v2/functions/history/abc', alice)],
        ['revert with a bad history id', () => revert(alice, f.id, 'abc')],
      ];
      for (const [what, call] of cases) {
        const res = await call();
        assert.equal(res.statusCode, 422, what);
        assertValidation(res.json(), what);
      }
      assert.equal((await named(alicePrivate, 'exported_fn')).id, f.id);
      assert.deepEqual(await history(f.id), []);
    });

    test('who may rename: the owner only; team members and others see 403, or 404 when it is hidden', async () => {
      const { alice, bob, carol } = h().keys;
      const priv = await named(alicePrivate, 'local_fn');
      const pub = await named(alicePublic, 'local_fn');
      const body = { new_name: 'theirs', new_mangled_name: 'theirs' };
      const expect = async (res: Awaited<ReturnType<typeof rename>>, status: number, message: string) => {
        assert.equal(res.statusCode, status, res.body);
        assert.deepEqual(res.json(), {
          status: false,
          data: null,
          message,
          errors: [{ code: String(status), message }],
          meta: {},
        });
      };
      const forbidden = 'You do not have permission to access this resource';
      const hidden = (id: number) => `Function with ID ${id} could not be found`;
      await expect(await rename(bob, pub.id, body), 403, forbidden); // visible (PUBLIC), not his
      await expect(await rename(carol, priv.id, body), 403, forbidden); // visible to her team, not hers
      await expect(await rename(bob, priv.id, body), 404, hidden(priv.id)); // invisible
      await expect(await rename(alice, 987654321, body), 404, hidden(987654321));
      await expect(await revert(bob, pub.id, 1), 403, forbidden);
      await expect(await revert(bob, priv.id, 1), 404, hidden(priv.id));
      await expect(await h().request('GET', `/v2/functions/history/${priv.id}`, bob), 404, hidden(priv.id));
      assert.equal((await named(alicePrivate, 'local_fn')).id, priv.id, 'nothing was renamed');
      assert.equal((await named(alicePublic, 'local_fn')).id, pub.id);

      assert.equal((await rename(alice, priv.id, { new_name: 'mine', new_mangled_name: 'mine' })).statusCode, 200);
      // Whoever can see the analysis can read the history.
      assert.deepEqual(
        (await history(priv.id, carol)).map((e) => e.function_name),
        ['local_fn', 'mine'],
      );
      assert.equal((await h().request('GET', `/v2/functions/history/${priv.id}`, null)).statusCode, 401);
    });

    test('batch renames are all or nothing: one missing or foreign function stops the whole batch', async () => {
      const { alice } = h().keys;
      const mine = await functions(alicePublic);
      const [a, b] = mine.filter((f) => f.name.startsWith('sub_'));
      assert.ok(a && b);
      const theirs = (await functions(bobs, h().keys.bob)).find((f) => f.name === '_start')!;
      const entry = (function_id: number, name: string) => ({ function_id, new_name: name, new_mangled_name: name });

      const missing = await batch(alice, { functions: [entry(a.id, 'one'), entry(987654321, 'two')] });
      assert.equal(missing.statusCode, 404, missing.body);
      assert.equal(missing.json().message, 'Function with ID 987654321 could not be found');
      const foreign = await batch(alice, { functions: [entry(a.id, 'one'), entry(theirs.id, 'two')] });
      assert.equal(foreign.statusCode, 404, 'bob’s private analysis is hidden from alice');
      const now = await functions(alicePublic);
      assert.deepEqual(
        now.map((f) => f.name),
        mine.map((f) => f.name),
        'nothing of either batch was applied',
      );
      assert.deepEqual(await history(a.id), []);
      const bobTries = await batch(h().keys.bob, { functions: [entry(theirs.id, 'mine'), entry(a.id, 'yours')] });
      assert.equal(bobTries.statusCode, 403);
      assert.ok(
        (await functions(bobs, h().keys.bob)).some((f) => f.id === theirs.id && f.name === '_start'),
        'bob’s own entry was not applied either',
      );

      const ok = await batch(alice, { functions: [entry(a.id, 'first'), entry(b.id, 'second'), entry(a.id, 'third')] });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().message, 'Functions renamed');
      const after = new Map((await functions(alicePublic)).map((f) => [f.id, f.name]));
      assert.deepEqual([after.get(a.id), after.get(b.id)], ['third', 'second']);
      assert.deepEqual(
        (await history(a.id)).map((e) => e.function_name),
        [a.name, 'first', 'third'],
      );
      assert.equal((await batch(alice, { functions: [] })).statusCode, 200);
    });

    test('revert: back to any entry, as a new entry; history only grows', async () => {
      const { alice, bob } = h().keys;
      const f = await named(alicePublic, 'exported_fn');
      for (const name of ['v1', 'v2']) await rename(alice, f.id, { new_name: name, new_mangled_name: `${name}_m` });
      const before = await history(f.id);
      assert.deepEqual(
        before.map((e) => [e.function_name, e.source_type]),
        [
          ['exported_fn', 'SYSTEM'],
          ['v1', 'USER'],
          ['v2', 'USER'],
        ],
      );

      const res = await revert(alice, f.id, before[1]!.history_id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().message, 'Function name reverted');
      let now = (await functions(alicePublic)).find((x) => x.id === f.id)!;
      assert.deepEqual([now.name, now.mangled_name, now.name_source_type], ['v1', 'v1_m', 'USER']);

      assert.equal((await revert(alice, f.id, before[0]!.history_id)).statusCode, 200);
      now = (await functions(alicePublic)).find((x) => x.id === f.id)!;
      assert.deepEqual([now.name, now.name_source_type], ['exported_fn', 'SYSTEM']);
      const after = await history(f.id);
      assert.deepEqual(
        after.map((e) => [e.function_name, e.source_type, e.change_made_by]),
        [
          ['exported_fn', 'SYSTEM', 'alice'],
          ['v1', 'USER', 'alice'],
          ['v2', 'USER', 'alice'],
          ['v1', 'USER', 'alice'],
          ['exported_fn', 'SYSTEM', 'alice'],
        ],
      );
      assert.deepEqual(
        after.slice(0, 3).map((e) => e.history_id),
        before.map((e) => e.history_id),
      );
      assert.equal(after[4]!.is_debug, after[0]!.is_debug, 'the analysis name keeps its debug flag');

      // An entry of another function is not this one's.
      const other = await named(alicePublic, 'local_fn');
      await rename(alice, other.id, { new_name: 'o', new_mangled_name: 'o' });
      const foreignEntry = (await history(other.id))[1]!.history_id;
      const wrong = await revert(alice, f.id, foreignEntry);
      assert.equal(wrong.statusCode, 404);
      assert.equal(wrong.json().message, `Name history entry ${foreignEntry} of function ${f.id} could not be found`);
      assert.equal((await history(f.id)).length, 5);
      // Reading someone else's public history is fine; reverting it is not.
      assert.equal((await history(f.id, bob)).length, 5);
    });

    test('history returns the latest 1000 entries, oldest first', async () => {
      const { alice } = h().keys;
      const f = (await functions(alicePublic)).filter((x) => x.name.startsWith('sub_'))[5]!;
      const renames = Array.from({ length: 1001 }, (_, i) => ({
        function_id: f.id,
        new_name: `n${i}`,
        new_mangled_name: `n${i}`,
      }));
      assert.equal((await batch(alice, { functions: renames })).statusCode, 200);
      const entries = await history(f.id);
      assert.equal(entries.length, 1000, 'the analysis name and the first rename are past the limit');
      assert.deepEqual([entries[0]!.function_name, entries[999]!.function_name], ['n1', 'n1000']);
      assert.equal((await functions(alicePublic)).find((x) => x.id === f.id)!.name, 'n1000');
    });

    test('applied unstrip names report their source in listings; re-analysis keeps every chosen name', async () => {
      const { alice } = h().keys;
      const id = await h().analysis(alice, program());
      assert.equal(await h().waitForStatus(alice, id), 'Complete');
      const fns = await functions(id);
      const byName = (name: string) => fns.find((f) => f.name === name)!;
      const source = (await functions(bobs, h().keys.bob)).find((f) => f.name === 'local_fn')!.id;
      await store.nameHistory.applyNames([
        {
          functionId: byName('local_fn').id,
          name: 'matched_fn',
          sourceType: 'AUTO_UNSTRIP',
          userId: (await store.users.byUsername('alice'))!.id,
          source: { functionId: source, binaryId: 31, analysisId: bobs },
          evidence: { similarity: 0.99 },
        },
      ]);
      await rename(alice, byName('exported_fn').id, { new_name: 'user_fn', new_mangled_name: 'user_fn' });
      await rename(alice, byName('init_fn').id, { new_name: 'tmp', new_mangled_name: 'tmp' });
      await revert(alice, byName('init_fn').id, (await history(byName('init_fn').id))[0]!.history_id);

      const check = async (expectNewIds: boolean) => {
        const list = await functions(id);
        const at = (vaddr: number) => list.find((f) => f.vaddr === vaddr)!;
        const matched = at(byName('local_fn').vaddr);
        assert.deepEqual(
          [matched.name, matched.name_source_type, matched.name_source],
          [
            'matched_fn',
            'AUTO_UNSTRIP',
            { type: 'AUTO_UNSTRIP', function_id: source, binary_id: 31, analysis_id: bobs },
          ],
        );
        assert.deepEqual(
          [at(byName('exported_fn').vaddr).name, at(byName('init_fn').vaddr).name],
          ['user_fn', 'init_fn'],
        );
        assert.equal(
          list.every((f) => !fns.some((o) => o.id === f.id)),
          expectNewIds,
        );
        assert.deepEqual(
          (await history(at(byName('init_fn').vaddr).id)).map((e) => e.function_name),
          ['init_fn', 'tmp', 'init_fn'],
        );
      };
      await check(false);
      assert.equal((await h().request('POST', `/v2/analyses/${id}/requeue`, alice, {})).statusCode, 201);
      assert.equal(await h().waitForStatus(alice, id), 'Complete');
      await check(true);
    });
  });
}
