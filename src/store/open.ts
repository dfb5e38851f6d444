import type { DatabaseDriver } from './driver.js';
import { openPostgres } from './postgres/driver.js';
import { openSqlite } from './sqlite/driver.js';

/** `postgres://…` or `postgresql://…` selects PostgreSQL; anything else is a SQLite file path. */
export function openDatabase(target: string): DatabaseDriver {
  return /^postgres(ql)?:\/\//.test(target) ? openPostgres(target) : openSqlite(target);
}
