// The /v3 collection and search operations on both databases: shapes from v3-notes, visibility, owner-only
// changes, paging, and the /v3 error body ({error: {code, message, trace_id, detail}}) for each failure,
// while /v2 keeps its envelope. alice and carol share team "red"; bob is alone.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { backends } from '../helpers/backends.js';
import { errorEnvelope, assertValidation, v3Error, v3Invalid as invalid } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

const x64 = () => Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));
const arm64 = () => Buffer.from(sampleProgram({ bits: 64, little: true, machine: 183 }));

interface Item {
  [k: string]: unknown;
}

for (const backend of backends) {
  describe(`/v3 API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let alice: string;
    let bob: string;
    let carol: string;
    let alicePrivate: { analysisId: number; binaryId: number };
    let bobPublic: { analysisId: number; binaryId: number };
    let alicePublic: { analysisId: number; binaryId: number };

    const analysis = async (key: string, bytes: Buffer, filename: string, scope: string, tags: string[] = []) => {
      const id = await h().analysis(key, bytes, {
        filename,
        analysis_scope: scope,
        tags: tags.map((name) => ({ name })),
      });
      const basic = (await h().request('GET', `/v2/analyses/${id}/basic`, key)).json().data;
      return { analysisId: id, binaryId: basic.binary_id as number };
    };
    const create = async (key: string, body: Record<string, unknown>) => {
      const r = await h().request('POST', '/v3/collections', key, { description: 'd', ...body });
      assert.equal(r.statusCode, 201, r.body);
      return r.json() as Item & { collection_id: number };
    };
    const get = async (key: string, url: string) => {
      const r = await h().request('GET', url, key);
      assert.equal(r.statusCode, 200, r.body);
      return r.json() as { has_next_page: boolean; page_number: number; page_size: number; results: Item[] };
    };

    before(async () => {
      if (backend.skip) return;
      ({ alice, bob, carol } = h().keys);
      alicePrivate = await analysis(alice, x64(), 'v3-alice.elf', 'PRIVATE', ['v3-secret']);
      bobPublic = await analysis(bob, arm64(), 'v3-bob.elf', 'PUBLIC', ['v3-open']);
      alicePublic = await analysis(alice, elf64(31), 'v3-alice-public.elf', 'PUBLIC');
      for (const [key, id] of [
        [alice, alicePrivate.analysisId],
        [bob, bobPublic.analysisId],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
    });

    test('POST /v3/collections: 201 with the members as Binary objects', async () => {
      const made = await create(alice, {
        collection_name: 'v3-made',
        collection_scope: 'TEAM',
        binaries: [alicePrivate.binaryId, bobPublic.binaryId],
        tags: ['x', 'y'],
      });
      const me = (await h().request('GET', '/v2/users/me', alice)).json().data;
      assert.deepEqual(
        { ...made, collection_id: 0, created_at: '', updated_at: '', team_id: 0 },
        {
          collection_id: 0,
          collection_name: 'v3-made',
          collection_scope: 'TEAM',
          created_at: '',
          description: 'd',
          team_id: 0,
          updated_at: '',
          user_id: me.user_id,
          tags: ['x', 'y'],
          binaries: [
            {
              analysis_id: alicePrivate.analysisId,
              binary_id: alicePrivate.binaryId,
              binary_name: 'v3-alice.elf',
              created_at: (made.binaries as Item[])[0]!.created_at,
              is_system_analysis: false,
              owner_id: me.user_id,
              sha_256_hash: (made.binaries as Item[])[0]!.sha_256_hash,
            },
            (made.binaries as Item[])[1]!,
          ],
        },
      );
      assert.notEqual(made.team_id, 0, 'alice has a team');
      assert.equal((made.binaries as Item[])[1]!.binary_id, bobPublic.binaryId);
      const bobs = await create(bob, { collection_name: 'v3-bob', collection_scope: 'PUBLIC' });
      assert.equal(bobs.team_id, 0, 'no team: 0');
      assert.deepEqual([bobs.binaries, bobs.tags], [[], []]);
    });

    test('GET /v3/collections: visible ones only, paged by limit/offset, ordered by name by default', async () => {
      await create(alice, { collection_name: 'v3-list-private', collection_scope: 'PRIVATE' });
      await create(alice, { collection_name: 'v3-list-team', collection_scope: 'TEAM' });
      await create(alice, {
        collection_name: 'v3-list-public',
        collection_scope: 'PUBLIC',
        binaries: [alicePrivate.binaryId, alicePublic.binaryId],
      });
      const names = async (key: string) =>
        (await get(key, '/v3/collections?search_term=v3-list&limit=50')).results.map((c) => c.collection_name);
      assert.deepEqual(await names(alice), ['v3-list-private', 'v3-list-public', 'v3-list-team']);
      assert.deepEqual(await names(carol), ['v3-list-public', 'v3-list-team']);
      assert.deepEqual(await names(bob), ['v3-list-public']);
      const page = await get(alice, '/v3/collections?search_term=v3-list&limit=1&offset=1');
      assert.deepEqual(
        { ...page, results: page.results.map((c) => c.collection_name) },
        { has_next_page: true, page_number: 2, page_size: 1, results: ['v3-list-public'] },
      );
      const item = (await get(bob, '/v3/collections?search_term=v3-list-public')).results[0]!;
      assert.deepEqual(
        { ...item, collection_id: 0, creation: '', updated_at: '', team_id: 0 },
        {
          collection_id: 0,
          collection_name: 'v3-list-public',
          collection_owner: 'alice',
          collection_scope: 'PUBLIC',
          collection_size: 1,
          collection_tags: [],
          creation: '',
          description: 'd',
          official_collection: false,
          team_id: 0,
          updated_at: '',
        },
      );
      const desc = await get(alice, '/v3/collections?search_term=v3-list&order=DESC&order_by=collection');
      assert.equal(desc.results[0]!.collection_name, 'v3-list-team');
    });

    test('PATCH /v3/collections/{id}: owner only; binary_count counts visible members', async () => {
      const c = await create(alice, {
        collection_name: 'v3-patch',
        collection_scope: 'PUBLIC',
        binaries: [alicePublic.binaryId],
      });
      const url = `/v3/collections/${c.collection_id}`;
      const r = await h().request('PATCH', url, alice, { collection_name: 'v3-patched', collection_scope: 'PRIVATE' });
      assert.equal(r.statusCode, 200, r.body);
      const body = r.json();
      assert.deepEqual(
        [body.collection_name, body.collection_scope, body.description, body.binary_count],
        ['v3-patched', 'PRIVATE', 'd', 1],
      );
      const open = await create(alice, { collection_name: 'v3-guarded', collection_scope: 'PUBLIC' });
      const denied = await h().request('PATCH', `/v3/collections/${open.collection_id}`, carol, { description: 'x' });
      assert.deepEqual(v3Error(denied), {
        status: 403,
        error: { code: 'FORBIDDEN', message: 'You do not have permission to access this resource' },
      });
      const hidden = await h().request('PATCH', url, bob, { description: 'x' });
      assert.deepEqual(v3Error(hidden), {
        status: 404,
        error: { code: 'NOT_FOUND', message: `Collection with ID ${c.collection_id} could not be found` },
      });
    });

    test('PATCH replaces, POST adds (204), null empties; binaries the caller cannot see are 404', async () => {
      const c = await create(bob, { collection_name: 'v3-members', collection_scope: 'PUBLIC' });
      const url = `/v3/collections/${c.collection_id}/binaries`;
      const replaced = await h().request('PATCH', url, bob, { binaries: [bobPublic.binaryId] });
      assert.deepEqual(
        replaced.json().binaries.map((b: Item) => b.binary_id),
        [bobPublic.binaryId],
      );
      const added = await h().request('POST', url, bob, { binaries: [alicePublic.binaryId, bobPublic.binaryId] });
      assert.deepEqual([added.statusCode, added.body], [204, '']);
      const listed = (await get(bob, '/v3/collections?search_term=v3-members')).results[0]!;
      assert.equal(listed.collection_size, 2);
      const refused = await h().request('POST', url, bob, { binaries: [alicePrivate.binaryId] });
      assert.deepEqual(v3Error(refused), {
        status: 404,
        error: { code: 'NOT_FOUND', message: `Binary with ID ${alicePrivate.binaryId} could not be found` },
      });
      const notMine = await h().request('POST', url, alice, { binaries: [alicePublic.binaryId] });
      assert.equal(notMine.statusCode, 403);
      const emptied = await h().request('PATCH', url, bob, { binaries: null });
      assert.deepEqual(emptied.json(), { binaries: [] });
    });

    test('GET /v3/binaries: visibility, filters, exclusion, users and paging', async () => {
      const names = async (key: string, q: string) =>
        (await get(key, `/v3/binaries?${q}`)).results.map((b) => b.binary_name).sort();
      assert.deepEqual(await names(bob, 'partial_name=v3-'), ['v3-alice-public.elf', 'v3-bob.elf']);
      assert.deepEqual(await names(carol, 'partial_name=v3-'), ['v3-alice-public.elf', 'v3-alice.elf', 'v3-bob.elf']);
      assert.deepEqual(await names(bob, 'tags=v3-secret'), []);
      assert.deepEqual(await names(alice, `partial_name=v3-&exclude_binary_id=${bobPublic.binaryId}`), [
        'v3-alice-public.elf',
        'v3-alice.elf',
      ]);
      const bobId = (await get(bob, '/v3/binaries?partial_name=v3-bob')).results[0]!;
      const me = (await h().request('GET', '/v2/users/me', bob)).json().data;
      assert.deepEqual(await names(alice, `partial_name=v3-&user_ids=${me.user_id}`), ['v3-bob.elf']);
      assert.deepEqual(await names(alice, 'partial_name=v3-&user_files_only=true'), [
        'v3-alice-public.elf',
        'v3-alice.elf',
      ]);
      assert.deepEqual(bobId.tags, ['v3-open']);
      const page = await get(alice, '/v3/binaries?partial_name=v3-&limit=2&offset=2');
      assert.deepEqual([page.results.length, page.page_number, page.page_size, page.has_next_page], [1, 2, 2, false]);
    });

    test('GET /v3/functions and /v3/tags: only what the caller can see', async () => {
      const binaries = async (key: string) =>
        [
          ...new Set(
            (await get(key, '/v3/functions?partial_name=exported_fn&limit=100')).results.map((f) => f.binary_name),
          ),
        ].sort();
      assert.deepEqual(await binaries(alice), ['v3-alice.elf', 'v3-bob.elf']);
      assert.deepEqual(await binaries(bob), ['v3-bob.elf']);
      const page = await get(alice, '/v3/functions?limit=2&offset=4');
      assert.deepEqual([page.results.length, page.page_number, page.has_next_page], [2, 3, true]);
      const tags = async (key: string) => (await get(key, '/v3/tags?partial_name=v3-')).results.map((t) => t.tag);
      assert.deepEqual(await tags(alice), ['v3-open', 'v3-secret']);
      assert.deepEqual(await tags(bob), ['v3-open']);
    });

    test('422 VALIDATION_FAILED names every failing field', async () => {
      const cases: [string, string, unknown, string][] = [
        [
          'POST',
          '/v3/collections',
          {},
          'body.collection_name: is required; body.collection_scope: is required; body.description: is required',
        ],
        [
          'POST',
          '/v3/collections',
          { collection_name: '', collection_scope: 'SECRET', description: 'd' },
          'body.collection_name: must NOT have fewer than 1 characters; ' +
            'body.collection_scope: must be equal to one of the allowed values',
        ],
        [
          'GET',
          '/v3/collections?limit=0&offset=-1&order_by=size',
          undefined,
          'querystring.limit: must be >= 1; querystring.offset: must be >= 0; ' +
            'querystring.order_by: must be equal to one of the allowed values',
        ],
        ['PATCH', '/v3/collections/0', { description: 'x' }, 'params.collection_id: must be >= 1'],
        ['PATCH', '/v3/collections/1/binaries', {}, 'body.binaries: is required'],
        ['POST', '/v3/collections/1/binaries', { binaries: ['x'] }, 'body.binaries.0: must be integer'],
        [
          'GET',
          '/v3/binaries?limit=10',
          undefined,
          'querystring: at least one of partial_name, partial_sha256, tags, model_name is required',
        ],
        ['GET', '/v3/functions?limit=101', undefined, 'querystring.limit: must be <= 100'],
        ['GET', '/v3/tags', undefined, 'querystring.partial_name: is required'],
        [
          'POST',
          '/v3/collections',
          { collection_name: 'c', collection_scope: 'PRIVATE', description: 'd', colour: 'red' },
          'body.colour: is not a field of this request: check its spelling',
        ],
      ];
      for (const [method, url, body, detail] of cases)
        assert.deepEqual(v3Error(await h().request(method, url, alice, body)), invalid(detail), `${method} ${url}`);
      const malformed = await h().app.inject({
        method: 'POST',
        url: '/v3/collections',
        headers: { authorization: alice, 'content-type': 'application/json' },
        payload: '{"collection_name": ',
      });
      assert.deepEqual(
        v3Error(malformed),
        invalid("body: Body is not valid JSON but content-type is set to 'application/json'"),
      );
      // Semantic bounds beyond the schema answer the same way.
      const blank = await h().request('POST', '/v3/collections', alice, {
        collection_name: '  ',
        collection_scope: 'PUBLIC',
        description: 'd',
      });
      assert.deepEqual(v3Error(blank), invalid('body.collection_name: must be 1 to 200 characters, not blank'));
    });

    test('401 and unknown /v3 paths answer in the /v3 body; /v2 keeps its envelope', async () => {
      assert.deepEqual(v3Error(await h().request('GET', '/v3/collections', null)), {
        status: 401,
        error: {
          code: 'UNAUTHORIZED',
          message: 'Missing API key: send your API key in the Authorization header (binlens users create makes one)',
        },
      });
      assert.deepEqual(v3Error(await h().request('GET', '/v3/nothing-here', alice)), {
        status: 404,
        error: { code: 'NOT_FOUND', message: 'Route GET /v3/nothing-here not found' },
      });
      const a = (await h().request('GET', '/v3/tags', alice)).json().error.trace_id;
      const b = (await h().request('GET', '/v3/tags', alice)).json().error.trace_id;
      assert.notEqual(a, b, 'each request has its own trace id');
      const v2 = await h().request('GET', '/v2/collections?limit=0', alice);
      assert.equal(v2.statusCode, 422);
      assertValidation(v2.json());
      const v2missing = await h().request('GET', '/v2/collections/999999', alice);
      const msg = 'Collection with ID 999999 could not be found';
      assert.deepEqual([v2missing.statusCode, v2missing.json()], [404, errorEnvelope(msg, '404')]);
    });
  });
}
