// AI decompilation on both databases: GET before any request (uninitialised), POST → pending → success with
// the C, its placeholder form resolving through the maps and a summary, and the instructions each line came
// from (null for a result stored before that map existed); the whole-analysis request; a rename
// making results stale; a function the decompiler cannot express ending in error; comments with their author
// rules and context; ratings replaced per user; visibility (404) and a not-yet-complete analysis (409).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createStore, openDatabase } from '../../src/store/index.js';
import { backends } from '../helpers/backends.js';
import { buildElf } from '../helpers/engine/elf.js';
import { useHarness } from '../helpers/harness.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

interface Mapping {
  inverse_function_map: Record<string, { name: string; addr: number | string | null; is_external: boolean }>;
  inverse_string_map: Record<string, { string: string; addr: number | null }>;
  [unmatched: string]: Record<string, unknown>;
}
interface Task {
  status: string;
  decompilation: string | null;
  raw_decompilation: string | null;
  function_mapping: Mapping['inverse_function_map'] | null;
  function_mapping_full: Mapping | null;
  summary?: string | null;
  ai_summary?: string | null;
  raw_ai_summary?: string | null;
  ai_refinement?: unknown;
  predicted_function_name?: string | null;
  error_message?: string | null;
  line_addresses?: number[][] | null;
}

/**
 * x87 code storing a long double it never loaded (one a call would return in st0, which the conventions do
 * not describe): what the decompiler cannot express, so its result is an error.
 */
function x87Program(): Buffer {
  const code = [0xdb, 0x3e, 0xc3]; // fstp tword [rsi]; ret
  const sections = [{ name: '.text', type: 1, flags: 6, addr: 0x11000, data: Uint8Array.from(code) }];
  return Buffer.from(buildElf({ bits: 64, little: true, machine: 62, type: 2, entry: 0x11000, sections }));
}

/** The raw form with every placeholder replaced by its mapped spelling; fails on a token no map resolves. */
function resolved(raw: string, m: Mapping): string {
  const spelled = new Map<string, string>();
  for (const [t, v] of Object.entries(m.inverse_function_map)) spelled.set(t, v.name);
  for (const [t, v] of Object.entries(m.inverse_string_map)) spelled.set(t, v.string);
  for (const [k, map] of Object.entries(m))
    if (k.startsWith('unmatched_'))
      for (const [t, v] of Object.entries(map)) spelled.set(t, (v as { value: string }).value);
  return raw.replace(/<[A-Z_]+_\d+>/g, (t) => {
    assert.ok(spelled.has(t), `${t} resolves through function_mapping_full`);
    return spelled.get(t)!;
  });
}

for (const backend of backends) {
  describe(`ai decompilation (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const ids = { alice: 0, bob: 0, x87: 0 };
    const fns = new Map<number, number>();

    const path = (fid: number | string, rest = '') => `/v2/functions/${fid}/ai-decompilation${rest}`;
    const get = async (fid: number, key = h().keys.alice) => {
      const r = await h().request('GET', path(fid), key);
      assert.equal(r.statusCode, 200, r.body);
      return r.json().data as Task;
    };
    /** Polls until the task is no longer pending. */
    const settled = async (fid: number) => {
      for (const deadline = Date.now() + 30_000; ;) {
        const t = await get(fid);
        if (t.status !== 'pending' || Date.now() > deadline) return t;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const functionIds = async (analysisId: number, key = h().keys.alice) => {
      const list = (await h().request('GET', `/v2/analyses/${analysisId}/functions`, key)).json().data.functions as {
        id: number;
        vaddr: number;
      }[];
      return new Map(list.map((f) => [f.vaddr, f.id]));
    };

    test('setup: analyses complete', async () => {
      const { alice, bob } = h().keys;
      ids.alice = await h().analysis(alice, typedProgram(31));
      ids.bob = await h().analysis(bob, typedProgram(32));
      ids.x87 = await h().analysis(alice, x87Program());
      for (const [key, id] of [
        [alice, ids.alice],
        [bob, ids.bob],
        [alice, ids.x87],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
      for (const [v, id] of await functionIds(ids.alice)) fns.set(v, id);
    });

    test('before any request: uninitialised, nothing to show', async () => {
      const f = fns.get(TYPED.g)!;
      assert.deepEqual(await get(f), {
        status: 'uninitialised',
        decompilation: null,
        raw_decompilation: null,
        function_mapping: null,
        function_mapping_full: null,
        error_message: null,
      });
      const s = await h().request('GET', path(f, '/status'), h().keys.alice);
      assert.deepEqual(s.json().data, { status: 'UNINITIALISED', error_message: null });
    });

    test('POST → pending → success: C, placeholders resolving to it exactly, a summary', async () => {
      const g = fns.get(TYPED.g)!;
      const post = await h().request('POST', path(g), h().keys.alice);
      assert.equal(post.statusCode, 201, post.body);
      assert.deepEqual(post.json().data, { function_id: g, status: 'pending' });
      const t = await settled(g);
      assert.equal(t.status, 'success', JSON.stringify(t));
      assert.match(t.decompilation!, /^int32_t sub_11006\(void\) \{/);
      assert.match(t.decompilation!, /sub_11000\(/, 'its callee by name');
      const m = t.function_mapping_full!;
      assert.equal(resolved(t.raw_decompilation!, m), t.decompilation);
      assert.ok(!/\bsub_11000\b/.test(t.raw_decompilation!), 'names are placeholders in the raw form');
      const byName = new Map(Object.values(m.inverse_function_map).map((f) => [f.name, f]));
      assert.deepEqual(byName.get('sub_11000'), { name: 'sub_11000', addr: TYPED.f, is_external: false });
      assert.deepEqual(byName.get('sub_11006'), { name: 'sub_11006', addr: TYPED.g, is_external: false });
      assert.deepEqual(t.function_mapping, m.inverse_function_map);
      assert.ok(Object.keys(m.unmatched_vars!).length > 0);
      assert.match(
        t.summary!,
        /^sub_11006 is called by no function of the binary and calls 1 function \(sub_11000\)\./,
      );
      // No model is configured (the default): nothing of one, as before AI refinement existed.
      assert.equal(t.ai_summary, null);
      assert.equal(t.raw_ai_summary, null);
      assert.equal(t.ai_refinement, null);
      assert.equal(t.predicted_function_name, null, 'no unstrip run suggests a name');
      const s = await h().request('GET', path(g, '/status'), h().keys.alice);
      assert.deepEqual(s.json().data, { status: 'COMPLETED', error_message: null });
      // Its callee was decompiled on the way: already current, nothing queued.
      const again = await h().request('POST', path(fns.get(TYPED.f)!), h().keys.alice);
      assert.deepEqual(again.json().data, { function_id: fns.get(TYPED.f), status: 'success' });
    });

    test('line_addresses: for each line of decompilation (and of its resolved raw form), the instructions it came from', async () => {
      const g = fns.get(TYPED.g)!;
      const t = await get(g);
      assert.equal(t.status, 'success');
      const lines = t.decompilation!.split('\n');
      const map = t.line_addresses!;
      assert.equal(map.length, lines.length, 'one entry per line');
      assert.equal(resolved(t.raw_decompilation!, t.function_mapping_full!).split('\n').length, map.length);
      // g: sub rsp, 0x18; lea rsi, [rsp+0xc]; mov edi, 5; call f; add eax, eax; add rsp, 0x18; ret.
      const insns = [0, 4, 9, 14, 19, 21, 25].map((d) => TYPED.g + d);
      for (const at of map) {
        assert.deepEqual(
          at,
          [...new Set(at)].sort((a, b) => a - b),
          'ascending, unique',
        );
        for (const a of at) assert.ok(insns.includes(a), `0x${a.toString(16)} is an instruction of g`);
      }
      const on = (address: number) => lines.filter((_, i) => map[i]!.includes(address)).map((l) => l.trim());
      assert.deepEqual([map[0], map.at(-1)], [[], []], 'the head and closing brace come from none');
      assert.equal(on(TYPED.g + 25).length, 1);
      assert.match(on(TYPED.g + 25)[0]!, /^return /, 'ret is the return line');
      assert.match(on(TYPED.g + 14)[0]!, /sub_11000\(/, 'the call is the line that calls f');
      assert.deepEqual(on(TYPED.g + 9), on(TYPED.g + 14), 'the argument set-up is folded into the call');

      // A result stored before the map existed has none: null, not a guess.
      const store = createStore(openDatabase(h().config.databaseUrl));
      const row = () =>
        store.driver.db
          .updateTable('function_decompilations')
          .where('analysis_id', '=', ids.alice)
          .where('vaddr', '=', TYPED.g);
      try {
        const stored = await store.driver.db
          .selectFrom('function_decompilations')
          .select('result')
          .where('analysis_id', '=', ids.alice)
          .where('vaddr', '=', TYPED.g)
          .executeTakeFirstOrThrow();
        const older = JSON.parse(stored.result!) as { lines?: number[][] };
        assert.deepEqual(older.lines, map, 'stored with the result');
        delete older.lines;
        await row()
          .set({ result: JSON.stringify(older) })
          .execute();
        const before = await get(g);
        assert.equal(before.decompilation, t.decompilation);
        assert.equal(before.line_addresses, null);
        await row().set({ result: stored.result }).execute();
      } finally {
        await store.driver.close();
      }
    });

    test('a rename anywhere in the analysis makes results stale; the next POST writes the new name', async () => {
      const { alice } = h().keys;
      const g = fns.get(TYPED.g)!;
      const f = fns.get(TYPED.f)!;
      const r = await h().request('POST', `/v2/functions/rename/${f}`, alice, {
        new_name: 'store_and_bump',
        new_mangled_name: 'store_and_bump',
      });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal((await get(g)).status, 'uninitialised');
      assert.equal((await h().request('POST', path(g), alice)).statusCode, 201);
      const t = await settled(g);
      assert.equal(t.status, 'success');
      assert.match(t.decompilation!, /store_and_bump\(/);
      assert.ok(Object.values(t.function_mapping!).some((x) => x.name === 'store_and_bump' && x.addr === TYPED.f));
    });

    test('the whole analysis in the background', async () => {
      const r = await h().request('POST', `/v2/analyses/${ids.alice}/functions/ai-decompilation`, h().keys.alice);
      assert.equal(r.statusCode, 201, r.body);
      const { queued, total } = r.json().data as { queued: number; total: number };
      assert.equal(total, 4);
      assert.ok(queued >= 1 && queued <= 2, `f and g are current: ${queued}`);
      for (const v of [TYPED.h, TYPED.k]) assert.equal((await settled(fns.get(v)!)).status, 'success');
      const again = await h().request('POST', `/v2/analyses/${ids.alice}/functions/ai-decompilation`, h().keys.alice);
      assert.deepEqual(again.json().data, { queued: 0, total: 4 });
    });

    test('/v3 type suggestions: the declared types become the data types (a version), the result goes stale', async () => {
      const { alice, bob, carol } = h().keys;
      const f = fns.get(TYPED.f)!;
      const url = `/v3/functions/${f}/ai-decompilation/type-suggestions/accept`;
      assert.equal((await get(f)).status, 'success', 'decompiled as the callee of g');
      assert.equal((await h().request('POST', url, carol, { keys: ['return'] })).statusCode, 403);
      assert.equal((await h().request('POST', url, bob, { keys: ['return'] })).statusCode, 404);
      const unknown = await h().request('POST', url, alice, { keys: ['arg_7'] });
      assert.equal(unknown.statusCode, 422, unknown.body);
      assert.equal(unknown.json().error.code, 'VALIDATION_FAILED');
      assert.match(unknown.json().error.detail, /body\.keys\.0: arg_7 is not a suggestion/);
      const r = await h().request('POST', url, alice, { keys: ['return', 'arg_1'] });
      assert.equal(r.statusCode, 200, r.body);
      const out = r.json() as {
        accepted: { key: string; data_type_id: number; created: boolean; skipped_members: number }[];
        data_types: { data_type_id: number; name: string }[];
      };
      assert.deepEqual(
        out.accepted.map((a) => [a.key, a.skipped_members]),
        [
          ['return', 0],
          ['arg_1', 0],
        ],
      );
      const names = new Map(out.data_types.map((t) => [t.data_type_id, t.name]));
      assert.deepEqual(
        out.accepted.map((a) => names.get(a.data_type_id)),
        ['int32_t', 'int32_t *'],
      );
      const types = (await h().request('GET', `/v2/analyses/${ids.alice}/functions/${f}/data_types`, alice)).json()
        .data;
      assert.equal(types.data_types.func_types.type, 'int32_t store_and_bump(int32_t a1, int32_t *a2)');
      assert.equal(types.data_types_version, 1);
      // A data-type edit makes every decompilation of the analysis stale: nothing left to accept.
      assert.equal((await get(f)).status, 'uninitialised');
      const again = await h().request('POST', url, alice, { keys: ['return'] });
      assert.equal(again.statusCode, 409, again.body);
    });

    test('the data types as edited name and type the decompilation: parameters, and members through a pointer', async () => {
      const { alice } = h().keys;
      const f = fns.get(TYPED.f)!;
      const one = `/v2/analyses/${ids.alice}/functions/${f}/data_types`;
      const before = (await h().request('GET', one, alice)).json().data;
      const edited = structuredClone(before.data_types);
      edited.func_types.header.args['0x0'].name = 'count';
      edited.func_types.header.args['0x1'] = { offset: 1, name: 'out', type: 'struct cell *', size: 8 };
      edited.func_types.type = 'int32_t store_and_bump(int32_t count, struct cell *out)';
      edited.func_deps = [
        {
          name: 'cell',
          size: 8,
          members: {
            '0x0': { name: 'value', offset: 0, type: 'int32_t', size: 4 },
            '0x4': { name: 'spare', offset: 4, type: 'uint32_t', size: 4 },
          },
          artifact_type: 'Structure',
        },
      ];
      const put = await h().request('PUT', one, alice, {
        data_types_version: before.data_types_version,
        data_types: edited,
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal((await h().request('POST', path(f), alice)).statusCode, 201);
      const t = await settled(f);
      assert.equal(t.status, 'success', t.error_message ?? '');
      const c = t.decompilation!;
      assert.match(c, /^int32_t store_and_bump\(int32_t count, struct cell \*out\) \{$/m, c);
      // f is `*p = a; return a + 1;`: the store is the member at offset 0 of the structure as declared.
      assert.match(c, /\bout->value = /, c);
      assert.equal(resolved(t.raw_decompilation!, t.function_mapping_full!), c);
    });

    test('predicted_function_name: the best name the latest unstrip run suggests, with its confidence', async () => {
      const g = fns.get(TYPED.g)!;
      const store = createStore(openDatabase(h().config.databaseUrl));
      try {
        const alice = (await store.users.byUsername('alice'))!;
        const suggestion = (name: string, confidence: number) => ({
          functionId: g,
          vaddr: TYPED.g,
          name,
          mangledName: name,
          confidence,
          evidence: { matched_analysis_id: ids.alice, matched_name: name, confidence },
        });
        const now = Date.now();
        await store.driver.db
          .insertInto('similarity_runs')
          .values({
            kind: 'auto_unstrip',
            user_id: alice.id,
            analysis_id: ids.alice,
            request_key: 'test',
            request: '{}',
            status: 'COMPLETED',
            progress: 100,
            result: JSON.stringify({ suggestions: [suggestion('parse_config', 0.93)], totalTimeMs: 1 }),
            applied: 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
      } finally {
        await store.driver.close();
      }
      assert.equal((await h().request('POST', path(g), h().keys.alice)).statusCode, 201);
      const t = (await settled(g)) as Task & { predicted_function_name_confidence?: number | null };
      assert.equal(t.status, 'success');
      assert.equal(t.predicted_function_name, 'parse_config');
      assert.equal(t.predicted_function_name_confidence, 0.93);
      // bob cannot see the function at all; carol, alice's team mate, sees the same prediction.
      assert.equal((await get(g, h().keys.carol)).predicted_function_name, 'parse_config');
    });

    test('a function the decompiler cannot express ends in error with the reason', async () => {
      const [fid] = [...(await functionIds(ids.x87)).values()];
      assert.equal((await h().request('POST', path(fid!), h().keys.alice)).statusCode, 201);
      const t = await settled(fid!);
      assert.equal(t.status, 'error');
      assert.match(t.error_message!, /x87/);
      assert.equal(t.decompilation, null);
      const s = (await h().request('GET', path(fid!, '/status'), h().keys.alice)).json().data;
      assert.equal(s.status, 'FAILED');
      assert.equal(s.error_message, t.error_message);
    });

    test('comments: context kept, anyone who sees the function comments, only the author edits or deletes', async () => {
      const { alice, bob, carol } = h().keys;
      const g = fns.get(TYPED.g)!;
      const c = await h().request('POST', path(g, '/comments'), alice, {
        content: 'calls f with a stack slot',
        context: { start_line: 2, end_line: 4 },
      });
      assert.equal(c.statusCode, 201, c.body);
      const made = c.json().data;
      assert.equal(made.resource_type, 'ai_decompilation');
      assert.equal(made.resource_id, String(g));
      assert.deepEqual(made.context, { start_line: 2, end_line: 4 });
      const byCarol = await h().request('POST', path(g, '/comments'), carol, { content: 'team mate' });
      assert.equal(byCarol.statusCode, 201);
      assert.equal(byCarol.json().data.context, null);
      const list = (await h().request('GET', path(g, '/comments'), carol)).json().data as { id: number }[];
      assert.deepEqual(
        list.map((x) => x.id),
        [made.id, byCarol.json().data.id],
      );
      // Not on the analysis's own comments, nor on another function's.
      const onAnalysis = (await h().request('GET', `/v2/analyses/${ids.alice}/comments`, alice)).json().data;
      assert.deepEqual(onAnalysis, []);
      assert.deepEqual((await h().request('GET', path(fns.get(TYPED.f)!, '/comments'), alice)).json().data, []);
      const edit = (key: string) => h().request('PATCH', path(g, `/comments/${made.id}`), key, { content: 'edited' });
      assert.equal((await edit(carol)).statusCode, 403);
      assert.equal((await edit(bob)).statusCode, 404, 'bob cannot see the function');
      const ok = await edit(alice);
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().data.content, 'edited');
      assert.deepEqual(ok.json().data.context, { start_line: 2, end_line: 4 });
      assert.equal((await h().request('DELETE', path(g, `/comments/${made.id}`), carol)).statusCode, 403);
      const del = await h().request('DELETE', path(g, `/comments/${made.id}`), alice);
      assert.deepEqual([del.statusCode, del.json().data], [200, true]);
      assert.equal((await h().request('DELETE', path(g, `/comments/${made.id}`), alice)).statusCode, 400);
      const empty = await h().request('POST', path(g, '/comments'), alice, { content: '  ' });
      assert.equal(empty.statusCode, 400);
    });

    test('ratings: null until rated, one per user, replaced by the next', async () => {
      const { alice, carol } = h().keys;
      const g = fns.get(TYPED.g)!;
      assert.equal((await h().request('GET', path(g, '/rating'), alice)).json().data, null);
      const rate = (key: string, body: unknown) => h().request('PATCH', path(g, '/rating'), key, body);
      assert.equal((await rate(alice, { rating: 'NEGATIVE', reason: 'gotos' })).statusCode, 201);
      assert.equal((await rate(alice, { rating: 'POSITIVE', reason: null })).statusCode, 201);
      assert.equal((await rate(carol, { rating: 'NEUTRAL', reason: 'fine' })).statusCode, 201);
      assert.deepEqual((await h().request('GET', path(g, '/rating'), alice)).json().data, {
        rating: 'POSITIVE',
        reason: null,
      });
      assert.deepEqual((await h().request('GET', path(g, '/rating'), carol)).json().data, {
        rating: 'NEUTRAL',
        reason: 'fine',
      });
      assert.equal((await rate(alice, { rating: 'GREAT', reason: null })).statusCode, 422);
    });

    test("visibility: another user's private function is missing on every operation", async () => {
      const { alice } = h().keys;
      const [theirs] = [...(await functionIds(ids.bob, h().keys.bob)).values()];
      for (const [method, rest, body] of [
        ['GET', '', undefined],
        ['POST', '', undefined],
        ['GET', '/status', undefined],
        ['GET', '/comments', undefined],
        ['POST', '/comments', { content: 'x' }],
        ['GET', '/rating', undefined],
        ['PATCH', '/rating', { rating: 'POSITIVE', reason: null }],
      ] as const) {
        const r = await h().request(method, path(theirs!, rest), alice, body);
        assert.equal(r.statusCode, 404, `${method} ${rest}: ${r.body}`);
        assert.equal(r.json().message, `Function with ID ${theirs} could not be found`);
      }
      const all = await h().request('POST', `/v2/analyses/${ids.bob}/functions/ai-decompilation`, alice);
      assert.equal(all.statusCode, 404);
    });

    test('re-analysis makes results stale; comments and ratings stay with the function (by address)', async () => {
      const { alice } = h().keys;
      const h0 = fns.get(TYPED.h)!;
      await h().request('POST', path(h0), alice);
      assert.equal((await settled(h0)).status, 'success');
      await h().request('POST', path(h0, '/comments'), alice, { content: 'kept' });
      await h().request('PATCH', path(h0, '/rating'), alice, { rating: 'POSITIVE', reason: null });
      const requeue = await h().request('POST', `/v2/analyses/${ids.alice}/requeue`, alice, {});
      assert.equal(requeue.statusCode, 201, requeue.body);
      assert.equal(await h().waitForStatus(alice, ids.alice), 'Complete');
      for (const [v, id] of await functionIds(ids.alice)) fns.set(v, id);
      const h1 = fns.get(TYPED.h)!;
      assert.notEqual(h1, h0, 'new function rows');
      assert.equal((await get(h1)).status, 'uninitialised');
      const comments = (await h().request('GET', path(h1, '/comments'), alice)).json().data as { content: string }[];
      assert.deepEqual(
        comments.map((c) => c.content),
        ['kept'],
      );
      assert.equal((await h().request('GET', path(h1, '/rating'), alice)).json().data.rating, 'POSITIVE');
    });

    test('an analysis not Complete: 409', async () => {
      const store = createStore(openDatabase(h().config.databaseUrl));
      try {
        await store.analyses.setStatus(ids.alice, 'Processing');
        const r = await h().request('POST', path(fns.get(TYPED.h)!), h().keys.alice);
        assert.equal(r.statusCode, 409, r.body);
        await store.analyses.setStatus(ids.alice, 'Complete');
      } finally {
        await store.driver.close();
      }
    });
  });
}
