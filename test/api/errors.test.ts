// One test per row of the spec's error table (plus 401 and unknown route), asserting the whole body.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { assertValidation } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';
import { elf64, elfPowerPc } from '../helpers/samples.js';

const envelope = (message: string, errors: { code: string; message: string }[]) => ({
  status: false,
  data: null,
  message,
  errors,
  meta: {},
});
const FORBIDDEN = envelope('You do not have permission to access this resource', [
  { code: '403', message: 'You do not have permission to access this resource' },
]);
const NOT_FOUND = envelope('Resource not found', [{ code: '404', message: 'Resource not found' }]);
const noModel = (why: string) => envelope(`No appropriate model could be found for this binary: ${why}`, []);

for (const backend of backends) {
  describe(`error table (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('422 on an invalid parameter', async () => {
      const r = await h().request('GET', '/v2/analyses/list?limit=4', h().keys.alice);
      assert.equal(r.statusCode, 422);
      assertValidation(r.json(), 'limit=4', 'querystring.limit');
    });

    test('404 Resource not found: create with an unknown hash', async () => {
      const r = await h().request('POST', '/v2/analyses', h().keys.alice, {
        filename: 'x',
        sha_256_hash: 'ab'.repeat(32),
      });
      assert.equal(r.statusCode, 404);
      assert.deepEqual(r.json(), {
        ...NOT_FOUND,
        meta: {
          detail: `sha_256_hash ${'ab'.repeat(32)} was never uploaded by you: upload the file first (POST /v2/upload)`,
        },
      });
    });

    test('404 Resource not found: requeue an unknown analysis', async () => {
      const r = await h().request('POST', '/v2/analyses/999999/requeue', h().keys.alice, {});
      assert.equal(r.statusCode, 404);
      assert.deepEqual(r.json(), {
        ...NOT_FOUND,
        meta: { detail: 'analysis 999999 does not exist or is not visible to you' },
      });
    });

    test('404: delete a missing analysis', async () => {
      const r = await h().request('DELETE', '/v2/analyses/999999', h().keys.alice);
      assert.equal(r.statusCode, 404);
      const msg = 'Analysis with ID 999999 could not be found';
      assert.deepEqual(r.json(), envelope(msg, [{ code: '404', message: msg }]));
    });

    test('404: bulk delete where not all exist, deleting nothing', async () => {
      const id = await h().analysis(h().keys.alice, elf64(1));
      const r = await h().request('PATCH', '/v2/analyses/delete', h().keys.alice, { analysis_ids: [id, 999999] });
      assert.equal(r.statusCode, 404);
      const msg = 'Not all analyses could be found';
      assert.deepEqual(r.json(), envelope(msg, [{ code: '404', message: msg }]));
      assert.equal((await h().request('GET', `/v2/analyses/${id}/status`, h().keys.alice)).statusCode, 200);
    });

    test('403: delete by a caller who is not the owner, changing nothing', async () => {
      const id = await h().analysis(h().keys.alice, elf64(2), { analysis_scope: 'PUBLIC' });
      const r = await h().request('DELETE', `/v2/analyses/${id}`, h().keys.bob);
      assert.equal(r.statusCode, 403);
      assert.deepEqual(r.json(), FORBIDDEN);
      assert.equal((await h().request('GET', `/v2/analyses/${id}/status`, h().keys.alice)).statusCode, 200);
    });

    test('403: bulk delete including an analysis of someone else, deleting nothing', async () => {
      const mine = await h().analysis(h().keys.bob, elf64(3));
      const theirs = await h().analysis(h().keys.alice, elf64(4), { analysis_scope: 'PUBLIC' });
      const r = await h().request('PATCH', '/v2/analyses/delete', h().keys.bob, { analysis_ids: [mine, theirs] });
      assert.equal(r.statusCode, 403);
      assert.deepEqual(r.json(), FORBIDDEN);
      assert.equal((await h().request('GET', `/v2/analyses/${mine}/status`, h().keys.bob)).statusCode, 200);
    });

    test('403: comment update and delete by someone other than the author', async () => {
      const id = await h().analysis(h().keys.alice, elf64(5), { analysis_scope: 'PUBLIC' });
      const c = await h().request('POST', `/v2/analyses/${id}/comments`, h().keys.alice, { content: 'mine' });
      const cid = c.json().data.id as number;
      const up = await h().request('PATCH', `/v2/analyses/${id}/comments/${cid}`, h().keys.bob, { content: 'x' });
      assert.equal(up.statusCode, 403);
      assert.deepEqual(up.json(), FORBIDDEN);
      const del = await h().request('DELETE', `/v2/analyses/${id}/comments/${cid}`, h().keys.bob);
      assert.equal(del.statusCode, 403);
      assert.deepEqual(del.json(), FORBIDDEN);
      const list = await h().request('GET', `/v2/analyses/${id}/comments`, h().keys.alice);
      assert.deepEqual(
        list.json().data.map((x: { content: string }) => x.content),
        ['mine'],
      );
    });

    test('400 with empty errors: create when no model fits the binary', async () => {
      const up = await h().upload(h().keys.alice, elfPowerPc());
      const sha = up.json().data.sha_256_hash;
      const r = await h().request('POST', '/v2/analyses', h().keys.alice, { filename: 'm', sha_256_hash: sha });
      assert.equal(r.statusCode, 400);
      assert.deepEqual(
        r.json(),
        noModel(
          'it is ELF ppc for linux, which no model analyses; the models (GET /v2/models) cover ' +
            'x86-64-windows, x86-64-linux, x86-32-windows, x86-32-linux, arm-64-windows, arm-64-linux, ' +
            'x86-64-android, x86-32-android, arm-64-android, arm-32-linux, arm-32-android, mips-32-linux, ' +
            'x86-64-macos, arm-64-macos',
        ),
      );
    });

    test('409: vulnerabilities asked for while the vulnerability database is empty say so', async () => {
      const id = await h().analysis(h().keys.alice, elf64(7), { analysis_config: { generate_cves: true } });
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      const r = await h().request('GET', `/v2/analyses/${id}/vulnerabilities`, h().keys.alice);
      assert.equal(r.statusCode, 409);
      const message =
        'The vulnerability database is empty, so nothing can be checked: an administrator loads OSV records ' +
        'with `binlens vulns import <dir>`';
      assert.deepEqual(r.json(), envelope(message, [{ code: '409', message }]));
    });

    test('400 with empty errors: requeue with a model that does not exist', async () => {
      const id = await h().analysis(h().keys.alice, elf64(6));
      const r = await h().request('POST', `/v2/analyses/${id}/requeue`, h().keys.alice, {
        model_name: 'no-such-model',
      });
      assert.equal(r.statusCode, 400);
      assert.deepEqual(r.json(), noModel('no-such-model is not a model; GET /v2/models lists them'));
    });

    test('400 with empty errors: comment create, update and delete failures', async () => {
      const id = await h().analysis(h().keys.alice, elf64(7));
      const create = await h().request('POST', `/v2/analyses/${id}/comments`, h().keys.alice, { content: '   ' });
      assert.equal(create.statusCode, 400);
      assert.deepEqual(create.json(), envelope('Failed to create comment', []));
      const update = await h().request('PATCH', `/v2/analyses/${id}/comments/424242`, h().keys.alice, { content: 'x' });
      assert.equal(update.statusCode, 400);
      assert.deepEqual(update.json(), envelope('Failed to update comment', []));
      const del = await h().request('DELETE', `/v2/analyses/${id}/comments/424242`, h().keys.alice);
      assert.equal(del.statusCode, 400);
      assert.deepEqual(del.json(), envelope('Failed to delete comment', []));
    });

    test('401 in the envelope: missing and unknown API key, each saying where the key goes', async () => {
      const where = ': send your API key in the Authorization header (binlens users create makes one)';
      for (const [key, why] of [
        [null, 'Missing API key'],
        ['not-a-key', 'Unknown or revoked API key'],
      ] as const) {
        const r = await h().request('GET', '/v2/users/me', key);
        assert.equal(r.statusCode, 401);
        assert.deepEqual(r.json(), envelope(why + where, [{ code: '401', message: why + where }]));
      }
    });

    test('404 in the envelope: unknown route', async () => {
      const r = await h().request('GET', '/v2/no/such/route', h().keys.alice);
      assert.equal(r.statusCode, 404);
      const msg = 'Route GET /v2/no/such/route not found';
      assert.deepEqual(r.json(), envelope(msg, [{ code: '404', message: msg }]));
    });
  });
}
