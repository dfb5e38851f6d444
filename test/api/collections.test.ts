// /v2 collections on both databases: shapes, scope and visibility, owner-only changes, paging, filters and
// bounds. alice and carol share team "red"; bob is alone.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { errorEnvelope as envelope, assertValidation } from '../helpers/envelopes.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

const FORBIDDEN = envelope('You do not have permission to access this resource', '403');
const collectionMissing = (id: number) => envelope(`Collection with ID ${id} could not be found`, '404');

/** An analysis of a distinct sample; returns its analysis and binary ids. */
async function binary(h: Harness, key: string, tag: number, scope: string, filename = `bin-${tag}.elf`) {
  const id = await h.analysis(key, elf64(tag), { analysis_scope: scope, filename });
  const basic = (await h.request('GET', `/v2/analyses/${id}/basic`, key)).json().data;
  return { analysisId: id, binaryId: basic.binary_id as number };
}

interface Created {
  collection_id: number;
}

for (const backend of backends) {
  describe(`collections API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let alice: string;
    let bob: string;
    let carol: string;
    let alicePublic: { analysisId: number; binaryId: number };
    let alicePrivate: { analysisId: number; binaryId: number };
    let bobPrivate: { analysisId: number; binaryId: number };

    const create = async (key: string, body: Record<string, unknown>) => {
      const r = await h().request('POST', '/v2/collections', key, { description: 'd', model_id: 2, ...body });
      assert.equal(r.statusCode, 200, r.body);
      return (r.json().data as Created).collection_id;
    };
    const get = (key: string, id: number, query = '') =>
      h().request('GET', `/v2/collections/${id}${query ? `?${query}` : ''}`, key);

    before(async () => {
      if (backend.skip) return;
      ({ alice, bob, carol } = h().keys);
      alicePublic = await binary(h(), alice, 11, 'PUBLIC');
      alicePrivate = await binary(h(), alice, 12, 'PRIVATE');
      bobPrivate = await binary(h(), bob, 13, 'PRIVATE');
    });

    test('create answers CollectionResponse; get adds tags and binaries on request', async () => {
      const r = await h().request('POST', '/v2/collections', alice, {
        collection_name: 'firmware',
        description: 'routers',
        collection_scope: 'PUBLIC',
        model_id: 2,
        tags: ['iot', 'iot', 'router'],
        binaries: [alicePublic.binaryId, alicePrivate.binaryId],
      });
      assert.equal(r.statusCode, 200, r.body);
      const data = r.json().data;
      assert.equal(typeof data.collection_id, 'number');
      assert.deepEqual(
        { ...data, collection_id: 0, created_at: '', updated_at: '' },
        {
          collection_id: 0,
          collection_name: 'firmware',
          description: 'routers',
          model_id: 2,
          user_id: data.user_id,
          team_id: data.team_id,
          collection_scope: 'PUBLIC',
          created_at: '',
          updated_at: '',
          tags: ['iot', 'router'],
          binaries: [alicePublic.binaryId, alicePrivate.binaryId],
        },
      );
      const plain = (await get(alice, data.collection_id)).json();
      assert.equal(plain.data.tags, null);
      assert.equal(plain.data.binaries, null);
      const full = (await get(alice, data.collection_id, 'include_tags=true&include_binaries=true')).json();
      assert.deepEqual(full.data.tags, ['iot', 'router']);
      assert.deepEqual(
        full.data.binaries.map((b: { binary_id: number; analysis_id: number; binary_name: string }) => [
          b.binary_id,
          b.analysis_id,
          b.binary_name,
        ]),
        [
          [alicePublic.binaryId, alicePublic.analysisId, 'bin-11.elf'],
          [alicePrivate.binaryId, alicePrivate.analysisId, 'bin-12.elf'],
        ],
      );
      assert.equal(full.data.binaries[0].is_system_analysis, false);
    });

    test('binaries page with page_size/page_number and filter with binary_search_str', async () => {
      const id = await create(alice, {
        collection_name: 'paged',
        binaries: [alicePublic.binaryId, alicePrivate.binaryId],
      });
      const page = async (q: string) => (await get(alice, id, `include_binaries=true&${q}`)).json();
      const first = await page('page_size=1&page_number=1');
      assert.deepEqual(
        first.data.binaries.map((b: { binary_id: number }) => b.binary_id),
        [alicePublic.binaryId],
      );
      assert.deepEqual(first.meta.pagination, { page_size: 1, page_number: 1, has_next_page: true });
      const second = await page('page_size=1&page_number=2');
      assert.deepEqual(
        second.data.binaries.map((b: { binary_id: number }) => b.binary_id),
        [alicePrivate.binaryId],
      );
      assert.equal(second.meta.pagination.has_next_page, false);
      const found = await page('binary_search_str=BIN-12');
      assert.deepEqual(
        found.data.binaries.map((b: { binary_id: number }) => b.binary_id),
        [alicePrivate.binaryId],
      );
      for (const q of ['page_size=0', 'page_size=101', 'page_number=0'])
        assertValidation((await get(alice, id, q)).json(), q);
    });

    test('scope: PRIVATE is the owner’s, TEAM the team’s, PUBLIC everyone’s; members as each reader may see', async () => {
      const priv = await create(alice, { collection_name: 'mine', collection_scope: 'PRIVATE' });
      const team = await create(alice, { collection_name: 'ours', collection_scope: 'TEAM' });
      const pub = await create(alice, {
        collection_name: 'everyone',
        collection_scope: 'PUBLIC',
        binaries: [alicePublic.binaryId, alicePrivate.binaryId],
      });
      assert.equal((await get(alice, priv)).statusCode, 200);
      for (const key of [bob, carol]) {
        const r = await get(key, priv);
        assert.equal(r.statusCode, 404);
        assert.deepEqual(r.json(), collectionMissing(priv));
      }
      assert.equal((await get(carol, team)).statusCode, 200);
      assert.deepEqual((await get(bob, team)).json(), collectionMissing(team));
      const members = async (key: string) =>
        (await get(key, pub, 'include_binaries=true'))
          .json()
          .data.binaries.map((b: { binary_id: number }) => b.binary_id);
      // alice's PRIVATE analysis: her team sees it, bob does not.
      assert.deepEqual(await members(carol), [alicePublic.binaryId, alicePrivate.binaryId]);
      assert.deepEqual(await members(bob), [alicePublic.binaryId]);
      const listed = async (key: string) =>
        (await h().request('GET', '/v2/collections?limit=50&search_term=e', key)).json().data.results;
      const bobs = await listed(bob);
      assert.ok(!bobs.some((c: { collection_id: number }) => c.collection_id === priv || c.collection_id === team));
      const seen = bobs.find((c: { collection_id: number }) => c.collection_id === pub);
      assert.equal(seen.collection_size, 1, 'the size counts only members the reader can see');
      assert.equal(
        (await listed(carol)).find((c: { collection_id: number }) => c.collection_id === pub).collection_size,
        2,
      );
    });

    test('only the owner changes or deletes: 403 for others who see it, 404 for those who do not', async () => {
      const pub = await create(alice, { collection_name: 'guarded', collection_scope: 'PUBLIC', tags: ['keep'] });
      const priv = await create(alice, { collection_name: 'hidden', collection_scope: 'PRIVATE' });
      const attempts = (id: number): [string, string, unknown][] => [
        ['PATCH', `/v2/collections/${id}`, { collection_name: 'stolen' }],
        ['PATCH', `/v2/collections/${id}/binaries`, { binaries: [] }],
        ['PATCH', `/v2/collections/${id}/tags`, { tags: [] }],
        ['DELETE', `/v2/collections/${id}`, undefined],
      ];
      for (const [method, url, body] of attempts(pub)) {
        const r = await h().request(method, url, carol, body);
        assert.equal(r.statusCode, 403, `${method} ${url}`);
        assert.deepEqual(r.json(), FORBIDDEN);
      }
      for (const [method, url, body] of attempts(priv)) {
        const r = await h().request(method, url, bob, body);
        assert.deepEqual([r.statusCode, r.json()], [404, collectionMissing(priv)], `${method} ${url}`);
      }
      const after = (await get(alice, pub, 'include_tags=true')).json().data;
      assert.deepEqual([after.collection_name, after.tags], ['guarded', ['keep']]);
    });

    test('the owner updates fields, replaces binaries and tags, and deletes', async () => {
      const id = await create(alice, { collection_name: 'edit', binaries: [alicePublic.binaryId] });
      const patched = await h().request('PATCH', `/v2/collections/${id}`, alice, {
        collection_name: 'edited',
        description: null,
        collection_scope: 'TEAM',
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(
        [patched.json().data.collection_name, patched.json().data.description, patched.json().data.collection_scope],
        ['edited', 'd', 'TEAM'],
      );
      const bins = await h().request('PATCH', `/v2/collections/${id}/binaries`, alice, {
        binaries: [alicePrivate.binaryId],
      });
      assert.deepEqual(
        bins.json().data.binaries.map((b: { binary_id: number }) => b.binary_id),
        [alicePrivate.binaryId],
      );
      const tags = await h().request('PATCH', `/v2/collections/${id}/tags`, alice, { tags: ['b', 'a'] });
      assert.deepEqual(tags.json().data, { tags: ['a', 'b'] });
      const del = await h().request('DELETE', `/v2/collections/${id}`, alice);
      assert.deepEqual(del.json(), { status: true, data: true, message: 'Success', errors: [], meta: {} });
      assert.deepEqual((await get(alice, id)).json(), collectionMissing(id));
    });

    test('binaries the caller cannot see, or that do not exist, are refused and nothing changes', async () => {
      const id = await create(bob, { collection_name: 'bobs', binaries: [bobPrivate.binaryId] });
      for (const b of [alicePrivate.binaryId, 999999]) {
        const r = await h().request('PATCH', `/v2/collections/${id}/binaries`, bob, { binaries: [b] });
        assert.deepEqual([r.statusCode, r.json()], [404, envelope(`Binary with ID ${b} could not be found`, '404')]);
        const made = await h().request('POST', '/v2/collections', bob, {
          collection_name: 'x',
          description: 'd',
          model_id: 2,
          binaries: [b],
        });
        assert.equal(made.statusCode, 404);
      }
      const members = (await get(bob, id, 'include_binaries=true')).json().data.binaries;
      assert.deepEqual(
        members.map((m: { binary_id: number }) => m.binary_id),
        [bobPrivate.binaryId],
      );
    });

    test('a deleted analysis leaves every collection', async () => {
      const gone = await binary(h(), alice, 14, 'PUBLIC');
      const id = await create(alice, { collection_name: 'transient', binaries: [gone.binaryId] });
      assert.equal((await h().request('DELETE', `/v2/analyses/${gone.analysisId}`, alice)).statusCode, 200);
      assert.deepEqual((await get(alice, id, 'include_binaries=true')).json().data.binaries, []);
    });

    test('list: filters, order and paging', async () => {
      const names = ['list-b', 'list-a', 'list-c'];
      const ids = [];
      for (const n of names) ids.push(await create(carol, { collection_name: n, collection_scope: 'PUBLIC' }));
      await h().request('PATCH', `/v2/collections/${ids[2]}/binaries`, carol, { binaries: [alicePublic.binaryId] });
      const list = async (key: string, q: string) => {
        const r = await h().request('GET', `/v2/collections?search_term=list-&${q}`, key);
        assert.equal(r.statusCode, 200, r.body);
        return r.json();
      };
      const names_ = (r: { data: { results: { collection_name: string }[] } }) =>
        r.data.results.map((c) => c.collection_name);
      assert.deepEqual(names_(await list(bob, 'order_by=collection&order=ASC')), ['list-a', 'list-b', 'list-c']);
      assert.deepEqual(names_(await list(bob, 'order_by=created')), ['list-c', 'list-a', 'list-b']);
      assert.deepEqual(names_(await list(bob, 'filters=hide_empty')), ['list-c']);
      assert.deepEqual(names_(await list(bob, 'filters=user_only')), []);
      assert.deepEqual(names_(await list(alice, 'filters=team_only&order=ASC&order_by=collection')), [
        'list-a',
        'list-b',
        'list-c',
      ]);
      assert.deepEqual(names_(await list(bob, 'filters=official_only')), []);
      const page = await list(bob, 'order_by=collection&order=ASC&limit=5&offset=1');
      assert.deepEqual(names_(page), ['list-b', 'list-c']);
      assert.deepEqual(page.meta.pagination, { page_size: 5, page_number: 1, has_next_page: false });
      const item = (await list(bob, 'filters=hide_empty')).data.results[0];
      assert.deepEqual(
        { ...item, collection_id: 0, creation: '', team_id: 0 },
        {
          collection_name: 'list-c',
          description: 'd',
          collection_scope: 'PUBLIC',
          collection_owner: 'carol',
          official_collection: false,
          collection_tags: [],
          collection_size: 1,
          collection_id: 0,
          creation: '',
          model_name: 'binnet-0.7-x86-64-linux',
          team_id: 0,
        },
      );
    });

    test('422 on every bound: paging, enums, model, names, tags, binaries', async () => {
      for (const q of ['limit=4', 'limit=51', 'offset=-1', 'order_by=size', 'filters=mine', 'order=UP'])
        assertValidation((await h().request('GET', `/v2/collections?${q}`, alice)).json(), q);
      const base = { collection_name: 'ok', description: 'd', model_id: 2 };
      const bodies: Record<string, unknown>[] = [
        { ...base, model_id: 0 },
        { ...base, model_id: 15 }, // past the last model
        { ...base, collection_name: '   ' },
        { ...base, collection_name: 'n'.repeat(201) },
        { ...base, description: 'd'.repeat(10_001) },
        { ...base, collection_scope: 'SECRET' },
        { ...base, tags: [''] },
        { ...base, tags: ['t'.repeat(101)] },
        { ...base, tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
        { ...base, binaries: Array.from({ length: 10_001 }, (_, i) => i + 1) },
        { ...base, binaries: ['1'] },
        { description: 'd', model_id: 2 },
      ];
      for (const body of bodies) {
        const r = await h().request('POST', '/v2/collections', alice, body);
        assert.equal(r.statusCode, 422, JSON.stringify(body).slice(0, 80));
        assertValidation(r.json(), JSON.stringify(body).slice(0, 80));
      }
      const id = await create(alice, { collection_name: 'bounds' });
      for (const [url, body] of [
        [`/v2/collections/${id}`, { collection_name: '' }],
        [`/v2/collections/${id}/tags`, { tags: 'x' }],
        [`/v2/collections/${id}/binaries`, {}],
        ['/v2/collections/x', {}],
      ] as const)
        assertValidation((await h().request('PATCH', url, alice, body)).json(), url);
    });
  });
}
