// /v2/search/{functions,binaries,collections,tags} on both databases: what each caller may see, filters,
// paging and bounds. alice and carol share team "red"; bob is alone.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { backends } from '../helpers/backends.js';
import { errorEnvelope, assertValidation } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

const x64 = () => Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));
const arm64 = () => Buffer.from(sampleProgram({ bits: 64, little: true, machine: 183 }));

interface Result {
  [k: string]: unknown;
}

for (const backend of backends) {
  describe(`search API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let alice: string;
    let bob: string;
    let carol: string;
    let alicePrivate: number;
    let bobPublic: number;

    const search = async (key: string, what: string, query: string) => {
      const r = await h().request('GET', `/v2/search/${what}?${query}`, key);
      assert.equal(r.statusCode, 200, r.body);
      const body = r.json();
      return { results: body.data.results as Result[], page: body.meta.pagination };
    };

    before(async () => {
      if (backend.skip) return;
      ({ alice, bob, carol } = h().keys);
      alicePrivate = await h().analysis(alice, x64(), {
        filename: 'alice-secret.elf',
        analysis_scope: 'PRIVATE',
        tags: [{ name: 'secret-tag' }, { name: 'shared-tag' }],
      });
      bobPublic = await h().analysis(bob, arm64(), {
        filename: 'bob-open.elf',
        analysis_scope: 'PUBLIC',
        tags: [{ name: 'shared-tag' }],
      });
      for (const [key, id] of [
        [alice, alicePrivate],
        [bob, bobPublic],
      ] as const)
        assert.equal(await h().waitForStatus(key, id), 'Complete');
    });

    test('functions: another user’s PRIVATE analysis never appears; the owner’s team sees it', async () => {
      const owners = async (key: string) =>
        (await search(key, 'functions', 'partial_name=EXPORTED_fn&page_size=100')).results.map((f) => f.binary_name);
      assert.deepEqual((await owners(alice)).sort(), ['alice-secret.elf', 'bob-open.elf']);
      assert.deepEqual((await owners(carol)).sort(), ['alice-secret.elf', 'bob-open.elf']);
      assert.deepEqual(await owners(bob), ['bob-open.elf']);
      const one = (await search(bob, 'functions', 'partial_name=exported_fn')).results[0]!;
      assert.deepEqual(
        { ...one, function_id: 0, created_at: '' },
        {
          function_id: 0,
          function_name: 'exported_fn',
          binary_name: 'bob-open.elf',
          created_at: '',
          model_id: 6,
          model_name: 'binnet-0.7-arm-64-linux',
          owned_by: 'bob',
        },
      );
    });

    test('functions: model_name filters; pages walk the list; page_size is clamped to 100', async () => {
      const arm = await search(alice, 'functions', 'partial_name=_fn&model_name=binnet-0.7-arm-64-linux&page_size=100');
      assert.ok(arm.results.length >= 2);
      assert.ok(arm.results.every((f) => f.binary_name === 'bob-open.elf'));
      const first = await search(alice, 'functions', 'page_size=100');
      const all = first.results.map((f) => f.function_id);
      assert.equal(all.length, 100, 'the two programs have more than 100 functions between them');
      const walked: unknown[] = [];
      for (let page = 1; page <= 5; page++) {
        const p = await search(alice, 'functions', `page=${page}&page_size=3`);
        walked.push(...p.results.map((f) => f.function_id));
        assert.deepEqual(p.page, { page_size: 3, page_number: page, has_next_page: true });
      }
      assert.deepEqual(walked, all.slice(0, 15));
      const last = await search(alice, 'functions', 'page=100000&page_size=3');
      assert.deepEqual([last.results, last.page.has_next_page], [[], false]);
      const clamped = await search(alice, 'functions', 'page_size=100000');
      assert.equal(clamped.page.page_size, 100);
      assert.ok(clamped.results.length <= 100);
    });

    test('binaries: by name, hash, tags and the caller’s own files; invisible ones never appear', async () => {
      const names = async (key: string, q: string) =>
        (await search(key, 'binaries', q)).results.map((b) => b.binary_name).sort();
      assert.deepEqual(await names(bob, 'partial_name=.elf'), ['bob-open.elf']);
      assert.deepEqual(await names(carol, 'partial_name=.elf'), ['alice-secret.elf', 'bob-open.elf']);
      assert.deepEqual(await names(alice, 'tags=shared-tag'), ['alice-secret.elf', 'bob-open.elf']);
      assert.deepEqual(await names(alice, 'tags=shared-tag&tags=secret-tag'), ['alice-secret.elf']);
      assert.deepEqual(await names(bob, 'tags=secret-tag'), []);
      assert.deepEqual(await names(alice, 'partial_name=.elf&user_files_only=true'), ['alice-secret.elf']);
      assert.deepEqual(await names(alice, 'model_name=binnet-0.7-arm-64-linux'), ['bob-open.elf']);
      const basic = (await h().request('GET', `/v2/analyses/${bobPublic}/basic`, bob)).json().data;
      const sha = basic.sha_256_hash as string;
      const byHash = (await search(alice, 'binaries', `partial_sha256=${sha.slice(4, 20).toUpperCase()}`)).results;
      assert.deepEqual(
        { ...byHash[0], created_at: '' },
        {
          binary_id: basic.binary_id,
          binary_name: 'bob-open.elf',
          analysis_id: bobPublic,
          sha_256_hash: sha,
          tags: ['shared-tag'],
          created_at: '',
          model_id: 6,
          model_name: 'binnet-0.7-arm-64-linux',
          owned_by: 'bob',
        },
      );
    });

    test('collections: only visible ones, by name, member, tag and model; unknown model is 404', async () => {
      const aliceBasic = (await h().request('GET', `/v2/analyses/${alicePrivate}/basic`, alice)).json().data;
      const make = async (key: string, body: Record<string, unknown>) => {
        const r = await h().request('POST', '/v2/collections', key, { description: 'd', model_id: 2, ...body });
        assert.equal(r.statusCode, 200, r.body);
        return r.json().data.collection_id as number;
      };
      const hidden = await make(alice, {
        collection_name: 'srch-hidden',
        collection_scope: 'PRIVATE',
        binaries: [aliceBasic.binary_id],
        tags: ['srch-private'],
      });
      const open = await make(alice, {
        collection_name: 'srch-open',
        collection_scope: 'PUBLIC',
        binaries: [aliceBasic.binary_id],
        tags: ['srch-public'],
      });
      const ids = async (key: string, q: string) =>
        (await search(key, 'collections', q)).results.map((c) => c.collection_id);
      assert.deepEqual(await ids(alice, 'partial_collection_name=srch-&order_by=collection&order_by_direction=ASC'), [
        hidden,
        open,
      ]);
      assert.deepEqual(await ids(bob, 'partial_collection_name=srch-'), [open]);
      // A member the reader cannot see does not make the collection match for them.
      assert.deepEqual(await ids(bob, 'partial_binary_name=alice-secret'), []);
      assert.deepEqual(await ids(carol, 'partial_binary_name=alice-secret&partial_collection_name=srch'), [open]);
      assert.deepEqual(await ids(alice, 'tags=srch-public'), [open]);
      assert.deepEqual(
        await ids(alice, 'partial_collection_name=srch-&model_name=binnet-0.7-x86-64-linux&order_by=created'),
        [open, hidden],
      );
      const found = (await search(bob, 'collections', 'partial_collection_name=srch-open')).results[0]!;
      assert.deepEqual(
        { ...found, created_at: '', last_updated_at: '', team_id: 0 },
        {
          collection_id: open,
          collection_name: 'srch-open',
          scope: 'PUBLIC',
          last_updated_at: '',
          created_at: '',
          model_id: 2,
          model_name: 'binnet-0.7-x86-64-linux',
          owned_by: 'alice',
          tags: ['srch-public'],
          size: 0,
          description: 'd',
          team_id: 0,
        },
      );
      const r = await h().request('GET', '/v2/search/collections?model_name=nope', alice);
      const msg = 'Model nope could not be found';
      assert.deepEqual([r.statusCode, r.json()], [404, errorEnvelope(msg, '404')]);
    });

    test('tags: in use on something the caller can see, with a stable id', async () => {
      const tags = async (key: string, q: string) => (await search(key, 'tags', q)).results;
      const alices = await tags(alice, 'partial_name=-TAG');
      assert.deepEqual(
        alices.map((t) => t.tag),
        ['secret-tag', 'shared-tag'],
      );
      assert.deepEqual(
        (await tags(bob, 'partial_name=-tag')).map((t) => t.tag),
        ['shared-tag'],
      );
      assert.equal((await tags(bob, 'partial_name=shared-tag'))[0]!.tag_id, alices[1]!.tag_id);
      assert.deepEqual(
        (await tags(bob, 'partial_name=srch-')).map((t) => t.tag),
        ['srch-public'],
      );
      const paged = await search(alice, 'tags', 'partial_name=-tag&page=2&page_size=1');
      assert.deepEqual(
        paged.results.map((t) => t.tag),
        ['shared-tag'],
      );
      assert.deepEqual(paged.page, { page_size: 1, page_number: 2, has_next_page: false });
    });

    test('422 on bounds and missing parameters', async () => {
      for (const url of [
        '/v2/search/functions?page=0',
        '/v2/search/functions?page=100001',
        '/v2/search/binaries?page_size=0',
        '/v2/search/binaries?user_files_only=maybe',
        '/v2/search/collections?filters=mine',
        '/v2/search/collections?order_by_direction=UP',
        '/v2/search/tags',
        '/v2/search/tags?partial_name=x&page_size=-1',
      ])
        assertValidation((await h().request('GET', url, alice)).json(), url);
      assert.equal((await h().request('GET', '/v2/search/binaries', null)).statusCode, 401);
      // An unrelated analysis keeps the search honest about what a fresh user owns.
      await h().analysis(carol, elf64(77));
      assert.deepEqual(
        (await search(bob, 'binaries', 'user_files_only=true')).results.map((b) => b.binary_name),
        ['bob-open.elf'],
      );
    });
  });
}
