// The authorization matrix: alice and carol share team "red", bob has no team. PRIVATE analyses are seen by
// their owner and the owner's team, PUBLIC ones by everyone; an analysis a caller cannot see is reported
// exactly as a missing one. Owner-only and author-only operations refuse everyone else and change nothing.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

type User = 'alice' | 'bob' | 'carol';

const envelope = (message: string, code: string | null) => ({
  status: false,
  data: null,
  message,
  errors: code === null ? [] : [{ code, message }],
  meta: {},
});
const FORBIDDEN = envelope('You do not have permission to access this resource', '403');
const missing = (id: number) => envelope(`Analysis with ID ${id} could not be found`, '404');
const RESOURCE_MISSING = envelope('Resource not found', '404');
const SOME_MISSING = envelope('Not all analyses could be found', '404');

/** The read operations of one analysis, by route. */
const READS: [string, (id: number, binaryId: number) => string][] = [
  ['status', (id) => `/v2/analyses/${id}/status`],
  ['basic', (id) => `/v2/analyses/${id}/basic`],
  ['params', (id) => `/v2/analyses/${id}/params`],
  ['logs', (id) => `/v2/analyses/${id}/logs`],
  ['tags', (id) => `/v2/analyses/${id}/tags`],
  ['comments', (id) => `/v2/analyses/${id}/comments`],
  ['stages', (id) => `/v2/analysis-stages/${id}`],
  ['lookup', (_id, binaryId) => `/v2/analyses/lookup/${binaryId}`],
];

/** What a caller who cannot see analysis `id` gets from a read: the body a missing analysis gives. */
const invisibleRead = (route: string, id: number) => (route === 'lookup' ? RESOURCE_MISSING : missing(id));

/** Owner-only operations, each with the body a non-owner's refusal carries when the analysis is invisible. */
const OWNER_ONLY: {
  name: string;
  method: string;
  url: (id: number) => string;
  body?: unknown;
  hidden: (id: number) => unknown;
}[] = [
  {
    name: 'update',
    method: 'PATCH',
    url: (id) => `/v2/analyses/${id}`,
    body: { binary_name: 'pwned.bin', analysis_scope: 'PUBLIC' },
    hidden: missing,
  },
  { name: 'delete', method: 'DELETE', url: (id) => `/v2/analyses/${id}`, hidden: missing },
  { name: 'bulk delete', method: 'PATCH', url: () => '/v2/analyses/delete', hidden: () => SOME_MISSING },
  {
    name: 'replace tags',
    method: 'PATCH',
    url: (id) => `/v2/analyses/${id}/tags`,
    body: { tags: ['pwned'] },
    hidden: missing,
  },
  {
    name: 'insert log',
    method: 'POST',
    url: (id) => `/v2/analyses/${id}/logs`,
    body: { log: 'pwned' },
    hidden: missing,
  },
  {
    name: 'put strings',
    method: 'PUT',
    url: (id) => `/v2/analyses/${id}/strings`,
    body: { strings: [{ value: 'pwned', vaddr: 4096, source: 'USER' }] },
    hidden: missing,
  },
  {
    name: 'requeue',
    method: 'POST',
    url: (id) => `/v2/analyses/${id}/requeue`,
    body: { model_name: 'binnet-0.7-x86-64-windows' },
    // The spec's fixed message; the detail says the same of a hidden analysis as of a missing one.
    hidden: (id) => ({
      ...RESOURCE_MISSING,
      meta: { detail: `analysis ${id} does not exist or is not visible to you` },
    }),
  },
];

/** Everything an owner-only operation could change, as the owner sees it. */
async function snapshot(h: Harness, id: number) {
  const get = async (url: string) => (await h.request('GET', url, h.keys.alice)).json().data;
  return {
    basic: await get(`/v2/analyses/${id}/basic`),
    status: await get(`/v2/analyses/${id}/status`),
    tags: await get(`/v2/analyses/${id}/tags`),
    logs: await get(`/v2/analyses/${id}/logs`),
    stages: await get(`/v2/analysis-stages/${id}`),
  };
}

for (const backend of backends) {
  describe(`authorization: single analyses (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const ids = { priv: 0, pub: 0 };
    const binaryIds = { priv: 0, pub: 0 };
    const key = (u: User) => h().keys[u];

    before(async () => {
      ids.priv = await h().analysis(key('alice'), elf64(101));
      ids.pub = await h().analysis(key('alice'), elf64(102), { analysis_scope: 'PUBLIC' });
      for (const k of ['priv', 'pub'] as const) {
        assert.equal(await h().waitForStatus(key('alice'), ids[k]), 'Complete');
        binaryIds[k] = (await h().request('GET', `/v2/analyses/${ids[k]}/basic`, key('alice'))).json().data.binary_id;
      }
    });

    const canRead: Record<'priv' | 'pub', Record<User, boolean>> = {
      priv: { alice: true, carol: true, bob: false },
      pub: { alice: true, carol: true, bob: true },
    };
    for (const scope of ['priv', 'pub'] as const) {
      for (const user of ['alice', 'carol', 'bob'] as const) {
        const allowed = canRead[scope][user];
        test(`${user} ${allowed ? 'reads' : 'cannot see'} alice's ${scope === 'priv' ? 'PRIVATE' : 'PUBLIC'} analysis`, async () => {
          const id = ids[scope];
          for (const [route, url] of READS) {
            const r = await h().request('GET', url(id, binaryIds[scope]), key(user));
            if (allowed) {
              assert.equal(r.statusCode, 200, `${route}: ${r.body}`);
              assert.equal(r.json().status, true);
            } else {
              assert.equal(r.statusCode, 404, `${route}: ${r.body}`);
              assert.deepEqual(r.json(), invisibleRead(route, id), route);
            }
          }
          if (allowed) {
            const basic = (await h().request('GET', `/v2/analyses/${id}/basic`, key(user))).json().data;
            assert.equal(basic.is_owner, user === 'alice');
            assert.equal(basic.owner_username, 'alice');
            const lookup = await h().request('GET', `/v2/analyses/lookup/${binaryIds[scope]}`, key(user));
            assert.equal(lookup.json().data.analysis_id, id);
          }
        });
      }
    }

    test('an invisible analysis answers exactly like one that does not exist', async () => {
      const ghost = 9_999_999;
      for (const [route, url] of READS) {
        const hidden = await h().request('GET', url(ids.priv, binaryIds.priv), key('bob'));
        const absent = await h().request('GET', url(ghost, ghost), key('bob'));
        assert.equal(hidden.statusCode, absent.statusCode, route);
        assert.deepEqual(hidden.json(), invisibleRead(route, ids.priv), route);
        assert.deepEqual(absent.json(), invisibleRead(route, ghost), route);
      }
    });

    for (const op of OWNER_ONLY) {
      test(`${op.name} is owner-only: carol and bob are refused and nothing changes`, async () => {
        const cases: [User, 'priv' | 'pub', number, unknown][] = [
          ['carol', 'priv', 403, FORBIDDEN],
          ['carol', 'pub', 403, FORBIDDEN],
          ['bob', 'priv', 404, op.hidden(ids.priv)],
          ['bob', 'pub', 403, FORBIDDEN],
        ];
        for (const [user, scope, status, body] of cases) {
          const id = ids[scope];
          const before = await snapshot(h(), id);
          const payload = op.name === 'bulk delete' ? { analysis_ids: [id] } : op.body;
          const r = await h().request(op.method, op.url(id), key(user), payload);
          assert.equal(r.statusCode, status, `${user} on ${scope}: ${r.body}`);
          assert.deepEqual(r.json(), body, `${user} on ${scope}`);
          assert.deepEqual(await snapshot(h(), id), before, `${user} on ${scope} changed the analysis`);
        }
        if (op.name === 'put strings') {
          // Had a refused request stored its string, the owner's own string at that vaddr would clash (409).
          for (const id of [ids.priv, ids.pub]) {
            const r = await h().request('PUT', op.url(id), key('alice'), op.body);
            assert.equal(r.statusCode, 201, r.body);
          }
        }
      });
    }

    test('the owner may do every owner-only operation', async () => {
      const alice = key('alice');
      const id = await h().analysis(alice, elf64(103));
      assert.equal(await h().waitForStatus(alice, id), 'Complete');
      const ok = async (method: string, url: string, body: unknown, status = 200) => {
        const r = await h().request(method, url, alice, body);
        assert.equal(r.statusCode, status, `${method} ${url}: ${r.body}`);
        assert.equal(r.json().status, true);
        return r.json().data;
      };
      assert.equal(
        (await ok('PATCH', `/v2/analyses/${id}`, { binary_name: 'renamed.bin' })).binary_name,
        'renamed.bin',
      );
      assert.deepEqual(await ok('PATCH', `/v2/analyses/${id}/tags`, { tags: ['mine'] }), {
        tags: [{ name: 'mine', origin: 'USER' }],
      });
      await ok('POST', `/v2/analyses/${id}/logs`, { log: 'owner note' }, 201);
      await ok('PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: 's', vaddr: 8, source: 'USER' }] }, 201);
      await ok('POST', `/v2/analyses/${id}/requeue`, {}, 201);
      assert.equal(await h().waitForStatus(alice, id), 'Complete');
      await ok('DELETE', `/v2/analyses/${id}`, undefined);
      const other = await h().analysis(alice, elf64(104));
      await ok('PATCH', '/v2/analyses/delete', { analysis_ids: [other] });
      for (const gone of [id, other]) {
        assert.equal((await h().request('GET', `/v2/analyses/${gone}/status`, alice)).statusCode, 404);
      }
    });

    test('bulk tag add reports a per-item error for analyses the caller does not own', async () => {
      const carolPriv = await h().analysis(key('carol'), elf64(105));
      const bobPriv = await h().analysis(key('bob'), elf64(106));
      const r = await h().request('PATCH', '/v2/analyses/tags/add', key('alice'), {
        analysis_ids: [ids.priv, carolPriv, bobPriv, 9_999_999],
        tags: ['bulk'],
      });
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json().data.results, [
        { analysis_id: ids.priv, message: 'Tags added', error: null },
        { analysis_id: carolPriv, message: null, error: 'You do not have permission to access this resource' },
        { analysis_id: bobPriv, message: null, error: `Analysis with ID ${bobPriv} could not be found` },
        { analysis_id: 9_999_999, message: null, error: 'Analysis with ID 9999999 could not be found' },
      ]);
      const tagsOf = async (user: User, id: number) =>
        (await h().request('GET', `/v2/analyses/${id}/tags`, key(user)))
          .json()
          .data.analysis_tags.map((t: { name: string }) => t.name);
      assert.ok((await tagsOf('alice', ids.priv)).includes('bulk'));
      assert.deepEqual(await tagsOf('carol', carolPriv), []);
      assert.deepEqual(await tagsOf('bob', bobPriv), []);

      const byBob = await h().request('PATCH', '/v2/analyses/tags/add', key('bob'), {
        analysis_ids: [ids.priv, ids.pub],
        tags: ['bob'],
      });
      assert.deepEqual(byBob.json().data.results, [
        { analysis_id: ids.priv, message: null, error: `Analysis with ID ${ids.priv} could not be found` },
        { analysis_id: ids.pub, message: null, error: 'You do not have permission to access this resource' },
      ]);
      assert.ok(!(await tagsOf('alice', ids.pub)).includes('bob'));
    });

    test('comments: whoever sees the analysis may comment; only the author may edit or delete', async () => {
      const url = `/v2/analyses/${ids.priv}/comments`;
      const byCarol = await h().request('POST', url, key('carol'), { content: "carol's note" });
      assert.equal(byCarol.statusCode, 201, byCarol.body);
      const cid = byCarol.json().data.id as number;
      const byAlice = await h().request('POST', url, key('alice'), { content: "alice's note" });
      assert.equal(byAlice.statusCode, 201);
      const aid = byAlice.json().data.id as number;

      const byBob = await h().request('POST', url, key('bob'), { content: 'bob was here' });
      assert.equal(byBob.statusCode, 404);
      assert.deepEqual(byBob.json(), missing(ids.priv));

      for (const [method, body] of [
        ['PATCH', { content: 'edited by alice' }],
        ['DELETE', undefined],
      ] as const) {
        const r = await h().request(method, `${url}/${cid}`, key('alice'), body);
        assert.equal(r.statusCode, 403, `${method}: ${r.body}`);
        assert.deepEqual(r.json(), FORBIDDEN);
        const hidden = await h().request(method, `${url}/${cid}`, key('bob'), body);
        assert.equal(hidden.statusCode, 404);
        assert.deepEqual(hidden.json(), missing(ids.priv));
        const onOther = await h().request(method, `${url}/${aid}`, key('carol'), body);
        assert.equal(onOther.statusCode, 403);
        assert.deepEqual(onOther.json(), FORBIDDEN);
      }
      const list = await h().request('GET', url, key('alice'));
      assert.deepEqual(
        list.json().data.map((c: { id: number; content: string }) => [c.id, c.content]),
        [
          [cid, "carol's note"],
          [aid, "alice's note"],
        ],
      );

      const edit = await h().request('PATCH', `${url}/${cid}`, key('carol'), { content: 'carol, edited' });
      assert.equal(edit.statusCode, 200);
      assert.equal(edit.json().data.content, 'carol, edited');
      const del = await h().request('DELETE', `${url}/${cid}`, key('carol'));
      assert.equal(del.statusCode, 200);
      assert.equal(del.json().data, true);

      const onPublic = await h().request('POST', `/v2/analyses/${ids.pub}/comments`, key('bob'), {
        content: 'public remark',
      });
      assert.equal(onPublic.statusCode, 201);
      assert.equal((await h().request('GET', `/v2/analyses/${ids.pub}/comments`, key('carol'))).json().data.length, 1);
    });

    test("an upload is not shared by its hash: bob cannot analyse alice's sample until he uploads it", async () => {
      const content = elf64(107);
      const sha = (await h().upload(key('alice'), content)).json().data.sha_256_hash as string;
      const body = { filename: 'guess.bin', sha_256_hash: sha };
      const r = await h().request('POST', '/v2/analyses', key('bob'), body);
      assert.equal(r.statusCode, 404);
      assert.deepEqual(r.json(), {
        ...RESOURCE_MISSING,
        meta: { detail: `sha_256_hash ${sha} was never uploaded by you: upload the file first (POST /v2/upload)` },
      });
      const teammate = await h().request('POST', '/v2/analyses', key('carol'), body);
      assert.equal(teammate.statusCode, 404);
      assert.equal((await h().upload(key('bob'), content)).statusCode, 200);
      assert.equal((await h().request('POST', '/v2/analyses', key('bob'), body)).statusCode, 201);
    });
  });

  describe(`authorization: list workspaces (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const a = { alicePriv: 0, alicePub: 0, carolPriv: 0, carolPub: 0, bobPriv: 0, bobPub: 0 };

    before(async () => {
      let n = 200;
      for (const user of ['alice', 'carol', 'bob'] as const) {
        a[`${user}Priv`] = await h().analysis(h().keys[user], elf64(n++));
        a[`${user}Pub`] = await h().analysis(h().keys[user], elf64(n++), { analysis_scope: 'PUBLIC' });
      }
    });

    const list = async (user: User, qs: string) => {
      const r = await h().request('GET', `/v2/analyses/list?limit=50${qs}`, h().keys[user]);
      assert.equal(r.statusCode, 200, r.body);
      return r.json().data.results as { analysis_id: number; is_owner: boolean; username: string }[];
    };
    const idsOf = (rows: { analysis_id: number }[]) => rows.map((r) => r.analysis_id).sort((x, y) => x - y);
    const sorted = (...xs: number[]) => [...xs].sort((x, y) => x - y);

    const cases: [User, string, (keyof typeof a)[]][] = [
      ['alice', '', ['alicePriv', 'alicePub']],
      ['alice', 'workspace=personal', ['alicePriv', 'alicePub']],
      ['alice', 'workspace=team', ['alicePriv', 'alicePub', 'carolPriv', 'carolPub']],
      ['alice', 'workspace=public', ['alicePub', 'carolPub', 'bobPub']],
      ['alice', 'workspace=personal&workspace=public', ['alicePriv', 'alicePub', 'carolPub', 'bobPub']],
      ['alice', 'workspace=team&workspace=public', ['alicePriv', 'alicePub', 'carolPriv', 'carolPub', 'bobPub']],
      ['carol', 'workspace=team', ['alicePriv', 'alicePub', 'carolPriv', 'carolPub']],
      ['carol', 'workspace=personal', ['carolPriv', 'carolPub']],
      ['bob', '', ['bobPriv', 'bobPub']],
      ['bob', 'workspace=team', []],
      ['bob', 'workspace=public', ['alicePub', 'carolPub', 'bobPub']],
      ['bob', 'workspace=team&workspace=public', ['alicePub', 'carolPub', 'bobPub']],
      ['bob', 'workspace=personal&workspace=team&workspace=public', ['bobPriv', 'alicePub', 'carolPub', 'bobPub']],
    ];
    for (const [user, qs, expected] of cases) {
      test(`${user} lists ${qs || 'the default workspace'}`, async () => {
        const rows = await list(user, qs ? `&${qs}` : '');
        assert.deepEqual(idsOf(rows), sorted(...expected.map((k) => a[k])));
        for (const row of rows) assert.equal(row.is_owner, row.username === user, `is_owner of ${row.analysis_id}`);
      });
    }

    test('a PRIVATE analysis made PUBLIC enters the public workspace; made PRIVATE again, it leaves', async () => {
      const pub = async () => idsOf(await list('bob', '&workspace=public'));
      assert.ok(!(await pub()).includes(a.alicePriv));
      await h().request('PATCH', `/v2/analyses/${a.alicePriv}`, h().keys.alice, { analysis_scope: 'PUBLIC' });
      assert.ok((await pub()).includes(a.alicePriv));
      assert.equal((await h().request('GET', `/v2/analyses/${a.alicePriv}/basic`, h().keys.bob)).statusCode, 200);
      await h().request('PATCH', `/v2/analyses/${a.alicePriv}`, h().keys.alice, { analysis_scope: 'PRIVATE' });
      assert.ok(!(await pub()).includes(a.alicePriv));
      assert.equal((await h().request('GET', `/v2/analyses/${a.alicePriv}/basic`, h().keys.bob)).statusCode, 404);
    });
  });
}
