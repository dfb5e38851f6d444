// One conformance suite, run against every database driver: migrations, repositories and the job queue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { newAnalysis as createAnalysis, migratedStore } from '../helpers/store-fixtures.js';

for (const backend of backends) {
  describe(`store conformance (${backend.name})`, { skip: backend.skip ?? false }, () => {
    let db: TestDatabase;
    let store: Store;
    let alice: number;

    before(async () => {
      db = await backend.create();
      store = await migratedStore(db);
      alice = (
        await store.users.create({
          username: 'alice',
          email: 'a@x.io',
          role: 'USER',
          teamName: 'red',
          apiKeyHash: 'h1',
        })
      ).id;
    });
    after(async () => {
      await store.driver.close();
      await db.drop();
    });

    const newAnalysis = (name?: string, scope?: string) => createAnalysis(store, alice, name, scope);

    test('migrations are idempotent and safe to run concurrently', async () => {
      const others = [openDatabase(db.url), openDatabase(db.url)];
      await Promise.all(others.map((d) => d.migrate()));
      await Promise.all(others.map((d) => d.close()));
    });

    test('users: teams are created once and shared', async () => {
      const carol = await store.users.create({
        username: 'carol',
        email: 'c@x.io',
        role: 'USER',
        teamName: 'red',
        apiKeyHash: 'h2',
      });
      const a = await store.users.byId(alice);
      assert.equal(carol.team_id, a?.team_id);
      assert.equal((await store.users.byKeyHash('h2'))?.username, 'carol');
      await assert.rejects(
        store.users.create({ username: 'carol', email: 'c', role: 'USER', teamName: null, apiKeyHash: 'h3' }),
      );
    });

    test('samples: recording the same upload twice keeps one sample', async () => {
      const sha = 'f'.repeat(64);
      for (let i = 0; i < 2; i++) {
        await store.samples.recordUpload(
          { sha256: sha, size: 1, identity: '{}' },
          { user_id: alice, file_type: 'BINARY', filename: `n${i}` },
        );
      }
      assert.equal(await store.samples.uploadedBy(alice, sha), true);
      assert.equal(await store.samples.uploadedBy(alice + 1000, sha), false);
    });

    test('analyses: create queues a job atomically, with tags and a QUEUED stage', async () => {
      const { analysisId } = await newAnalysis();
      const a = await store.analyses.get(analysisId);
      assert.equal(a?.status, 'Queued');
      assert.deepEqual(
        (await store.analyses.tags([analysisId])).map((t) => t.name),
        ['t'],
      );
      assert.deepEqual(
        (await store.events.stages(analysisId)).map((s) => s.status),
        ['QUEUED'],
      );
    });

    test('analyses: search treats % and _ literally', async () => {
      await newAnalysis('100%_done.exe');
      await newAnalysis('100xydone.exe');
      const list = await store.analyses.list(
        { id: alice, teamId: null },
        {
          workspaces: ['personal'],
          statuses: null,
          modelNames: null,
          dynamicExecutionStatus: null,
          usernames: null,
          sha256: null,
          searchTerm: '%_DONE',
          orderBy: 'name',
          order: 'ASC',
          limit: 50,
          offset: 0,
        },
      );
      assert.deepEqual(
        list.map((a) => a.binary_name),
        ['100%_done.exe'],
      );
    });

    test('analyses: deleteMany is all or nothing', async () => {
      const { analysisId } = await newAnalysis();
      assert.equal(await store.analyses.deleteMany([analysisId, 987654]), false);
      assert.ok(await store.analyses.get(analysisId));
      assert.equal(await store.analyses.deleteMany([analysisId]), true);
      assert.equal(await store.analyses.get(analysisId), undefined);
    });

    test('strings: a batch touching an existing vaddr adds nothing', async () => {
      const { analysisId } = await newAnalysis();
      assert.equal(await store.events.addStrings(analysisId, [{ vaddr: 16, value: 'a', source: 'USER' }]), null);
      assert.equal(
        await store.events.addStrings(analysisId, [
          { vaddr: 32, value: 'b', source: 'USER' },
          { vaddr: 16, value: 'c', source: 'USER' },
        ]),
        16,
      );
      assert.equal(await store.events.addStrings(analysisId, [{ vaddr: 32, value: 'b', source: 'USER' }]), null);
    });

    test('queue: each job is claimed by exactly one of many concurrent claimers', async () => {
      // Drain what earlier tests queued.
      while (await store.jobs.claim('drain', 60_000)) {
        /* empty */
      }
      const ids = await Promise.all(
        Array.from({ length: 20 }, () =>
          store.jobs.enqueue({ kind: 'k', analysisId: null, payload: null, maxAttempts: 1 }),
        ),
      );
      const claimers = Array.from({ length: 8 }, (_, i) => `w${i}`);
      const claimed: number[] = [];
      await Promise.all(
        claimers.map(async (owner) => {
          for (let job = await store.jobs.claim(owner, 60_000); job; job = await store.jobs.claim(owner, 60_000)) {
            claimed.push(job.id);
          }
        }),
      );
      assert.deepEqual(
        [...claimed].sort((a, b) => a - b),
        ids.sort((a, b) => a - b),
      );
    });

    test('queue: an expired lease is taken over; the old owner can no longer finish it', async () => {
      const id = await store.jobs.enqueue({ kind: 'k', analysisId: null, payload: null, maxAttempts: 3 });
      const first = await store.jobs.claim('dead', 50);
      assert.equal(first?.id, id);
      assert.equal(await store.jobs.claim('other', 50), undefined);
      await new Promise((r) => setTimeout(r, 80));
      const second = await store.jobs.claim('alive', 60_000);
      assert.equal(second?.id, id);
      assert.equal(second?.attempts, 2);
      assert.equal(await store.jobs.heartbeat(id, 'dead', 1000), false);
      assert.equal(await store.jobs.finish(id, 'dead', 'done'), false);
      assert.equal(await store.jobs.heartbeat(id, 'alive', 60_000), true);
      assert.equal(await store.jobs.finish(id, 'alive', 'done'), true);
      assert.equal((await store.jobs.get(id))?.state, 'done');
    });

    test('queue: retryLater delays the job; priority orders claims', async () => {
      const low = await store.jobs.enqueue({ kind: 'k', analysisId: null, payload: null, maxAttempts: 3 });
      const high = await store.jobs.enqueue({
        kind: 'k',
        analysisId: null,
        payload: null,
        priority: 5,
        maxAttempts: 3,
      });
      assert.equal((await store.jobs.claim('w', 60_000))?.id, high);
      const j = await store.jobs.claim('w', 60_000);
      assert.equal(j?.id, low);
      assert.equal(await store.jobs.retryLater(low, 'w', 200, 'transient'), true);
      assert.equal(await store.jobs.claim('w', 60_000), undefined);
      await new Promise((r) => setTimeout(r, 250));
      assert.equal((await store.jobs.claim('w', 60_000))?.id, low);
    });
  });
}
