// Function matching, auto-unstrip and ai-unstrip through the API on both databases, with a real
// (synthetic) program: alice's unstripped analysis is the reference for her stripped one; bob's private
// copy must never show. Runs are queued jobs: tests repeat the request (status_only) until it completes.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sampleProgram, withoutSymtab } from '../helpers/engine/sample-program.js';
import { openRuntime } from '../../src/main/index.js';
import { backends } from '../helpers/backends.js';
import { assertValidation } from '../helpers/envelopes.js';
import { useHarness, type Harness } from '../helpers/harness.js';

const program = () => sampleProgram({ bits: 64, little: true, machine: 62 });

interface Matched {
  function_id: number;
  binary_id: number;
  analysis_id: number;
  function_name: string;
  debug: boolean;
  similarity: number;
  confidence: number;
}
interface Match {
  function_id: number;
  matched_functions: Matched[];
  confidences: { name: string; confidence: number }[];
}
interface Suggestion {
  function_id: number;
  function_vaddr: number;
  suggested_name: string;
  suggested_demangled_name: string;
}

/**
 * POSTs (then repeats, with status_only where the request has it: ai-unstrip's has not) until the run is no
 * longer PENDING or RUNNING.
 */
async function settle(h: Harness, key: string, url: string, body: object) {
  let r = await h.request('POST', url, key, body);
  const deadline = Date.now() + 20_000;
  const again = url.endsWith('/ai-unstrip') ? body : { ...body, status_only: true };
  while (['PENDING', 'RUNNING'].includes(r.json().status) && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 50));
    r = await h.request('POST', url, key, again);
  }
  assert.equal(r.statusCode, 200, r.body);
  return r.json();
}

for (const backend of backends) {
  describe(`function matching and unstrip (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let reference: number;
    let stripped: number;
    let bobs: number;
    let referenceBinary: number;
    const matchesOf = (id: number) => `/v2/analyses/${id}/functions/matches`;

    before(async () => {
      if (backend.skip) return;
      const { alice, bob } = h().keys;
      reference = await h().analysis(alice, Buffer.from(program()));
      stripped = await h().analysis(alice, Buffer.from(withoutSymtab(program())));
      bobs = await h().analysis(bob, Buffer.from(program()));
      for (const [key, id] of [
        [alice, reference],
        [alice, stripped],
        [bob, bobs],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
      referenceBinary = (await h().request('GET', `/v2/analyses/${reference}/basic`, alice)).json().data.binary_id;
    });

    const functions = async (id: number, key = h().keys.alice) =>
      (await h().request('GET', `/v2/analyses/${id}/functions`, key)).json().data.functions as {
        id: number;
        name: string;
        vaddr: number;
        name_source_type: string;
        name_source: { function_id: number | null; analysis_id: number | null };
      }[];

    test('matches: a run reports progress, then the nearest functions of the caller’s other analyses only', async () => {
      const first = await h().request('POST', matchesOf(stripped), h().keys.alice, { min_similarity: 50 });
      assert.equal(first.statusCode, 200);
      assert.ok(['PENDING', 'RUNNING', 'COMPLETED'].includes(first.json().status));
      assert.equal(typeof first.json().progress, 'number');
      const r = await settle(h(), h().keys.alice, matchesOf(stripped), { min_similarity: 50, results_per_function: 5 });
      assert.equal(r.status, 'COMPLETED');
      assert.equal(r.progress, 100);
      const matches = r.matches as Match[];
      assert.ok(matches.length > 0);
      const named = new Map((await functions(reference)).map((f) => [f.id, f.name]));
      for (const m of matches)
        for (const x of m.matched_functions) {
          assert.equal(x.analysis_id, reference, 'never bob’s private copy, never the query’s own analysis');
          assert.equal(x.function_name, named.get(x.function_id));
          assert.ok(x.similarity >= 50 && x.similarity <= 100.0001);
          assert.ok(x.confidence >= 0 && x.confidence <= 100);
        }
      assert.equal(r.num_matches, matches.length);
      // Evidence: the names the neighbours suggest, with their confidence.
      const withNames = matches.find((m) => m.confidences.length > 0)!;
      assert.ok(withNames.confidences.every((c) => c.confidence > 0 && c.confidence <= 100));
    });

    test('scope: bob matching his copy sees none of alice’s private analyses', async () => {
      const r = await settle(h(), h().keys.bob, matchesOf(bobs), { min_similarity: 0, results_per_function: 30 });
      assert.equal(r.status, 'COMPLETED');
      assert.deepEqual(r.matches, []);
      assert.equal((await h().request('POST', matchesOf(stripped), h().keys.bob, {})).statusCode, 404);
    });

    test('filters: binary_ids, user_ids, debug_types, function_ids and collection_ids', async () => {
      const run = async (filters: object) =>
        (
          (
            await settle(h(), h().keys.alice, matchesOf(stripped), {
              min_similarity: 0,
              results_per_function: 30,
              filters,
            })
          ).matches as Match[]
        ).flatMap((m) => m.matched_functions);
      const all = await run({});
      assert.ok(all.length > 0);
      assert.deepEqual(await run({ binary_ids: [referenceBinary + 1000] }), []);
      assert.equal((await run({ binary_ids: [referenceBinary] })).length, all.length);
      assert.deepEqual(await run({ user_ids: [999] }), []);
      assert.deepEqual(await run({ debug_types: ['USER'] }), []);
      const system = await run({ debug_types: ['SYSTEM'] });
      assert.ok(system.length > 0 && system.every((x) => x.debug));
      const one = all[0]!.function_id;
      assert.ok((await run({ function_ids: [one] })).every((x) => x.function_id === one));

      const rt = await openRuntime(h().config);
      try {
        const alice = (await rt.store.users.byUsername('alice'))!.id;
        const make = (binaryIds: number[]) =>
          rt.store.collections.create({
            userId: alice,
            name: `c${binaryIds.join('-')}`,
            description: '',
            scope: 'PRIVATE',
            modelName: null,
            binaryIds,
            tags: [],
          });
        const holding = await make([referenceBinary]);
        const other = await make([]);
        assert.equal((await run({ collection_ids: [holding] })).length, all.length);
        assert.deepEqual(await run({ collection_ids: [other] }), []);
        assert.deepEqual(await run({ collection_ids: [holding], binary_ids: [referenceBinary + 1000] }), []);
      } finally {
        await rt.close();
      }
    });

    test('paging, status_only and no_cache', async () => {
      const body = { min_similarity: 0, results_per_function: 2 };
      const all = await settle(h(), h().keys.alice, matchesOf(stripped), body);
      const walked: number[] = [];
      for (let page = 1; page <= all.num_matches; page++) {
        const r = (
          await h().request('POST', matchesOf(stripped), h().keys.alice, { ...body, page, page_size: 1 })
        ).json();
        assert.deepEqual([r.current_page, r.total_pages, r.matches.length], [page, all.num_matches, 1]);
        walked.push(r.matches[0].function_id);
      }
      assert.deepEqual(
        walked,
        (all.matches as Match[]).map((m) => m.function_id),
      );
      const beyond = (
        await h().request('POST', matchesOf(stripped), h().keys.alice, {
          ...body,
          page: all.num_matches + 1,
          page_size: 1,
        })
      ).json();
      assert.deepEqual(beyond.matches, []);

      const fresh = { min_similarity: 1, results_per_function: 3 };
      const none = (
        await h().request('POST', matchesOf(stripped), h().keys.alice, { ...fresh, status_only: true })
      ).json();
      assert.deepEqual([none.status, none.progress, none.matches], ['UNINITIALISED', 0, null]);
      const done = await settle(h(), h().keys.alice, matchesOf(stripped), fresh);
      const again = (await h().request('POST', matchesOf(stripped), h().keys.alice, fresh)).json();
      assert.deepEqual([again.status, again.updated_at], ['COMPLETED', done.updated_at], 'answered from the run');
      const redo = (
        await h().request('POST', matchesOf(stripped), h().keys.alice, { ...fresh, no_cache: true })
      ).json();
      assert.ok(['PENDING', 'RUNNING'].includes(redo.status) || redo.updated_at !== done.updated_at);
      await settle(h(), h().keys.alice, matchesOf(stripped), fresh);
    });

    test('POST /v2/functions/matches: the listed functions; invisible ones are missing; bounds', async () => {
      const ids = (await functions(stripped)).map((f) => f.id);
      const body = { model_id: 1, function_ids: ids.slice(0, 2), min_similarity: 0, results_per_function: 50 };
      const r = await settle(h(), h().keys.alice, '/v2/functions/matches', body);
      assert.equal(r.status, 'COMPLETED');
      assert.ok((r.matches as Match[]).every((m) => ids.slice(0, 2).includes(m.function_id)));
      assert.ok((r.matches as Match[]).flatMap((m) => m.matched_functions).every((x) => x.analysis_id === reference));
      const hidden = (await functions(bobs, h().keys.bob))[0]!.id;
      const missing = await h().request('POST', '/v2/functions/matches', h().keys.alice, {
        ...body,
        function_ids: [hidden],
      });
      assert.equal(missing.statusCode, 404);
      for (const bad of [
        { function_ids: [ids[0]] },
        { ...body, results_per_function: 51 },
        { ...body, min_similarity: 101 },
        { ...body, page: 0 },
        { ...body, page_size: 1001 },
        { ...body, function_ids: [] },
        { ...body, filters: { debug_types: ['NOPE'] } },
      ]) {
        const res = await h().request('POST', '/v2/functions/matches', h().keys.alice, bad);
        assert.equal(res.statusCode, 422, JSON.stringify(bad));
        assertValidation(res.json(), JSON.stringify(bad));
      }
      const res = await h().request('POST', matchesOf(stripped), h().keys.alice, { results_per_function: 31 });
      assert.equal(res.statusCode, 422);
      assertValidation(res.json());
    });

    // The synthetic program's functions have identical bodies, so every name is a three-way tie (confidence
    // 33 %): a threshold of 0 takes them anyway. Names that are right are test/api/unstrip-corpus.test.ts's.
    test('auto-unstrip: names for placeholder functions, applied with evidence into the name history', async () => {
      const url = `/v2/analyses/${stripped}/functions/auto-unstrip`;
      const strict = await settle(h(), h().keys.alice, url, { min_similarity: 50, min_group_size: 1 });
      assert.deepEqual([strict.status, strict.matches], ['COMPLETED', []], 'ties are not confident');
      const body = { min_similarity: 50, confidence_threshold: 0, min_group_size: 1 };
      const r = await settle(h(), h().keys.alice, url, body);
      assert.deepEqual([r.status, r.applied, r.progress], ['COMPLETED', false, 100]);
      const suggestions = r.matches as Suggestion[];
      assert.ok(suggestions.length > 0);
      const before = new Map((await functions(stripped)).map((f) => [f.id, f]));
      const names = new Set((await functions(reference)).map((f) => f.name));
      for (const s of suggestions) {
        assert.match(before.get(s.function_id)!.name, /^sub_/, 'only placeholder names are replaced');
        assert.equal(s.function_vaddr, before.get(s.function_id)!.vaddr);
        assert.ok(names.has(s.suggested_demangled_name) && !/^sub_/.test(s.suggested_demangled_name));
      }

      const applied = await settle(h(), h().keys.alice, url, { ...body, apply: true });
      let after = await functions(stripped);
      for (let i = 0; i < 100 && !after.some((f) => f.name_source_type === 'AUTO_UNSTRIP'); i++) {
        await new Promise((res) => setTimeout(res, 50));
        after = await functions(stripped);
      }
      assert.equal(applied.status, 'COMPLETED');
      const renamed = after.filter((f) => f.name_source_type === 'AUTO_UNSTRIP');
      assert.deepEqual(renamed.map((f) => f.id).sort(), suggestions.map((s) => s.function_id).sort());
      assert.ok(renamed.every((f) => f.name_source.analysis_id === reference));
      const status = (await h().request('POST', url, h().keys.alice, { ...body, status_only: true })).json();
      assert.equal(status.applied, true);

      const f = renamed[0]!;
      const history = (await h().request('GET', `/v2/functions/history/${f.id}`, h().keys.alice)).json().data;
      assert.deepEqual(
        history.map((e: { source_type: string }) => e.source_type),
        ['SYSTEM', 'AUTO_UNSTRIP'],
      );
      const rt = await openRuntime(h().config);
      try {
        const entry = (await rt.store.nameHistory.list(f.id, 10)).at(-1)!;
        const evidence = JSON.parse(entry.evidence!);
        assert.equal(evidence.matched_analysis_id, reference);
        assert.equal(evidence.matched_function_id, f.name_source.function_id);
        assert.equal(evidence.method, 'auto_unstrip');
        for (const k of ['similarity', 'confidence', 'agreeing_neighbours', 'neighbours', 'pool_size'])
          assert.equal(typeof evidence[k], 'number', k);
      } finally {
        await rt.close();
      }
      // Applying again changes nothing: the names were written once.
      await settle(h(), h().keys.alice, url, { ...body, apply: true });
      const again = (await h().request('GET', `/v2/functions/history/${f.id}`, h().keys.alice)).json().data;
      assert.equal(again.length, 2);
    });

    test('ai-unstrip: a run with the call graph; owner only; validation', async () => {
      const url = `/v2/analyses/${stripped}/functions/ai-unstrip`;
      const r = await settle(h(), h().keys.alice, url, {});
      assert.deepEqual([r.status, r.applied], ['COMPLETED', false]);
      assert.ok(Array.isArray(r.matches));
      assert.equal((await h().request('POST', url, h().keys.carol, {})).statusCode, 403, 'team member, not owner');
      assert.equal((await h().request('POST', url, h().keys.bob, {})).statusCode, 404);
      const bad = await h().request('POST', url, h().keys.alice, { apply: 'yes' });
      assert.equal(bad.statusCode, 422);
      assertValidation(bad.json());
      const badAuto = await h().request('POST', `/v2/analyses/${stripped}/functions/auto-unstrip`, h().keys.alice, {
        min_group_size: 21,
      });
      assert.equal(badAuto.statusCode, 422);
      assertValidation(badAuto.json());

      // A re-analysis gives the functions new ids: the finished run no longer answers, a new one starts.
      assert.equal((await h().request('POST', url, h().keys.alice, {})).json().status, 'COMPLETED');
      const requeue = await h().request('POST', `/v2/analyses/${stripped}/requeue`, h().keys.alice, {});
      assert.equal(requeue.statusCode, 201, requeue.body);
      assert.equal(await h().waitForStatus(h().keys.alice, stripped), 'Complete');
      const fresh = (await h().request('POST', url, h().keys.alice, {})).json();
      assert.ok(['PENDING', 'RUNNING'].includes(fresh.status), fresh.status);
      assert.equal((await settle(h(), h().keys.alice, url, {})).status, 'COMPLETED');
    });

    test('cancel with nothing running: 404 NO_ACTIVE_RUN', async () => {
      for (const path of ['unstrip/cancel', 'ai-unstrip/cancel']) {
        const r = await h().request('DELETE', `/v2/analyses/${reference}/functions/${path}`, h().keys.alice);
        assert.equal(r.statusCode, 404);
        assert.equal(r.json().status, false);
        assert.equal(r.json().errors[0].code, 'NO_ACTIVE_RUN');
      }
      const other = await h().request('DELETE', `/v2/analyses/${reference}/functions/unstrip/cancel`, h().keys.carol);
      assert.equal(other.statusCode, 403);
    });

    test('cached results follow visibility: once alice’s analysis is PRIVATE again, bob’s cached runs hide it', async () => {
      const { alice, bob } = h().keys;
      const bobsStripped = await h().analysis(bob, Buffer.from(withoutSymtab(program())));
      assert.equal(await h().waitForStatus(bob, bobsStripped), 'Complete');
      const scope = async (analysis_scope: string) =>
        assert.equal(
          (await h().request('PATCH', `/v2/analyses/${reference}`, alice, { analysis_scope })).statusCode,
          200,
        );
      const fromAlice = (matches: Match[]) =>
        matches.flatMap((m) => m.matched_functions).filter((x) => x.analysis_id === reference);
      const matchBody = { min_similarity: 50, results_per_function: 5 };
      const unstripUrl = `/v2/analyses/${bobsStripped}/functions/auto-unstrip`;
      const unstripBody = { min_similarity: 50, confidence_threshold: 0, min_group_size: 1 };

      await scope('PUBLIC');
      const shown = await settle(h(), bob, matchesOf(bobsStripped), matchBody);
      assert.ok(fromAlice(shown.matches as Match[]).length > 0, 'a PUBLIC analysis is matched');
      // Without bob's own named copy, every name suggested to him comes from alice's analysis.
      assert.equal((await h().request('DELETE', `/v2/analyses/${bobs}`, bob)).statusCode, 200);
      const named = await settle(h(), bob, unstripUrl, unstripBody);
      assert.ok((named.matches as Suggestion[]).length > 0, 'names suggested from the PUBLIC analysis');

      await scope('PRIVATE');
      const cached = await h().request('POST', matchesOf(bobsStripped), bob, matchBody);
      assert.equal(cached.json().status, 'COMPLETED', 'the same request reads the cached run');
      assert.deepEqual(fromAlice(cached.json().matches as Match[]), []);
      assert.ok(
        (cached.json().matches as Match[]).every((m) => m.confidences.length === 0),
        'no confidence names a hidden function',
      );
      assert.equal(cached.json().num_debug_matches, 0);
      const again = await settle(h(), bob, unstripUrl, unstripBody);
      assert.deepEqual(again.matches, [], 'no name from an analysis bob can no longer see');
    });
  });

  describe(`unstrip cancel of a queued run (${backend.name}, no workers)`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend, { workers: 0 });

    test('a queued run is cancelled once; its status says so; a new POST starts again', async () => {
      const id = await h().analysis(h().keys.alice, Buffer.from(program()));
      for (const [post, cancel] of [
        ['auto-unstrip', 'unstrip/cancel'],
        ['ai-unstrip', 'ai-unstrip/cancel'],
      ]) {
        const url = `/v2/analyses/${id}/functions/${post}`;
        assert.equal((await h().request('POST', url, h().keys.alice, {})).json().status, 'PENDING');
        const c = await h().request('DELETE', `/v2/analyses/${id}/functions/${cancel}`, h().keys.alice);
        assert.deepEqual([c.statusCode, c.json().status, c.json().matches], [200, 'CANCELLED', null]);
        // ai-unstrip's request has no status_only: a POST after a cancel starts again (below).
        if (post === 'auto-unstrip')
          assert.equal(
            (await h().request('POST', url, h().keys.alice, { status_only: true })).json().status,
            'CANCELLED',
          );
        const again = await h().request('DELETE', `/v2/analyses/${id}/functions/${cancel}`, h().keys.alice);
        assert.equal(again.json().errors[0].code, 'NO_ACTIVE_RUN');
        assert.equal((await h().request('POST', url, h().keys.alice, {})).json().status, 'PENDING');
      }
    });
  });
}
