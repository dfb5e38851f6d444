import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseDriver } from '../driver.js';
import { loadMigrations } from '../migrations.js';
import type { Database } from '../schema.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Serialises migrations across processes that start at once (API nodes, workers, CLI).
export const MIGRATION_LOCK = 7_346_201;

// BIGINT ids, counts and epoch-ms times all fit in a double (< 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Session limits every pooled connection starts with, so no request waits without end on a lock or a
 * runaway statement and no connection sits in a forgotten transaction holding locks. A statement of 30 s
 * is far past the slowest the store runs (an exact similarity scan of 10⁶ functions: 3.6 s); a lock held
 * 5 s is a writer gone wrong, since writers hold locks for a chunk of ~1 000 rows (analysis-rows.ts); a
 * transaction idle for 60 s is a client that stopped, and the server ends its session.
 */
export const SESSION_LIMITS = {
  statement_timeout: 30_000,
  lock_timeout: 5_000,
  idle_in_transaction_session_timeout: 60_000,
};

/** Scale-out backend: PostgreSQL through a connection pool. */
export function openPostgres(url: string, poolSize = 10): DatabaseDriver {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, ...SESSION_LIMITS });
  // An idle client whose connection drops (server restart, failover) is discarded by the pool and
  // replaced on the next checkout; unhandled, its 'error' event would take the process down.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    dialect: 'postgres',
    db,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // Waiting for another process's migration, and a migration's own statements, may take minutes.
        await client.query('SET LOCAL statement_timeout = 0');
        await client.query('SET LOCAL lock_timeout = 0');
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)',
        );
        const done = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
        for (const m of loadMigrations(MIGRATIONS_DIR)) {
          if (done.has(m.version)) continue;
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
            m.version,
            Date.now(),
          ]);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    lockForClaim: (qb) => qb.forUpdate().skipLocked(),
    close: () => db.destroy(),
  };
}
