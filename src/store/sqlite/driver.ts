import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DatabaseDriver } from '../driver.js';
import { loadMigrations } from '../migrations.js';
import type { Database } from '../schema.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

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

/** Embedded backend: one SQLite file in WAL mode, shared safely by the server and CLI processes. */
export function openSqlite(file: string): DatabaseDriver {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  // Another process (the CLI, a second worker) may hold the write lock for a moment.
  raw.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  return {
    dialect: 'sqlite',
    db,
    async migrate() {
      raw.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
      const apply = raw.transaction(() => {
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
      apply.immediate();
    },
    lockForClaim: (qb) => qb,
    close: () => db.destroy(),
  };
}
