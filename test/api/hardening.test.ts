// Defects an adversarial run found in what users already rely on, each reproduced through the API on both
// databases: shared samples lost to refused uploads, unbounded request lists and texts, lax ids, readiness.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { backends } from '../helpers/backends.js';
import { errorEnvelope, assertValidation } from '../helpers/envelopes.js';
import { useHarness } from '../helpers/harness.js';
import { openRuntime } from '../../src/main/index.js';
import { multipartBody } from '../helpers/multipart.js';
import { elf64 } from '../helpers/samples.js';

const tagNames = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`);

for (const backend of backends) {
  describe(`hardening (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const blobPath = (sha: string) => join(h().config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);

    test('a refused upload never deletes the sample another user uploads at the same moment', async () => {
      const refusedForm = (bytes: Buffer) =>
        multipartBody([
          { name: 'upload_file_type', value: 'NOPE' },
          { name: 'file', value: bytes, filename: 'same.bin' },
        ]);
      const lost: number[] = [];
      let lastSha = '';
      for (let round = 0; round < 12; round++) {
        const bytes = Buffer.concat([elf64(round), randomBytes(3 * 2 ** 20)]);
        const bad = refusedForm(bytes);
        const [good, refused] = await Promise.all([
          h().upload(h().keys.alice, bytes),
          h().app.inject({
            method: 'POST',
            url: '/v2/upload',
            headers: { authorization: h().keys.bob, 'content-type': bad.contentType },
            payload: bad.payload,
          }),
        ]);
        assert.equal(good.statusCode, 200, good.body);
        assert.equal(refused.statusCode, 422);
        lastSha = good.json().data.sha_256_hash as string;
        if (!existsSync(blobPath(lastSha))) lost.push(round);
      }
      assert.deepEqual(lost, [], 'rounds whose accepted sample was deleted');
      const created = await h().request('POST', '/v2/analyses', h().keys.alice, {
        filename: 'same.bin',
        sha_256_hash: lastSha,
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(await h().waitForStatus(h().keys.alice, created.json().data.analysis_id as number), 'Complete');
    });
    test('every request list is bounded: one item over the bound is a 422, the bound itself works, alike on both databases', async () => {
      const { alice } = h().keys;
      const id = await h().analysis(alice, elf64(1000));
      const ids = (n: number) => Array.from({ length: n }, (_, i) => id + i * 0);
      const cases: [string, string, (n: number) => unknown, number][] = [
        ['PATCH', '/v2/analyses/delete', (n) => ({ analysis_ids: ids(n) }), 1000],
        ['PATCH', '/v2/analyses/tags/add', (n) => ({ analysis_ids: [id], tags: tagNames(n) }), 100],
        ['PATCH', `/v2/analyses/${id}/tags`, (n) => ({ tags: tagNames(n) }), 100],
        [
          'PUT',
          `/v2/analyses/${id}/strings`,
          (n) => ({
            strings: Array.from({ length: n }, (_, i) => ({ value: `s${i}`, vaddr: 1_000_000 + i, source: 'USER' })),
          }),
          10_000,
        ],
      ];
      for (const [method, url, body, bound] of cases) {
        const over = await h().request(method, url, alice, body(bound + 1));
        assert.equal(over.statusCode, 422, `${method} ${url} with ${bound + 1}`);
        assertValidation(over.json());
      }
      for (const [method, url, body, bound] of cases.slice(1)) {
        const at = await h().request(method, url, alice, body(bound));
        assert.ok(at.statusCode < 300, `${method} ${url} with ${bound}: ${at.statusCode} ${at.body.slice(0, 200)}`);
      }
    });

    test('every free text is bounded: names, tags, comments and log lines over their bound are a 422', async () => {
      const { alice } = h().keys;
      const id = await h().analysis(alice, elf64(1001));
      const long = (n: number) => 'x'.repeat(n);
      const cases: [string, string, unknown][] = [
        ['PATCH', `/v2/analyses/${id}`, { binary_name: long(15 * 2 ** 20) }],
        ['PATCH', `/v2/analyses/${id}`, { binary_name: long(1025) }],
        ['PATCH', `/v2/analyses/${id}/tags`, { tags: [long(1025)] }],
        ['POST', `/v2/analyses/${id}/comments`, { content: long(65_537) }],
        ['POST', `/v2/analyses/${id}/logs`, { log: long(16_385) }],
        ['GET', `/v2/analyses/list?search_term=${long(1025)}`, undefined],
      ];
      for (const [method, url, body] of cases) {
        const r = await h().request(method, url, alice, body);
        assert.equal(r.statusCode, 422, `${method} ${url.slice(0, 60)}`);
      }
      const name = await h().request('PATCH', `/v2/analyses/${id}`, alice, { binary_name: long(1024) });
      assert.equal(name.statusCode, 200);
      const form = multipartBody([
        { name: 'upload_file_type', value: 'BINARY' },
        { name: 'file', value: elf64(1002), filename: long(1025) },
      ]);
      const up = await h().app.inject({
        method: 'POST',
        url: '/v2/upload',
        headers: { authorization: alice, 'content-type': form.contentType },
        payload: form.payload,
      });
      assert.equal(up.statusCode, 422);
    });

    test('ids are decimal digits only', async () => {
      const { alice } = h().keys;
      const id = await h().analysis(alice, elf64(1003));
      assert.equal((await h().request('GET', `/v2/analyses/${id}/status`, alice)).statusCode, 200);
      for (const spelling of [`0x${id.toString(16)}`, `${id}e0`, `+${id}`, `${id}.0`, ` ${id}`, `0b1`])
        assert.equal(
          (await h().request('GET', `/v2/analyses/${encodeURIComponent(spelling)}/status`, alice)).statusCode,
          422,
          spelling,
        );
      assert.equal((await h().request('GET', `/v2/analyses/list?limit=1e1`, alice)).statusCode, 422);
    });

    test('requeue priority: users may only lower their own job, administrators may raise it to 100', async () => {
      const { alice, admin } = h().keys;
      const mine = await h().analysis(alice, elf64(1004));
      const admins = await h().analysis(admin, elf64(1005));
      await h().waitForStatus(alice, mine);
      await h().waitForStatus(admin, admins);
      const rt = await openRuntime(h().config);
      const priorityOf = async (analysisId: number) =>
        (
          await rt.store.driver.db
            .selectFrom('jobs')
            .select('priority')
            .where('analysis_id', '=', analysisId)
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow()
        ).priority;
      try {
        for (const [key, id, asked, got] of [
          [alice, mine, 1000, 0],
          [alice, mine, -5, -5],
          [admin, admins, 50, 50],
          [admin, admins, 1000, 100],
        ] as const) {
          const r = await h().request('POST', `/v2/analyses/${id}/requeue`, key, { priority: asked });
          assert.equal(r.statusCode, 201, r.body);
          assert.equal(await priorityOf(id), got, `asked ${asked}`);
          await h().waitForStatus(key, id);
        }
      } finally {
        await rt.close();
      }
    });

    test('a write that waits past the database’s lock timeout answers 503 with Retry-After, not 500', async () => {
      const { alice } = h().keys;
      const id = await h().analysis(alice, elf64(1006));
      await h().waitForStatus(alice, id);
      const rename = () => h().request('PATCH', `/v2/analyses/${id}`, alice, { binary_name: 'renamed' });
      let r;
      if (backend.name === 'sqlite') {
        const other = new BetterSqlite3(h().config.databaseUrl);
        other.exec('BEGIN IMMEDIATE'); // another process holding the write lock
        try {
          r = await rename();
        } finally {
          other.exec('ROLLBACK');
          other.close();
        }
      } else {
        const other = new pg.Client({ connectionString: h().db.url });
        await other.connect();
        await other.query('BEGIN');
        await other.query('SELECT id FROM analyses WHERE id = $1 FOR UPDATE', [id]);
        try {
          r = await rename();
        } finally {
          await other.query('ROLLBACK');
          await other.end();
        }
      }
      assert.equal(r.statusCode, 503, r.body);
      assert.equal(r.headers['retry-after'], '1');
      assert.deepEqual(r.json(), errorEnvelope('The database is busy: retry the request in a moment', '503'));
      assert.equal((await rename()).statusCode, 200, 'the same request succeeds once the lock is gone');
    });

    test('a JSON body over 16 MiB is a 413 that names the JSON limit, not the file-upload limit', async () => {
      const r = await h().request('POST', '/v2/analyses', h().keys.alice, {
        filename: 'x'.repeat(17 * 2 ** 20),
        sha_256_hash: '0'.repeat(64),
      });
      assert.equal(r.statusCode, 413);
      const message =
        'Request body exceeds 16777216 bytes, the limit for JSON requests; files go through POST /v2/upload';
      assert.deepEqual(r.json(), errorEnvelope(message, '413'));
    });
  });

  describe(`readiness (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('/readyz is 200 while database and blob store work, 503 naming the blob store once it cannot write', async () => {
      const ready = await h().request('GET', '/readyz', null);
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { status: 'ready', checks: { database: 'ok', blobs: 'ok' } });
      const tmp = join(h().config.dataDir, 'blobs', 'tmp');
      rmSync(tmp, { recursive: true, force: true });
      writeFileSync(tmp, 'not a folder');
      const broken = await h().request('GET', '/readyz', null);
      assert.equal(broken.statusCode, 503);
      assert.equal(broken.json().status, 'unavailable');
      assert.match(broken.json().checks.blobs, /^error: /);
      assert.equal(broken.json().checks.database, 'ok');
      assert.equal((await h().request('GET', '/healthz', null)).statusCode, 200, 'liveness is not readiness');
      rmSync(tmp);
    });

    test('/readyz is 503 naming the database once it is gone (PostgreSQL: dropped under the server)', async (t) => {
      if (backend.name !== 'postgres') return t.skip('an open SQLite file cannot be taken away from its process');
      const admin = new pg.Client({ connectionString: new URL('/postgres', h().db.url).toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE ${new URL(h().db.url).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
      const r = await h().request('GET', '/readyz', null);
      assert.equal(r.statusCode, 503);
      assert.match(r.json().checks.database, /^error: /);
      assert.equal((await h().request('GET', '/healthz', null)).statusCode, 200);
    });
  });
}
