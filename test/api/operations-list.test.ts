// GET /v2/analyses/list: every filter, each sort field in both directions, paging; and the binary lookup.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { elf64, rawBlob } from '../helpers/samples.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** An x86-64 Linux ELF of `extra` more bytes than the minimal one, so sizes differ. */
const elfOfSize = (tag: number, extra: number) => Buffer.concat([elf64(tag), Buffer.alloc(extra, 0xcc)]);

interface Row {
  analysis_id: number;
  binary_name: string;
  binary_size: number;
  status: string;
  model_name: string;
  username: string;
  sha_256_hash: string;
}

/** Uploads `content` as `key` and creates an analysis named `name`; waits until it is done. */
async function make(h: Harness, key: string, name: string, content: Buffer, extra: Record<string, unknown> = {}) {
  const up = await h.upload(key, content, name);
  assert.equal(up.statusCode, 200, up.body);
  const r = await h.request('POST', '/v2/analyses', key, { filename: name, sha_256_hash: sha256(content), ...extra });
  assert.equal(r.statusCode, 201, r.body);
  const id = r.json().data.analysis_id as number;
  await h.waitForStatus(key, id);
  return id;
}

for (const backend of backends) {
  describe(`operations: list filters (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const a: Record<string, number> = {};

    before(async () => {
      const alice = h().keys.alice;
      a.alphaTool = await make(h(), alice, 'alpha_tool', elfOfSize(1, 300));
      a.betaLoader = await make(h(), alice, 'Beta%Loader', elfOfSize(2, 100));
      a.gamma = await make(h(), alice, 'gamma', elfOfSize(3, 500));
      a.alphaXTool = await make(h(), alice, 'ALPHAxtool', elfOfSize(4, 200));
      a.delta = await make(h(), alice, 'delta', rawBlob(1024), { binary_config: { isa: 'x86', platform: 'windows' } });
      // A sample whose bytes vanished from the blob store before its analysis ran ends in Error.
      const lost = elfOfSize(5, 0);
      assert.equal((await h().upload(alice, lost, 'broken')).statusCode, 200);
      const sha = sha256(lost);
      rmSync(join(h().config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha));
      const r = await h().request('POST', '/v2/analyses', alice, { filename: 'broken', sha_256_hash: sha });
      const broken = r.json().data.analysis_id as number;
      assert.equal(await h().waitForStatus(alice, broken), 'Error');
      a.broken = broken;
      a.bobPublic = await make(h(), h().keys.bob, 'alpha_bob', elfOfSize(6, 0), { analysis_scope: 'PUBLIC' });
      a.bobPrivate = await make(h(), h().keys.bob, 'alpha_bob_private', elfOfSize(7, 0));
    });

    const list = async (qs: string, key = h().keys.alice): Promise<Row[]> => {
      const r = await h().request('GET', `/v2/analyses/list?${qs}`, key);
      assert.equal(r.statusCode, 200, `${qs}: ${r.body}`);
      return r.json().data.results;
    };
    const names = (rows: Row[]) => rows.map((r) => r.binary_name).sort();

    const searches: [string, string[]][] = [
      ['alpha', ['ALPHAxtool', 'alpha_tool']],
      ['ALPHA', ['ALPHAxtool', 'alpha_tool']],
      ['Tool', ['ALPHAxtool', 'alpha_tool']],
      ['alpha_', ['alpha_tool']],
      ['_', ['alpha_tool']],
      ['%', ['Beta%Loader']],
      ['a%l', ['Beta%Loader']],
      ['a_t', ['alpha_tool']],
      ['\\', []],
      ['zzz', []],
      ['', ['ALPHAxtool', 'Beta%Loader', 'alpha_tool', 'broken', 'delta', 'gamma']],
    ];
    for (const [term, expected] of searches) {
      test(`search_term ${JSON.stringify(term)}: name substring, case-insensitive, % and _ literal`, async () => {
        assert.deepEqual(names(await list(`search_term=${encodeURIComponent(term)}`)), expected);
      });
    }

    test('status', async () => {
      const all = ['ALPHAxtool', 'Beta%Loader', 'alpha_tool', 'broken', 'delta', 'gamma'];
      assert.deepEqual(names(await list('status=Complete')), [
        'ALPHAxtool',
        'Beta%Loader',
        'alpha_tool',
        'delta',
        'gamma',
      ]);
      assert.deepEqual(names(await list('status=Error')), ['broken']);
      assert.deepEqual(names(await list('status=Complete&status=Error')), all);
      assert.deepEqual(names(await list('status=Queued&status=Processing&status=Uploaded')), []);
      assert.deepEqual(names(await list('status=All')), all);
      assert.deepEqual(names(await list('status=Error&status=All')), all);
      for (const row of await list('status=Error')) assert.equal(row.status, 'Error');
    });

    test('model_name', async () => {
      assert.deepEqual(names(await list('model_name=binnet-0.7-x86-32-windows')), ['delta']);
      assert.deepEqual(names(await list('model_name=binnet-0.7-x86-64-linux')), [
        'ALPHAxtool',
        'Beta%Loader',
        'alpha_tool',
        'broken',
        'gamma',
      ]);
      assert.equal((await list('model_name=binnet-0.7-x86-64-linux&model_name=binnet-0.7-x86-32-windows')).length, 6);
      assert.deepEqual(await list('model_name=binnet-0.7-arm-64-linux'), []);
    });

    test('usernames, within the workspaces viewed', async () => {
      const viewAll = 'workspace=personal&workspace=public';
      assert.deepEqual(names(await list(`${viewAll}&usernames=bob`)), ['alpha_bob']);
      assert.equal((await list(`${viewAll}&usernames=alice`)).length, 6);
      assert.equal((await list(`${viewAll}&usernames=alice&usernames=bob`)).length, 7);
      assert.deepEqual(await list(`${viewAll}&usernames=nobody`), []);
      assert.deepEqual(names(await list('usernames=bob', h().keys.bob)), ['alpha_bob', 'alpha_bob_private']);
    });

    test('sha256_hash, in either case', async () => {
      const sha = sha256(elfOfSize(3, 500));
      assert.deepEqual(names(await list(`sha256_hash=${sha}`)), ['gamma']);
      assert.deepEqual(names(await list(`sha256_hash=${sha.toUpperCase()}`)), ['gamma']);
      assert.deepEqual(await list(`sha256_hash=${'0'.repeat(64)}`), []);
      assert.deepEqual(await list(`sha256_hash=${sha256(elfOfSize(7, 0))}`), [], "bob's private sample stays hidden");
    });

    test('dynamic_execution_status', async () => {
      assert.deepEqual(await list('dynamic_execution_status=PENDING'), []);
      assert.deepEqual(await list('dynamic_execution_status=SUCCESS'), []);
      assert.equal((await list('dynamic_execution_status=ALL')).length, 6);
    });

    test('lookup maps a binary id to its analysis id', async () => {
      for (const row of await list('')) {
        const basic = await h().request('GET', `/v2/analyses/${row.analysis_id}/basic`, h().keys.alice);
        const binaryId = basic.json().data.binary_id as number;
        const lookup = await h().request('GET', `/v2/analyses/lookup/${binaryId}`, h().keys.alice);
        assert.equal(lookup.statusCode, 200);
        assert.deepEqual(lookup.json().data, { analysis_id: row.analysis_id, binary_id: binaryId });
      }
      const missing = await h().request('GET', '/v2/analyses/lookup/9999999', h().keys.alice);
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json().errors, [{ code: '404', message: 'Resource not found' }]);
    });
  });

  describe(`operations: list order and paging (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    // Names, sizes and creation order all disagree, so each sort is told apart from the others.
    const fixture: [string, number][] = [
      ['kilo', 700],
      ['echo', 100],
      ['lima', 400],
      ['alpha', 600],
      ['mike', 0],
      ['hotel', 300],
      ['india', 500],
    ];
    const created: string[] = [];

    before(async () => {
      for (const [i, [name, extra]] of fixture.entries()) {
        await make(h(), h().keys.carol, name, elfOfSize(100 + i, extra));
        created.push(name);
      }
    });

    const list = async (qs: string) => {
      const r = await h().request('GET', `/v2/analyses/list?${qs}`, h().keys.carol);
      assert.equal(r.statusCode, 200, r.body);
      return (r.json().data.results as Row[]).map((x) => x.binary_name);
    };
    const bySize = [...fixture].sort((x, y) => x[1] - y[1]).map(([n]) => n);
    const byName = fixture.map(([n]) => n).sort();

    test('default order: newest first', async () => {
      assert.deepEqual(await list(''), [...created].reverse());
      assert.deepEqual(await list('order_by=created'), [...created].reverse());
      assert.deepEqual(await list('order=DESC'), [...created].reverse());
    });

    const orders: [string, () => string[]][] = [
      ['order_by=created&order=ASC', () => created],
      ['order_by=created&order=DESC', () => [...created].reverse()],
      ['order_by=name&order=ASC', () => byName],
      ['order_by=name&order=DESC', () => [...byName].reverse()],
      ['order_by=size&order=ASC', () => bySize],
      ['order_by=size&order=DESC', () => [...bySize].reverse()],
    ];
    for (const [qs, expected] of orders) {
      test(qs, async () => assert.deepEqual(await list(qs), expected()));
    }

    test('limit and offset page through the results', async () => {
      assert.deepEqual(await list('order_by=name&order=ASC&limit=5'), byName.slice(0, 5));
      assert.deepEqual(await list('order_by=name&order=ASC&limit=5&offset=5'), byName.slice(5));
      assert.deepEqual(await list('order_by=name&order=ASC&limit=5&offset=3'), byName.slice(3, 8));
      assert.deepEqual(await list('order_by=name&order=ASC&limit=5&offset=7'), []);
      assert.deepEqual(await list('order_by=size&order=DESC&limit=5&offset=2'), [...bySize].reverse().slice(2, 7));
      assert.equal((await list('limit=50')).length, 7);
      // Pages of one ordering never repeat or drop a row.
      const pages = [...(await list('order=ASC&limit=5')), ...(await list('order=ASC&limit=5&offset=5'))];
      assert.deepEqual(pages, created);
    });
  });
}
