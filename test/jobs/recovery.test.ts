// Durable jobs across restarts: a queued job and an in-flight job (its worker died) both complete after
// the service comes back; transient failures retry, permanent ones end in Error with a log line.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { createStore, openDatabase } from '../../src/store/index.js';
import { backends } from '../helpers/backends.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

const LEASE_MS = 300;

async function restart(h: Harness, workers: number): Promise<Harness> {
  await h.service.close();
  return createHarness(h.db, { workers, jobLeaseMs: LEASE_MS, reuseUsers: true });
}

const logsOf = async (h: Harness, id: number) =>
  (await h.request('GET', `/v2/analyses/${id}/logs`, h.keys.alice)).json().data.logs as string;

for (const backend of backends) {
  describe(`job recovery (${backend.name})`, { skip: backend.skip ?? false }, () => {
    test('a job queued before a restart runs after it', async () => {
      let h = await createHarness(await backend.create(), { workers: 0, jobLeaseMs: LEASE_MS });
      try {
        const id = await h.analysis(h.keys.alice, elf64(11));
        assert.equal(await h.waitForStatus(h.keys.alice, id, ['Queued']), 'Queued');
        h = await restart(h, 1);
        assert.equal(await h.waitForStatus(h.keys.alice, id), 'Complete');
      } finally {
        await h.service.close();
        await h.db.drop();
      }
    });

    test('a job in flight when its worker died is taken over once its lease expires', async () => {
      let h = await createHarness(await backend.create(), { workers: 0, jobLeaseMs: LEASE_MS });
      try {
        const id = await h.analysis(h.keys.alice, elf64(12));
        // The state a crash leaves: the job leased to a worker that will never renew or finish it.
        const driver = openDatabase(h.config.databaseUrl);
        const store = createStore(driver);
        const job = await store.jobs.claim('worker-that-crashed', LEASE_MS);
        assert.equal(job?.analysis_id, id);
        await store.analyses.setStatus(id, 'Processing');
        await driver.close();

        h = await restart(h, 1);
        assert.equal(await h.waitForStatus(h.keys.alice, id), 'Complete');
        assert.match(await logsOf(h, id), /Analysis started \(attempt 2 of 6\)/);
      } finally {
        await h.service.close();
        await h.db.drop();
      }
    });

    test('a transient failure is retried up to max_retry_attempts, then ends in Error', async () => {
      const h = await createHarness(await backend.create(), { workers: 1, jobLeaseMs: LEASE_MS });
      try {
        const up = await h.upload(h.keys.alice, elf64(13));
        const sha = up.json().data.sha_256_hash as string;
        // A directory where the sample should be: the store says it exists, reading it fails (EISDIR).
        const blob = `${h.config.dataDir}/blobs/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;
        rmSync(blob);
        await mkdir(blob);
        const res = await h.request('POST', '/v2/analyses?max_retry_attempts=1', h.keys.alice, {
          filename: 'x',
          sha_256_hash: sha,
        });
        const id = res.json().data.analysis_id as number;
        assert.equal(await h.waitForStatus(h.keys.alice, id, ['Error']), 'Error');
        const logs = await logsOf(h, id);
        assert.match(logs, /Attempt 1 failed: .*EISDIR.*retrying in 1 s/);
        assert.match(logs, /Analysis started \(attempt 2 of 2\)/);
        assert.match(logs, /Error: .*EISDIR/);
        const stages = (await h.request('GET', `/v2/analysis-stages/${id}`, h.keys.alice)).json().data.events;
        assert.deepEqual(stages.at(-1).status, 'ERROR');
      } finally {
        await h.service.close();
        await h.db.drop();
      }
    });

    test('a missing sample is a permanent failure: Error at once, with a log line', async () => {
      const h = await createHarness(await backend.create(), { workers: 0, jobLeaseMs: LEASE_MS });
      let h2: Harness | undefined;
      try {
        const id = await h.analysis(h.keys.alice, elf64(14));
        const sha = (await h.request('GET', `/v2/analyses/${id}/basic`, h.keys.alice)).json().data
          .sha_256_hash as string;
        await rm(`${h.config.dataDir}/blobs/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`);
        h2 = await restart(h, 1);
        assert.equal(await h2.waitForStatus(h2.keys.alice, id), 'Error');
        const logs = await logsOf(h2, id);
        assert.match(logs, new RegExp(`Error: sample ${sha} is missing from the blob store`));
        assert.doesNotMatch(logs, /attempt 2/);
      } finally {
        await (h2 ?? h).service.close();
        await h.db.drop();
      }
    });
  });
}
