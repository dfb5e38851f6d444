// Function data types (/v2) on both databases: generate → poll → read on a real binary's code, list filters,
// versioned edits with their history and the 409 on a stale version, edits surviving re-analysis and
// re-generation, MIPS code, visibility (404) and ownership (403), and the 422 bodies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { assertValidation, errorEnvelope, VALIDATION } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

const MIPS = 'test/fixtures/binaries/passwd_reader_linux-mips_gcc12_O2_stripped';

interface DataTypes {
  completed: boolean;
  status: string;
  data_types: {
    func_types: {
      last_change: string | null;
      header: { type: string; args: Record<string, { name: string; type: string; offset: number; size: number }> };
      stack_vars: Record<string, { name: string; offset: number; addr: number }>;
      name: string;
      type: string;
    };
    func_deps: Record<string, unknown>[];
  } | null;
  data_types_version: number | null;
}

for (const backend of backends) {
  describe(`function data types /v2 (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    /** alice's private, alice's public and bob's private analyses of the typed program; alice's MIPS one. */
    const ids = { alice: 0, alicePublic: 0, bob: 0, mips: 0 };

    const functionIds = async (analysisId: number, key = h().keys.alice) => {
      const list = (await h().request('GET', `/v2/analyses/${analysisId}/functions`, key)).json().data.functions as {
        id: number;
        vaddr: number;
      }[];
      return new Map(list.map((f) => [f.vaddr, f.id]));
    };
    const one = (analysisId: number, functionId: number | string) =>
      `/v2/analyses/${analysisId}/functions/${functionId}/data_types`;
    const generate = (key: string, analysisId: number | string, body: unknown) =>
      h().request('POST', `/v2/analyses/${analysisId}/functions/data_types`, key, body);
    const get = async (analysisId: number, functionId: number, key = h().keys.alice) => {
      const r = await h().request('GET', one(analysisId, functionId), key);
      assert.equal(r.statusCode, 200, r.body);
      return r.json() as { data: DataTypes; message: string };
    };
    /** Polls a function's data types until its generation has ended. */
    const settled = async (analysisId: number, functionId: number) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const r = await get(analysisId, functionId);
        if (!['pending', 'running'].includes(r.data.status) || Date.now() > deadline) return r;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const put = (key: string, analysisId: number, functionId: number, body: unknown) =>
      h().request('PUT', one(analysisId, functionId), key, body);

    test('setup: analyses of the typed program complete', async () => {
      const { alice, bob } = h().keys;
      ids.alice = await h().analysis(alice, typedProgram(1));
      ids.alicePublic = await h().analysis(alice, typedProgram(2), { analysis_scope: 'PUBLIC' });
      ids.bob = await h().analysis(bob, typedProgram(3));
      ids.mips = await h().analysis(alice, readFileSync(MIPS));
      for (const [key, id] of [
        [alice, ids.alice],
        [alice, ids.alicePublic],
        [bob, ids.bob],
        [alice, ids.mips],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
    });

    test('GET /v2/functions/data_types is its own route, not /v2/functions/{function_id}', async () => {
      const fns = await functionIds(ids.alice);
      const r = await h().request('GET', `/v2/functions/data_types?function_ids=${fns.get(TYPED.f)}`, h().keys.alice);
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json().data.items, [
        {
          function_id: fns.get(TYPED.f),
          completed: false,
          status: 'not_generated',
          data_types: null,
          data_types_version: null,
        },
      ]);
      const none = await h().request('GET', '/v2/functions/data_types', h().keys.alice);
      assert.deepEqual(none.json().data, { total_count: 0, total_data_types_count: 0, items: [] });
    });

    test('generate → poll → completed: the prototypes the code implies, for every function', async () => {
      const { alice } = h().keys;
      const fns = await functionIds(ids.alice);
      const f = fns.get(TYPED.f)!;
      const res = await generate(alice, ids.alice, { function_ids: [f] });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.data.queued, true);
      assert.match(body.data.reference, /^\d+$/);
      assert.deepEqual(body.data.data_types_list, {
        total_count: 1,
        total_data_types_count: 0,
        items: [{ function_id: f, completed: false, status: 'pending' }],
      });

      const done = await settled(ids.alice, f);
      assert.equal(done.message, 'Success');
      const addr = TYPED.f;
      assert.deepEqual(done.data, {
        completed: true,
        status: 'completed',
        data_types: {
          func_types: {
            last_change: null,
            addr,
            size: 6,
            header: {
              last_change: null,
              name: 'sub_11000',
              addr,
              type: 'int32_t',
              args: {
                '0x0': { last_change: null, offset: 0, name: 'a1', type: 'int32_t', size: 4 },
                '0x1': { last_change: null, offset: 1, name: 'a2', type: 'int32_t *', size: 8 },
              },
            },
            stack_vars: {},
            name: 'sub_11000',
            type: 'int32_t sub_11000(int32_t a1, int32_t *a2)',
            artifact_type: 'Function',
          },
          func_deps: [],
        },
        data_types_version: 1,
      });

      // One job generated them all: h, never asked for, has its frame too.
      const other = await get(ids.alice, fns.get(TYPED.h)!);
      assert.equal(other.data.status, 'completed');
      assert.equal(other.data.data_types!.func_types.type, 'int32_t sub_11020(int32_t a1)');
      assert.deepEqual(other.data.data_types!.func_types.stack_vars, {
        '-0xc': { last_change: null, offset: -12, name: 'var_c', type: 'int32_t', size: 4, addr: TYPED.h },
      });
      // The job logs its summary after the worker thread stored the records: poll until it has.
      let logs = '';
      for (let i = 0; i < 200 && !/Data types: recovered for/.test(logs); i++) {
        if (i) await new Promise((r) => setTimeout(r, 50));
        logs = (await h().request('GET', `/v2/analyses/${ids.alice}/logs`, alice)).json().data.logs as string;
      }
      assert.match(logs, /Data types: Recovering data types \(\d+%\)/);
      assert.match(logs, /Data types: recovered for 4 of 4 functions/);
      // k's structure, recovered from its field accesses, is its dependency.
      const k = (await get(ids.alice, fns.get(TYPED.k)!)).data.data_types!;
      assert.equal(k.func_types.type, 'int32_t sub_1102c(struct s_1102c_1 *a1)');
      assert.deepEqual(k.func_deps, [
        {
          last_change: null,
          name: 's_1102c_1',
          size: null,
          members: {
            '0x0': { last_change: null, name: 'f_0', offset: 0, type: 'int32_t', size: 4 },
            '0x8': { last_change: null, name: 'f_8', offset: 8, type: 'int32_t', size: 4 },
          },
          artifact_type: 'Structure',
        },
      ]);

      // Asked again: nothing to queue, the job that made them is the reference.
      const again = (await generate(alice, ids.alice, { function_ids: [f, fns.get(TYPED.g)!] })).json().data;
      assert.deepEqual(again, {
        queued: false,
        reference: body.data.reference,
        data_types_list: {
          total_count: 2,
          total_data_types_count: 2,
          items: [
            { function_id: f, completed: true, status: 'completed' },
            { function_id: fns.get(TYPED.g), completed: true, status: 'completed' },
          ],
        },
      });
    });

    test('list: the requested (or edited) functions by default, any of the analysis with function_ids', async () => {
      const { alice } = h().keys;
      const fns = await functionIds(ids.alice);
      const list = async (query = '') =>
        (await h().request('GET', `/v2/analyses/${ids.alice}/functions/data_types${query}`, alice)).json().data as {
          total_count: number;
          total_data_types_count: number;
          items: (DataTypes & { function_id: number })[];
        };
      const asked = await list();
      assert.deepEqual(
        asked.items.map((i) => i.function_id),
        [fns.get(TYPED.f), fns.get(TYPED.g)],
      );
      const h1 = await list(`?function_ids=${fns.get(TYPED.h)}`);
      assert.deepEqual([h1.total_count, h1.total_data_types_count], [1, 1]);
      assert.equal(h1.items[0]!.data_types!.func_types.name, 'sub_11020');
      // Not a function of this analysis: 404, as for one that does not exist.
      const foreign = (await functionIds(ids.alicePublic)).get(TYPED.f)!;
      const r = await h().request(
        'GET',
        `/v2/analyses/${ids.alice}/functions/data_types?function_ids=${foreign}`,
        alice,
      );
      assert.equal(r.statusCode, 404);
      assert.deepEqual(r.json(), errorEnvelope(`Function with ID ${foreign} could not be found`, '404'));
    });

    test('PUT: a new version on the version read, its history, and 409 on a stale version', async () => {
      const { alice } = h().keys;
      const fns = await functionIds(ids.alice);
      const f = fns.get(TYPED.f)!;
      const before = (await get(ids.alice, f)).data;
      const edited = structuredClone(before.data_types!);
      edited.func_types.header.args['0x0']!.name = 'count';
      edited.func_types.header.args['0x1'] = { offset: 1, name: 'out', type: 'struct stream*', size: 8 };
      edited.func_types.type = 'int32_t sub_11000(int32_t count, struct stream *out)';
      edited.func_deps = [
        {
          name: 'stream',
          size: 16,
          members: {
            '0x0': { name: 'fd', offset: 0, type: 'int32_t', size: 4 },
            '0x8': { name: 'buffer', offset: 8, type: 'char *', size: 8 },
          },
          artifact_type: 'Structure',
        },
      ];
      const res = await put(alice, ids.alice, f, { data_types_version: 1, data_types: edited });
      assert.equal(res.statusCode, 200, res.body);
      const now = res.json().data as DataTypes;
      assert.equal(now.data_types_version, 2);
      const changed = now.data_types!.func_types.last_change!;
      assert.equal(new Date(changed).toISOString(), changed);
      assert.deepEqual(now.data_types!.func_types.header.args['0x1'], {
        last_change: changed,
        offset: 1,
        name: 'out',
        type: 'struct stream *',
        size: 8,
      });
      assert.deepEqual(now.data_types!.func_deps, [
        {
          last_change: changed,
          name: 'stream',
          size: 16,
          members: {
            '0x0': { last_change: changed, name: 'fd', offset: 0, type: 'int32_t', size: 4 },
            '0x8': { last_change: changed, name: 'buffer', offset: 8, type: 'char *', size: 8 },
          },
          artifact_type: 'Structure',
        },
      ]);
      assert.deepEqual((await get(ids.alice, f)).data, now);

      const stale = await put(alice, ids.alice, f, { data_types_version: 1, data_types: edited });
      assert.equal(stale.statusCode, 409);
      assert.deepEqual(
        stale.json(),
        errorEnvelope(
          `The data types of function ${f} are at version 2, not 1: someone changed them since you read them; ` +
            'read them again (GET …/data_types), re-apply your change and send that data_types_version',
          '409',
        ),
      );

      edited.func_types.header.type = 'int64_t';
      const third = await put(alice, ids.alice, f, { data_types_version: 2, data_types: edited });
      assert.equal(third.json().data.data_types_version, 3);
      const history = (await h().request('GET', `${one(ids.alice, f)}/history`, alice)).json().data as {
        data_types_version: number;
        changed_by: string | null;
        replaced_by: string;
        data_types: DataTypes['data_types'];
      }[];
      assert.deepEqual(
        history.map((v) => [v.data_types_version, v.changed_by, v.replaced_by, v.data_types!.func_types.header.type]),
        [
          [1, null, 'alice', 'int32_t'],
          [2, 'alice', 'alice', 'int32_t'],
        ],
      );
      assert.deepEqual(history[0]!.data_types, before.data_types);
    });

    test('edits survive re-analysis and re-generation; the rest is generated again', async () => {
      const { alice } = h().keys;
      const current = (await get(ids.alice, (await functionIds(ids.alice)).get(TYPED.f)!)).data;
      const requeue = await h().request('POST', `/v2/analyses/${ids.alice}/requeue`, alice, {});
      assert.equal(requeue.statusCode, 201, requeue.body);
      assert.equal(await h().waitForStatus(alice, ids.alice), 'Complete');
      const fns = await functionIds(ids.alice);
      const f = fns.get(TYPED.f)!;
      // New function rows, the same addresses: the edit is still served, under the new id.
      assert.deepEqual((await get(ids.alice, f)).data, current);

      const res = (await generate(alice, ids.alice, { function_ids: [f, fns.get(TYPED.g)!] })).json().data;
      assert.equal(res.queued, true, 'the analysis ran again since: its types are generated again');
      const g = await settled(ids.alice, fns.get(TYPED.g)!);
      assert.deepEqual([g.data.status, g.data.data_types_version], ['completed', 1], 'unchanged: same version');
      const after = await settled(ids.alice, f);
      assert.deepEqual(after.data, current, 'the edit, not the new generation, is served');
    });

    test('MIPS code gets its data types too: every architecture the engine analyses is lifted', async () => {
      const { alice } = h().keys;
      const fns = [...(await functionIds(ids.mips)).values()];
      const res = await generate(alice, ids.mips, { function_ids: fns.slice(0, 2) });
      assert.equal(res.statusCode, 201, res.body);
      for (const f of fns.slice(0, 2)) {
        const done = await settled(ids.mips, f);
        assert.equal(done.message, 'Success');
        assert.equal(done.data.status, 'completed');
      }
    });

    test('409 for an analysis that is not Complete', async () => {
      const { alice } = h().keys;
      const up = await h().upload(alice, Buffer.alloc(0));
      const created = await h().request('POST', '/v2/analyses', alice, {
        filename: 'empty',
        sha_256_hash: up.json().data.sha_256_hash,
        binary_config: { isa: 'x86_64', platform: 'linux' },
      });
      const id = created.json().data.analysis_id as number;
      assert.equal(await h().waitForStatus(alice, id), 'Error');
      const r = await generate(alice, id, { function_ids: [1] });
      assert.equal(r.statusCode, 409);
      assert.deepEqual(
        r.json(),
        errorEnvelope(`Analysis ${id} is Error: its results are available once it is Complete`, '409'),
      );
    });

    test('visibility: 404 for what the caller cannot see; writes are the owner’s (403)', async () => {
      const { bob, carol } = h().keys;
      const f = (await functionIds(ids.alice)).get(TYPED.f)!;
      const hidden = errorEnvelope(`Analysis with ID ${ids.alice} could not be found`, '404');
      for (const r of [
        await h().request('GET', one(ids.alice, f), bob),
        await h().request('GET', `/v2/analyses/${ids.alice}/functions/data_types`, bob),
        await h().request('GET', `${one(ids.alice, f)}/history`, bob),
        await generate(bob, ids.alice, { function_ids: [f] }),
        await put(bob, ids.alice, f, { data_types_version: 3, data_types: { func_deps: [] } }),
      ]) {
        assert.equal(r.statusCode, 404, r.body);
        assert.deepEqual(r.json(), hidden);
      }
      const many = await h().request('GET', `/v2/functions/data_types?function_ids=${f}`, bob);
      assert.deepEqual(many.json(), errorEnvelope(`Function with ID ${f} could not be found`, '404'));
      const manyPost = await h().request('POST', '/v2/functions/data_types', bob, { function_ids: [f] });
      assert.deepEqual([manyPost.statusCode, manyPost.json()], [404, many.json()]);

      // carol (alice's team) sees it and may ask for generation, but not change it.
      assert.equal((await get(ids.alice, f, carol)).data.data_types_version, 3);
      const forbidden = await put(carol, ids.alice, f, { data_types_version: 3, data_types: { func_deps: [] } });
      assert.equal(forbidden.statusCode, 403);
      assert.deepEqual(forbidden.json(), errorEnvelope('You do not have permission to access this resource', '403'));
      // Anyone may generate a public analysis's data types; only alice may change them.
      const pub = (await functionIds(ids.alicePublic, bob)).get(TYPED.h)!;
      const byBob = await h().request('POST', '/v2/functions/data_types', bob, { function_ids: [pub] });
      assert.equal(byBob.statusCode, 201, byBob.body);
      assert.deepEqual(byBob.json().data.items, [{ function_id: pub, completed: false, status: 'pending' }]);
      assert.equal((await settled(ids.alicePublic, pub)).data.status, 'completed');
      const bobPut = await put(bob, ids.alicePublic, pub, { data_types_version: 1, data_types: { func_deps: [] } });
      assert.equal(bobPut.statusCode, 403);
    });

    test('422: the validation envelope names the failing field', async () => {
      const { alice } = h().keys;
      const f = (await functionIds(ids.alice)).get(TYPED.f)!;
      const body = (await generate(alice, ids.alice, { function_ids: [] })).json();
      assert.deepEqual(body, {
        ...VALIDATION,
        meta: {
          detail: 'body.function_ids: must name at least one function',
          fields: [{ field: 'body.function_ids', reason: 'must name at least one function' }],
        },
      });
      const cases: [string, () => ReturnType<typeof generate>, string][] = [
        ['no function_ids', () => generate(alice, ids.alice, {}), 'body.function_ids'],
        ['function_ids not integers', () => generate(alice, ids.alice, { function_ids: ['x'] }), 'body.function_ids'],
        ['analysis id not digits', () => generate(alice, 'abc', { function_ids: [f] }), 'params.analysis_id'],
        [
          'list filter not integers',
          () => h().request('GET', `/v2/analyses/${ids.alice}/functions/data_types?function_ids=a`, alice),
          'querystring.function_ids',
        ],
        ['PUT without a version', () => put(alice, ids.alice, f, { data_types: { func_deps: [] } }), 'body'],
        [
          'PUT with an unknown key',
          () => put(alice, ids.alice, f, { data_types_version: 3, data_types: { func_deps: [], extra: 1 } }),
          'body.data_types.extra',
        ],
        [
          'PUT with args not keyed objects',
          () =>
            put(alice, ids.alice, f, {
              data_types_version: 3,
              data_types: {
                func_types: {
                  addr: 1,
                  size: 1,
                  name: 'x',
                  type: 'void x(void)',
                  header: { name: 'x', addr: 1, type: 'void', args: [] },
                },
                func_deps: [],
              },
            }),
          'body.data_types.func_types.header.args',
        ],
      ];
      for (const [what, send, field] of cases) {
        const r = await send();
        assert.equal(r.statusCode, 422, `${what}: ${r.body}`);
        assertValidation(r.json(), what, field);
      }
      // A function with no data types yet needs func_types.
      const blank = (await functionIds(ids.bob, h().keys.bob)).get(TYPED.f)!;
      const r = await put(h().keys.bob, ids.bob, blank, { data_types_version: 0, data_types: { func_deps: [] } });
      assert.equal(r.statusCode, 422);
      assertValidation(r.json(), 'nothing to keep', 'body.data_types.func_types');
    });

    test('deleting an analysis takes its data types, history and type table with it', async () => {
      const { alice } = h().keys;
      for (const id of [ids.alice, ids.alicePublic]) {
        const r = await h().request('DELETE', `/v2/analyses/${id}`, alice);
        assert.equal(r.statusCode, 200, r.body);
        const gone = await h().request('GET', `/v2/analyses/${id}/functions/data_types`, alice);
        assert.equal(gone.statusCode, 404);
      }
    });
  });
}
