// Defects an adversarial run found in what users already rely on, each reproduced through the API on both
// databases: shared samples lost to refused uploads, unbounded request lists and texts, lax ids, readiness.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';
import { elf64 } from '../helpers/samples.js';

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
