import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Migration } from './driver.js';

/** Migrations of one dialect: `NNN_name.sql` files beside the driver, applied in name order. */
export function loadMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(dir, f), 'utf8') }));
}
