import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** PostgreSQL server for the scale-out suites; BINLENS_TEST_PG_URL overrides the CI machine's default. */
const PG_ADMIN_URL = process.env.BINLENS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** Why the suite is skipped here, or null when it runs. */
  skip: string | null;
  create(): Promise<TestDatabase>;
}

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return `PostgreSQL not reachable at ${PG_ADMIN_URL} (${(err as Error).message}); PostgreSQL suite skipped`;
  } finally {
    await client.end().catch(() => {});
  }
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'binlens-test-'));

const sqlite: Backend = {
  name: 'sqlite',
  skip: null,
  async create() {
    const dataDir = tempDir();
    return {
      url: join(dataDir, 'binlens.sqlite'),
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

async function postgres(): Promise<Backend> {
  const skip = await postgresReachable();
  return {
    name: 'postgres',
    skip,
    async create() {
      const name = `binlens_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const dataDir = tempDir();
      return {
        url: url.toString(),
        dataDir,
        async drop() {
          rmSync(dataDir, { recursive: true, force: true });
          const c = new pg.Client({ connectionString: PG_ADMIN_URL });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        },
      };
    },
  };
}

/** Both backends; every driver suite and the API suite run once per entry. */
export const backends: Backend[] = [sqlite, await postgres()];
