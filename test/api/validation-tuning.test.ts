// The six tuning query parameters are accepted wherever the spec lists them, and a caller cannot use them to
// redirect the server's storage or network access: hostile values change nothing observable.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';
import { elf64 } from '../helpers/samples.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const blobPath = (h: Harness, sha: string) => join(h.config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);

const TUNING =
  'endpoint_url=http%3A%2F%2Fexample.com%2F&local_cache_dir=%2Ftmp%2Fbinlens-cache&local_cache_max_size_mb=64' +
  '&customer_samples_bucket=customers&firmware_samples_bucket=firmware&max_retry_attempts=3';

for (const backend of backends) {
  describe(`tuning query parameters (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let id: number;
    before(async () => {
      id = await h().analysis(h().keys.alice, elf64(10));
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
    });

    test('accepted on every operation that lists them', async () => {
      const alice = h().keys.alice;
      const spare = await h().analysis(alice, elf64(11));
      const spare2 = await h().analysis(alice, elf64(12));
      const sha = sha256(elf64(10));
      const calls: [string, string, number, unknown?][] = [
        ['POST', '/v2/analyses', 201, { filename: 'again.bin', sha_256_hash: sha }],
        ['GET', `/v2/analyses/${id}/logs`, 200],
        ['POST', `/v2/analyses/${id}/logs`, 201, { log: 'tuned' }],
        ['GET', `/v2/analyses/${id}/params`, 200],
        ['PATCH', `/v2/analyses/${id}`, 200, { binary_name: 'tuned.bin' }],
        ['PATCH', `/v2/analyses/${id}/tags`, 200, { tags: ['tuned'] }],
        ['PATCH', '/v2/analyses/tags/add', 200, { analysis_ids: [id], tags: ['more'] }],
        ['GET', `/v2/analyses/${id}/comments`, 200],
        ['POST', `/v2/analyses/${id}/comments`, 201, { content: 'tuned comment' }],
        ['DELETE', `/v2/analyses/${spare}`, 200],
        ['PATCH', '/v2/analyses/delete', 200, { analysis_ids: [spare2] }],
      ];
      for (const [method, url, status, body] of calls) {
        const sep = url.includes('?') ? '&' : '?';
        const r = await h().request(method, `${url}${sep}${TUNING}`, alice, body);
        assert.equal(r.statusCode, status, `${method} ${url} → ${r.body}`);
        assert.equal(r.json().status, true);
      }
      const comments = (await h().request('GET', `/v2/analyses/${id}/comments`, alice)).json().data;
      const cid = comments[0].id as number;
      const patch = await h().request('PATCH', `/v2/analyses/${id}/comments/${cid}?${TUNING}`, alice, { content: 'e' });
      assert.equal(patch.statusCode, 200);
      const del = await h().request('DELETE', `/v2/analyses/${id}/comments/${cid}?${TUNING}`, alice);
      assert.equal(del.statusCode, 200);
      const requeue = await h().request('POST', `/v2/analyses/${id}/requeue?${TUNING}`, alice, {});
      assert.equal(requeue.statusCode, 201);
      assert.equal(await h().waitForStatus(alice, id), 'Complete');
    });

    test('hostile values redirect nothing: the analysis completes and the sample stays in the data dir', async (t) => {
      const alice = h().keys.alice;
      const trap = mkdtempSync(join(tmpdir(), 'binlens-trap-'));
      t.after(() => rmSync(trap, { recursive: true, force: true }));
      const hostile = [
        `local_cache_dir=${encodeURIComponent(trap)}&endpoint_url=${encodeURIComponent('http://169.254.169.254/')}`,
        `local_cache_dir=%2Fetc&endpoint_url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
      ];
      for (const [i, qs] of hostile.entries()) {
        const content = elf64(20 + i);
        const sha = sha256(content);
        const mp = multipartBody([
          { name: 'upload_file_type', value: 'BINARY' },
          { name: 'file', value: content, filename: 'hostile.bin' },
        ]);
        const up = await h().app.inject({
          method: 'POST',
          url: `/v2/upload?${qs}&customer_samples_bucket=..%2F..%2Fetc`,
          headers: { authorization: alice, 'content-type': mp.contentType },
          payload: mp.payload,
        });
        assert.equal(up.statusCode, 200, up.body);
        const created = await h().request('POST', `/v2/analyses?${qs}&firmware_samples_bucket=x`, alice, {
          filename: 'hostile.bin',
          sha_256_hash: sha,
        });
        assert.equal(created.statusCode, 201, created.body);
        const aid = created.json().data.analysis_id as number;
        assert.equal(await h().waitForStatus(alice, aid), 'Complete');
        const params = (await h().request('GET', `/v2/analyses/${aid}/params?${qs}`, alice)).json().data;
        assert.equal(params.binary_format, 'elf');
        assert.equal(params.architecture, 'x86_64');
        assert.ok(existsSync(blobPath(h(), sha)), 'sample stored under <dataDir>/blobs');
        const requeue = await h().request('POST', `/v2/analyses/${aid}/requeue?${qs}`, alice, {});
        assert.equal(requeue.statusCode, 201);
        assert.equal(await h().waitForStatus(alice, aid), 'Complete');
      }
      assert.deepEqual(readdirSync(trap), [], 'nothing written to the caller-named cache dir');
      assert.equal(existsSync('/etc/blobs'), false);
    });

    test('create and requeue accept the X-Service-Application header', async () => {
      const alice = h().keys.alice;
      const sha = sha256(elf64(10));
      const headers = { authorization: alice, 'x-service-application': 'binlens-tests/1.0' };
      const created = await h().app.inject({
        method: 'POST',
        url: '/v2/analyses',
        headers,
        payload: { filename: 'header.bin', sha_256_hash: sha },
      });
      assert.equal(created.statusCode, 201, created.body);
      const aid = created.json().data.analysis_id as number;
      assert.equal(await h().waitForStatus(alice, aid), 'Complete');
      const requeued = await h().app.inject({
        method: 'POST',
        url: `/v2/analyses/${aid}/requeue`,
        headers,
        payload: {},
      });
      assert.equal(requeued.statusCode, 201, requeued.body);
      assert.equal(await h().waitForStatus(alice, aid), 'Complete');
    });
  });
}
