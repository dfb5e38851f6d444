// The /v3 data-type and signature operations on both databases: the type table generation fills (filters,
// paging), types the owner defines and redefines, the functions using a type, signature changes by type id
// (versions of the /v2 data types), copies from another analysis, many functions' signatures, and the /v3
// error bodies (VALIDATION_FAILED with `detail`, NOT_FOUND, FORBIDDEN, CONFLICT).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { v3Error, v3Invalid } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

interface DataType {
  data_type_id: number;
  name: string;
  kind: string;
  size?: number;
  namespace: string;
  source_type: string;
  has_definition: boolean;
  definition?: Record<string, unknown>;
  created_at: string;
  source_analysis_id?: number;
  source_function_id?: number;
}
interface Signature {
  function_id: number;
  function_name: string;
  has_signature: boolean;
  parameters: { ordinal: number; name?: string; data_type_id?: number; bit_length?: number }[] | null;
  return_data_type_id?: number;
  calling_convention?: string;
  source_type?: string;
  source_function_id?: number;
  analysis_id?: number;
}

for (const backend of backends) {
  describe(`function data types /v3 (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    /** alice's analysis with generated data types, her second one (none yet), bob's private one. */
    const ids = { typed: 0, other: 0, bob: 0 };
    const fns = { typed: new Map<number, number>(), other: new Map<number, number>(), bob: new Map<number, number>() };
    const table = new Map<string, DataType>();

    const functionIds = async (analysisId: number, key: string) => {
      const r = await h().request('GET', `/v2/analyses/${analysisId}/functions`, key);
      return new Map((r.json().data.functions as { id: number; vaddr: number }[]).map((f) => [f.vaddr, f.id]));
    };
    const call = async (key: string, method: string, url: string, body?: unknown, status = 200) => {
      const r = await h().request(method, url, key, body);
      assert.equal(r.statusCode, status, `${method} ${url}: ${r.body}`);
      return r.json() as Record<string, unknown>;
    };
    const types = (analysisId: number) => `/v3/analyses/${analysisId}/data-types`;

    test('setup: analyses complete; data types generated for one of them', async () => {
      const { alice, bob } = h().keys;
      ids.typed = await h().analysis(alice, typedProgram(11));
      ids.other = await h().analysis(alice, typedProgram(12));
      ids.bob = await h().analysis(bob, typedProgram(13));
      for (const [key, id] of [
        [alice, ids.typed],
        [alice, ids.other],
        [bob, ids.bob],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
      fns.typed = await functionIds(ids.typed, alice);
      fns.other = await functionIds(ids.other, alice);
      fns.bob = await functionIds(ids.bob, bob);
      const f = fns.typed.get(TYPED.f)!;
      await call(alice, 'POST', `/v2/analyses/${ids.typed}/functions/data_types`, { function_ids: [f] }, 201);
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        const r = await call(alice, 'GET', `/v2/analyses/${ids.typed}/functions/${f}/data_types`);
        if ((r.data as { completed: boolean }).completed) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });

    test('GET …/data-types: the types generation found, filtered, sorted and paged', async () => {
      const { alice } = h().keys;
      const all = (await call(alice, 'GET', types(ids.typed))) as { items: DataType[]; total_count: number };
      for (const t of all.items) table.set(t.name, t);
      assert.deepEqual(
        all.items.map((t) => [t.name, t.kind, t.size, t.source_type, t.has_definition, t.definition]),
        [
          ['int32_t', 'BASE', 4, 'SYSTEM', false, undefined],
          ['int32_t *', 'POINTER', 8, 'SYSTEM', true, { type: 'int32_t' }],
          [
            'struct s_1102c_1',
            'STRUCT',
            undefined,
            'SYSTEM',
            true,
            {
              members: {
                '0x0': { name: 'f_0', type: 'int32_t', size: 4, offset: 0 },
                '0x8': { name: 'f_8', type: 'int32_t', size: 4, offset: 8 },
              },
            },
          ],
          ['struct s_1102c_1 *', 'POINTER', 8, 'SYSTEM', true, { type: 'struct s_1102c_1' }],
        ],
      );
      assert.equal(all.total_count, 4);
      const t = all.items[0]!;
      assert.equal(new Date(t.created_at).toISOString(), t.created_at);
      assert.equal(t.namespace, '');
      const names = async (query: string) =>
        ((await call(alice, 'GET', `${types(ids.typed)}?${query}`)) as { items: DataType[] }).items.map((i) => i.name);
      assert.deepEqual(await names('kind=POINTER'), ['int32_t *', 'struct s_1102c_1 *']);
      assert.deepEqual(await names('kind=STRUCT&kind=BASE&search=S_1102C'), ['struct s_1102c_1']);
      assert.deepEqual(await names('order_by=size&order=DESC'), [
        'int32_t *',
        'struct s_1102c_1 *',
        'int32_t',
        'struct s_1102c_1',
      ]);
      const page = (await call(alice, 'GET', `${types(ids.typed)}?limit=1&offset=1`)) as {
        items: DataType[];
        total_count: number;
      };
      assert.deepEqual([page.items.map((i) => i.name), page.total_count], [['int32_t *'], 4]);
      assert.deepEqual(await names('source_type=USER'), []);
      // Nothing generated yet: an empty table.
      assert.deepEqual(await call(alice, 'GET', types(ids.other)), { items: [], total_count: 0 });
    });

    test('GET …/data-types/{id}/functions: the functions using a type, a keyset page at a time', async () => {
      const { alice } = h().keys;
      const int = table.get('int32_t')!.data_type_id;
      const url = `${types(ids.typed)}/${int}/functions`;
      const every = [TYPED.f, TYPED.g, TYPED.h, TYPED.k].map((v) => fns.typed.get(v)!).sort((a, b) => a - b);
      const first = await call(alice, 'GET', `${url}?page_size=2`);
      assert.deepEqual(first, {
        items: every.slice(0, 2).map((id) => ({ function_id: id, function_name: expectName(id) })),
        next_after_function_id: every[1],
      });
      const rest = await call(alice, 'GET', `${url}?page_size=2&after_function_id=${every[1]}`);
      assert.deepEqual(rest, {
        items: every.slice(2).map((id) => ({ function_id: id, function_name: expectName(id) })),
      });
      const pointer = await call(alice, 'GET', `${types(ids.typed)}/${table.get('int32_t *')!.data_type_id}/functions`);
      assert.deepEqual(pointer.items, [{ function_id: fns.typed.get(TYPED.f), function_name: 'sub_11000' }]);

      const missing = await h().request('GET', `${types(ids.typed)}/999999/functions`, alice);
      assert.deepEqual(v3Error(missing), {
        status: 404,
        error: { code: 'NOT_FOUND', message: `Data type with ID 999999 could not be found in analysis ${ids.typed}` },
      });
    });

    /** The sub_<hex> name of a function of the typed analysis. */
    const expectName = (id: number) => `sub_${[...fns.typed.entries()].find(([, f]) => f === id)![0].toString(16)}`;

    test('POST and PUT …/data-types: the owner defines and redefines types; names are C spellings', async () => {
      const { alice } = h().keys;
      const members = {
        '0x0': { name: 'fd', offset: 0, type: 'int32_t', size: 4 },
        '0x8': { name: 'buffer', offset: 8, type: 'char *', size: 8 },
      };
      const made = (await call(
        alice,
        'POST',
        types(ids.typed),
        {
          data_types: [
            { kind: 'STRUCT', name: 'stream', size: 16, definition: { members } },
            { kind: 'POINTER', name: 'struct stream*', size: 8, definition: { type: 'struct stream' } },
            { kind: 'TYPEDEF', name: 'fd_t', namespace: 'posix', definition: { type: 'int32_t' } },
          ],
        },
        201,
      )) as { data_types: DataType[] };
      assert.deepEqual(
        made.data_types.map((t) => [t.name, t.kind, t.size, t.namespace, t.source_type, t.definition]),
        [
          ['struct stream', 'STRUCT', 16, '', 'USER', { members }],
          ['struct stream *', 'POINTER', 8, '', 'USER', { type: 'struct stream' }],
          ['fd_t', 'TYPEDEF', undefined, 'posix', 'USER', { type: 'int32_t' }],
        ],
      );
      for (const t of made.data_types) table.set(t.name, t);

      const taken = await h().request('POST', types(ids.typed), alice, {
        data_types: [{ kind: 'STRUCT', name: 'struct stream' }],
      });
      assert.deepEqual(v3Error(taken), {
        status: 409,
        error: { code: 'CONFLICT', message: 'A data type named struct stream already exists in this analysis' },
      });
      const wrong = await h().request('POST', types(ids.typed), alice, {
        data_types: [
          { kind: 'STRUCT', name: 'bad', definition: { type: 'int' } },
          {
            kind: 'ENUM',
            name: 'struct color',
            definition: { members: { RED: { name: 'x', offset: 0, type: 'int', size: 4 } } },
          },
        ],
      });
      assert.deepEqual(
        v3Error(wrong),
        v3Invalid(
          'body.data_types.0.definition.type: is not part of a STRUCT; ' +
            'body.data_types.0.definition.members: is required for a STRUCT; ' +
            'body.data_types.1.name: spells a struct but kind is ENUM; ' +
            'body.data_types.1.definition.members.RED: must be an integer value',
        ),
      );

      const fd = table.get('fd_t')!.data_type_id;
      const renamed = (await call(alice, 'PUT', types(ids.typed), {
        data_types: [{ data_type_id: fd, kind: 'TYPEDEF', name: 'file_t', definition: { type: 'int64_t' }, size: 8 }],
      })) as { data_types: DataType[] };
      assert.deepEqual(
        renamed.data_types.map((t) => [t.data_type_id, t.name, t.size, t.definition]),
        [[fd, 'file_t', 8, { type: 'int64_t' }]],
      );
      // int32_t is spelled by the generated data types: it keeps its name.
      const inUse = await h().request('PUT', types(ids.typed), alice, {
        data_types: [{ data_type_id: table.get('int32_t')!.data_type_id, kind: 'BASE', name: 'int' }],
      });
      assert.deepEqual(v3Error(inUse), {
        status: 409,
        error: {
          code: 'CONFLICT',
          message:
            'Data type int32_t is used by 4 function(s), whose data types spell it by name: it cannot be renamed',
        },
      });
      const unknown = await h().request('PUT', types(ids.typed), alice, {
        data_types: [{ data_type_id: 999999, kind: 'BASE', name: 'x' }],
      });
      assert.deepEqual(v3Error(unknown), {
        status: 404,
        error: { code: 'NOT_FOUND', message: `Data type with ID 999999 could not be found in analysis ${ids.typed}` },
      });
    });

    test('PUT …/signature: parameters by type id, a new version of the /v2 data types', async () => {
      const { alice } = h().keys;
      const f = fns.typed.get(TYPED.f)!;
      const int = table.get('int32_t')!.data_type_id;
      const stream = table.get('struct stream *')!.data_type_id;
      const sig = (await call(alice, 'PUT', `/v3/analyses/${ids.typed}/functions/${f}/signature`, {
        parameters: [
          { ordinal: 1, name: 'out', data_type_id: stream, storage: { kind: 'register', location: 'rsi' } },
          { ordinal: 0, name: 'count' },
        ],
        calling_convention: 'sysv',
      })) as unknown as Signature & { created_at: string };
      assert.deepEqual(
        { ...sig, created_at: undefined },
        {
          calling_convention: 'sysv',
          created_at: undefined,
          function_id: f,
          function_name: 'sub_11000',
          has_signature: true,
          parameters: [
            { ordinal: 0, name: 'count', bit_length: 32, data_type_id: int },
            { ordinal: 1, name: 'out', bit_length: 64, data_type_id: stream },
          ],
          return_data_type_id: int,
          source_type: 'USER',
        },
      );
      const v2 = (await call(alice, 'GET', `/v2/analyses/${ids.typed}/functions/${f}/data_types`)).data as {
        data_types_version: number;
        data_types: { func_types: { type: string }; func_deps: { name: string; artifact_type: string }[] };
      };
      assert.equal(v2.data_types_version, 2);
      assert.equal(v2.data_types.func_types.type, 'int32_t sub_11000(int32_t count, struct stream *out)');
      assert.deepEqual(
        v2.data_types.func_deps.map((d) => [d.name, d.artifact_type]),
        [['stream', 'Structure']],
        'the structure the new parameter points to is a dependency now',
      );
      const history = (await call(alice, 'GET', `/v2/analyses/${ids.typed}/functions/${f}/data_types/history`))
        .data as { data_types_version: number; changed_by: string | null }[];
      assert.deepEqual(
        history.map((v) => [v.data_types_version, v.changed_by]),
        [[1, null]],
      );

      const url = `/v3/analyses/${ids.typed}/functions/${f}/signature`;
      const bad = await h().request('PUT', url, alice, {
        parameters: [
          { ordinal: 0, data_type_id: 999999 },
          { ordinal: 2, data_type_id: int },
        ],
        return_data_type_id: 999998,
      });
      assert.deepEqual(
        v3Error(bad),
        v3Invalid(
          `body.return_data_type_id: is not a data type of analysis ${ids.typed}; ` +
            `body.parameters.0.data_type_id: is not a data type of analysis ${ids.typed}; ` +
            'body.parameters.1.ordinal: must be 1: ordinals run 0, 1, … each once',
        ),
      );
      const schema = await h().request('PUT', url, alice, { parameters: [{ name: 'x' }], extra: true });
      assert.deepEqual(
        v3Error(schema),
        v3Invalid(
          'body.extra: is not a field of this request: check its spelling; body.parameters.0.ordinal: is required',
        ),
      );
      const carol = await h().request('PUT', url, h().keys.carol, { parameters: null });
      assert.deepEqual(v3Error(carol), {
        status: 403,
        error: { code: 'FORBIDDEN', message: 'You do not have permission to access this resource' },
      });
      const bob = await h().request('PUT', url, h().keys.bob, { parameters: null });
      assert.deepEqual(v3Error(bob), {
        status: 404,
        error: { code: 'NOT_FOUND', message: `Analysis with ID ${ids.typed} could not be found` },
      });
    });

    test('POST …/signatures/copy: from another analysis, with the types the signature uses', async () => {
      const { alice } = h().keys;
      const source = fns.typed.get(TYPED.f)!;
      const target = fns.other.get(TYPED.f)!;
      const out = (await call(alice, 'POST', `/v3/analyses/${ids.other}/signatures/copy`, {
        copies: [{ source_function_id: source, target_function_id: target }],
      })) as { data_types: DataType[]; signatures: Signature[] };
      // The signature's types, and the structure's members' (the copy carries its definition).
      assert.deepEqual(out.data_types.map((t) => t.name).sort(), [
        'char',
        'char *',
        'int32_t',
        'struct stream',
        'struct stream *',
      ]);
      for (const t of out.data_types)
        assert.deepEqual([t.source_type, t.source_analysis_id, t.source_function_id], ['USER', ids.typed, source]);
      assert.equal(out.data_types.find((t) => t.name === 'struct stream')!.has_definition, true);
      const [sig] = out.signatures;
      assert.deepEqual(
        [sig!.function_id, sig!.function_name, sig!.source_type, sig!.source_function_id],
        [target, 'sub_11000', 'USER', source],
      );
      assert.deepEqual(
        sig!.parameters!.map((p) => [p.ordinal, p.name]),
        [
          [0, 'count'],
          [1, 'out'],
        ],
      );
      const v2 = (await call(alice, 'GET', `/v2/analyses/${ids.other}/functions/${target}/data_types`)).data as {
        data_types: { func_types: { type: string }; func_deps: { name: string; members: object }[] };
      };
      assert.equal(v2.data_types.func_types.type, 'int32_t sub_11000(int32_t count, struct stream *out)');
      assert.equal(v2.data_types.func_deps[0]!.name, 'stream');

      const copy = (key: string, analysisId: number, copies: unknown) =>
        h().request('POST', `/v3/analyses/${analysisId}/signatures/copy`, key, { copies });
      const none = fns.other.get(TYPED.g)!;
      assert.deepEqual(
        v3Error(await copy(alice, ids.typed, [{ source_function_id: none, target_function_id: source }])),
        {
          status: 409,
          error: {
            code: 'CONFLICT',
            message:
              `Function ${none} has no data types to copy: generate them first ` +
              '(POST /v2/analyses/{analysis_id}/functions/data_types)',
          },
        },
      );
      const hidden = fns.bob.get(TYPED.f)!;
      assert.deepEqual(
        v3Error(await copy(alice, ids.other, [{ source_function_id: hidden, target_function_id: target }])),
        {
          status: 404,
          error: { code: 'NOT_FOUND', message: `Function with ID ${hidden} could not be found` },
        },
      );
      assert.deepEqual(
        v3Error(await copy(h().keys.carol, ids.other, [{ source_function_id: source, target_function_id: target }])),
        { status: 403, error: { code: 'FORBIDDEN', message: 'You do not have permission to access this resource' } },
      );
      assert.deepEqual(
        v3Error(await copy(alice, ids.other, [{ source_function_id: source }])),
        v3Invalid('body.copies.0.target_function_id: is required'),
      );
    });

    test('GET /v3/functions/signatures: many functions, with the types they use', async () => {
      const { alice, bob } = h().keys;
      const f = fns.typed.get(TYPED.f)!;
      const target = fns.other.get(TYPED.f)!;
      const g = fns.other.get(TYPED.g)!;
      const out = (await call(
        alice,
        'GET',
        `/v3/functions/signatures?function_ids=${f},${target},${g}&include_data_types=true`,
      )) as { items: Signature[]; data_types: { analysis_id: number; items: DataType[] }[] };
      assert.deepEqual(
        out.items.map((s) => [s.analysis_id, s.function_id, s.has_signature, s.parameters?.length ?? null]),
        [
          [ids.typed, f, true, 2],
          [ids.other, target, true, 2],
          [ids.other, g, false, null],
        ],
      );
      assert.deepEqual(
        out.data_types.map((d) => [d.analysis_id, d.items.map((t) => t.name).sort()]),
        [
          [ids.typed, ['int32_t', 'struct stream', 'struct stream *']],
          [ids.other, ['char', 'char *', 'int32_t', 'struct stream', 'struct stream *']],
        ],
      );
      const plain = await call(alice, 'GET', `/v3/functions/signatures?function_ids=${f}`);
      assert.equal('data_types' in plain, false);
      const hidden = fns.bob.get(TYPED.f)!;
      assert.deepEqual(
        v3Error(await h().request('GET', `/v3/functions/signatures?function_ids=${f},${hidden}`, alice)),
        {
          status: 404,
          error: { code: 'NOT_FOUND', message: `Function with ID ${hidden} could not be found` },
        },
      );
      assert.deepEqual(
        v3Error(await h().request('GET', '/v3/functions/signatures?function_ids=1;2', bob)),
        v3Invalid('querystring.function_ids: must match pattern "^[0-9]+(,[0-9]+)*$"'),
      );
    });

    test('reads need sight of the analysis: 404 otherwise', async () => {
      const { bob } = h().keys;
      const int = table.get('int32_t')!.data_type_id;
      const hidden = { code: 'NOT_FOUND', message: `Analysis with ID ${ids.typed} could not be found` };
      for (const [method, url, body] of [
        ['GET', types(ids.typed)],
        ['GET', `${types(ids.typed)}/${int}/functions`],
        ['POST', types(ids.typed), { data_types: [] }],
        ['PUT', types(ids.typed), { data_types: null }],
        ['POST', `/v3/analyses/${ids.typed}/signatures/copy`, { copies: [] }],
      ] as const)
        assert.deepEqual(v3Error(await h().request(method, url, bob, body)), { status: 404, error: hidden }, url);
      assert.deepEqual(
        v3Error(await h().request('GET', `${types(ids.typed)}?limit=0&kind=SOMETHING`, bob)),
        v3Invalid('querystring.limit: must be >= 1; querystring.kind.0: must be equal to one of the allowed values'),
      );
    });
  });
}
