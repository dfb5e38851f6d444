import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.js';

/**
 * What differs between the embedded (SQLite) and scale-out (PostgreSQL) backends. Everything else is
 * one Kysely code path; callers never branch on the dialect.
 */
export interface DatabaseDriver {
  readonly dialect: 'sqlite' | 'postgres';
  readonly db: Kysely<Database>;
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Row lock for a queue claim: `FOR UPDATE SKIP LOCKED` where the database has it. */
  lockForClaim<O>(qb: SelectQueryBuilder<Database, 'jobs', O>): SelectQueryBuilder<Database, 'jobs', O>;
  close(): Promise<void>;
}

export interface Migration {
  version: string;
  sql: string;
}
