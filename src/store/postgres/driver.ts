import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseDriver } from '../driver.js';
import { loadMigrations } from '../migrations.js';
import type { Database } from '../schema.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Serialises migrations across processes that start at once (API nodes, workers, CLI).
const MIGRATION_LOCK = 7_346_201;

// BIGINT ids, counts and epoch-ms times all fit in a double (< 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Scale-out backend: PostgreSQL through a connection pool. */
export function openPostgres(url: string, poolSize = 10): DatabaseDriver {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
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
