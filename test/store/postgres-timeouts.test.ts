// PostgreSQL session limits: every pooled connection has a statement, lock and idle-in-transaction timeout,
// so a request blocked behind another session's lock fails after the lock timeout instead of hanging;
// migrations lift them, since waiting for another process's migration may take longer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { MIGRATION_LOCK, SESSION_LIMITS } from '../../src/store/postgres/driver.js';
import { openDatabase, type Store } from '../../src/store/index.js';
import { backends, type TestDatabase } from '../helpers/backends.js';
import { migratedStore } from '../helpers/store-fixtures.js';

const postgres = backends.find((b) => b.name === 'postgres')!;

/**
 * A session of its own (without the limits) that runs `statements` in a transaction and holds it until the
 * returned function is called, or `holdMs` at most; then it commits.
 */
async function holdInTransaction(url: string, statements: string[], holdMs: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  for (const s of statements) await client.query(s);
  let ended: Promise<void> | undefined;
  const end = () => (ended ??= client.query('COMMIT').then(() => client.end()));
  const timer = setTimeout(end, holdMs);
  return () => {
    clearTimeout(timer);
    return end();
  };
}

const timed = async <T>(work: () => Promise<T>) => {
  const start = performance.now();
  const outcome = await work().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { ...outcome, ms: performance.now() - start };
};

describe('postgres session limits', { skip: postgres.skip ?? false }, () => {
  let db: TestDatabase;
  let store: Store;

  before(async () => {
    db = await postgres.create();
    store = await migratedStore(db);
  });
  after(async () => {
    await store.driver.close();
    await db.drop();
  });

  test('pooled connections start with the statement, lock and idle-in-transaction timeouts', async () => {
    const show = async (name: string) =>
      (await sql<Record<string, string>>`show ${sql.raw(name)}`.execute(store.driver.db)).rows[0]![name];
    assert.deepEqual(
      [await show('statement_timeout'), await show('lock_timeout'), await show('idle_in_transaction_session_timeout')],
      ['30s', '5s', '1min'],
    );
  });

  test('a write blocked by a row lock fails after the lock timeout instead of hanging', async () => {
    const id = await store.jobs.enqueue({ kind: 'k', analysisId: null, payload: null, maxAttempts: 1 });
    assert.equal((await store.jobs.claim('w', 60_000))?.id, id);
    const lockMs = SESSION_LIMITS.lock_timeout;
    const release = await holdInTransaction(db.url, [`SELECT id FROM jobs WHERE id = ${id} FOR UPDATE`], 3 * lockMs);
    const r = await timed(() => store.jobs.heartbeat(id, 'w', 60_000));
    await release();
    assert.ok('error' in r, `the update waited ${r.ms.toFixed(0)} ms for the row and went through`);
    assert.equal((r.error as { code?: string }).code, '55P03', 'lock_not_available');
    assert.ok(r.ms >= lockMs - 100 && r.ms < 2 * lockMs, `failed after ${r.ms.toFixed(0)} ms`);
  });

  test('migrating waits for another migration longer than the lock timeout', async () => {
    const holdMs = SESSION_LIMITS.lock_timeout + 1_000;
    const release = await holdInTransaction(db.url, [`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`], holdMs);
    const other = openDatabase(db.url);
    const r = await timed(() => other.migrate());
    await other.close();
    await release();
    assert.ok('value' in r, `migrate failed after ${r.ms.toFixed(0)} ms: ${String('error' in r && r.error)}`);
    assert.ok(r.ms >= holdMs - 500, `migrate waited ${r.ms.toFixed(0)} ms`);
  });
});
