import { delimiter, resolve } from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** `postgres://…` for PostgreSQL, otherwise the SQLite file path. */
  databaseUrl: string;
  adminApiKey: string | null;
  maxUploadBytes: number;
  /** Analysis worker threads; 0 runs the API without workers (a separate `binlens worker` does the work). */
  workers: number;
  /** How long a claimed job stays leased without a heartbeat before another worker may take it over. */
  jobLeaseMs: number;
  logLevel: string;
  /** Extra capability-rule directories (BINLENS_RULES_DIRS, path-delimiter separated), loaded after the shipped rules/. */
  rulesDirs: string[];
}

export class ConfigError extends Error {}

const DEFAULT_MAX_UPLOAD = 10 * 1024 * 1024 * 1024;

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.BINLENS_DATA_DIR || './data');
  return {
    host: env.BINLENS_HOST || '127.0.0.1',
    port: int(env, 'BINLENS_PORT', 8080, 0, 65535),
    dataDir,
    databaseUrl: env.BINLENS_DATABASE_URL || resolve(dataDir, 'binlens.sqlite'),
    adminApiKey: env.BINLENS_ADMIN_API_KEY || null,
    maxUploadBytes: int(env, 'BINLENS_MAX_UPLOAD_BYTES', DEFAULT_MAX_UPLOAD, 1, Number.MAX_SAFE_INTEGER),
    workers: int(env, 'BINLENS_WORKERS', 1, 0, 64),
    jobLeaseMs: int(env, 'BINLENS_JOB_LEASE_MS', 30_000, 100, 3_600_000),
    logLevel: env.BINLENS_LOG_LEVEL || 'info',
    rulesDirs: (env.BINLENS_RULES_DIRS ?? '')
      .split(delimiter)
      .filter((d) => d !== '')
      .map((d) => resolve(d)),
  };
}
