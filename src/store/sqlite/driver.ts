import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDialectConfig,
} from 'kysely';
import type { DatabaseDriver } from '../driver.js';
import { loadMigrations } from '../migrations.js';
import type { Database } from '../schema.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * How long a statement waits for another process's write lock (a `binlens worker`, the CLI): SQLite's busy
 * handler sleeps on the calling thread, which is the server's event loop, so this bounds how long the
 * server can freeze. Writers hold the lock for a chunk of ~1 000 rows (tens of ms; analysis-rows.ts) or an
 * OSV import batch; past 500 ms the statement fails with SQLITE_BUSY (a transient error: jobs retry).
 */
const BUSY_TIMEOUT_MS = 500;
/** Migrating waits for another process's migration instead: nothing is served yet, and 008 copies a table. */
const MIGRATION_BUSY_TIMEOUT_MS = 600_000;

/**
 * Kysely prepares every query anew; preparing is a third of a simple request's CPU time, so statements
 * are kept by SQL text. Queries are built from a fixed set of shapes (values are bound, IN-lists vary
 * in length), so a few hundred entries cover them; the oldest is dropped past that.
 */
function withStatementCache(raw: BetterSqlite3.Database, max = 512) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = raw.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * Transactions begin IMMEDIATE: they take the write lock first, waiting for it as a write statement does. A
 * deferred one that reads before it writes fails at its first write with SQLITE_BUSY_SNAPSHOT, without waiting,
 * whenever another connection (an analysis or data-types thread storing results) committed since its read: an
 * edit of a function's data types while its analysis's types were being stored answered 503.
 */
class ImmediateDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): SqliteDriver {
    return new ImmediateDriver(this.settings);
  }
}

/** Embedded backend: one SQLite file in WAL mode, shared safely by the server and CLI processes. */
export function openSqlite(file: string): DatabaseDriver {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const db = new Kysely<Database>({ dialect: new ImmediateDialect({ database: withStatementCache(raw) }) });
  return {
    dialect: 'sqlite',
    db,
    async migrate() {
      const apply = raw.transaction(() => {
        raw.exec(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)',
        );
        const done = new Set(
          raw
            .prepare('SELECT version FROM schema_migrations')
            .all()
            .map((r) => (r as { version: string }).version),
        );
        for (const m of loadMigrations(MIGRATIONS_DIR)) {
          if (done.has(m.version)) continue;
          raw.exec(m.sql);
          raw.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, Date.now());
        }
      });
      raw.pragma(`busy_timeout = ${MIGRATION_BUSY_TIMEOUT_MS}`);
      try {
        apply.immediate();
      } finally {
        raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    },
    lockForClaim: (qb) => qb,
    close: () => db.destroy(),
  };
}
