// Another process (a `binlens worker`, the CLI) holding SQLite's write lock: better-sqlite3 waits for it in
// SQLite's busy handler, synchronously, on the server's event loop. A short hold is waited out; a long one
// ends the wait after the busy timeout with SQLITE_BUSY instead of freezing the server for all of it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { migratedStore } from '../helpers/store-fixtures.js';

// A second connection in a thread of its own, as another process would be: it takes the write lock, says
// so, holds it `holdMs` and lets go.
const HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('locked');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
db.exec('COMMIT');
db.close();
`;

/** Resolves once another connection holds the write lock; `released` settles when it has let go. */
async function holdWriteLock(file: string, holdMs: number) {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(HOLDER, { eval: true, workerData: { module, file, holdMs } });
  const released = new Promise((resolve, reject) => {
    worker.once('exit', resolve);
    worker.once('error', reject);
  });
  await new Promise((resolve) => worker.once('message', resolve));
  return { released };
}

const sqlite = backends.find((b) => b.name === 'sqlite')!;

describe('sqlite busy handling', () => {
  let db: TestDatabase;
  let store: Store;

  before(async () => {
    db = await sqlite.create();
    store = await migratedStore(db);
  });
  after(async () => {
    await store.driver.close();
    await db.drop();
  });

  const write = () => store.jobs.enqueue({ kind: 'k', analysisId: null, payload: null, maxAttempts: 1 });
  const timed = async <T>(work: () => Promise<T>) => {
    const start = performance.now();
    const outcome = await work().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { ...outcome, ms: performance.now() - start };
  };

  test('a write waits out a short hold of the write lock by another connection', async () => {
    const { released } = await holdWriteLock(db.url, 100);
    const r = await timed(write);
    await released;
    assert.ok('value' in r, `the write failed: ${String('error' in r && r.error)}`);
  });

  test('a long hold fails a write within the busy timeout; reads go on meanwhile', async () => {
    const id = await write();
    const { released } = await holdWriteLock(db.url, 3_000);
    const read = await timed(() => store.jobs.get(id));
    assert.ok(read.ms < 100, `a read took ${read.ms.toFixed(0)} ms`);
    const r = await timed(write);
    await released;
    assert.ok('error' in r, `the write waited ${r.ms.toFixed(0)} ms for the lock and succeeded`);
    assert.equal((r.error as { code?: string }).code, 'SQLITE_BUSY');
    // The busy timeout (500 ms) plus slack for the loaded 2-core machine; the server froze meanwhile.
    assert.ok(r.ms < 1_500, `the server froze ${r.ms.toFixed(0)} ms`);
    assert.ok('value' in (await timed(write)), 'writes work again once the lock is free');
  });
});
