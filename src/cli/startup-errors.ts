import type { Config } from '../config/index.js';

/** A database URL as it may be shown: without its password. */
const shown = (url: string) => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

/**
 * What a failed start means and which setting changes it, for the failures people meet first: the port taken,
 * an address not on this machine, the database not reachable or not there, the data directory not writable.
 * Null for anything else (its own message is shown).
 */
export function startupHint(err: unknown, config: Config): string | null {
  const { code, syscall } = err as { code?: unknown; syscall?: unknown };
  const listening = `${config.host}:${config.port}`;
  const database = config.databaseUrl.startsWith('postgres');
  switch (code) {
    case 'EADDRINUSE':
      return `${listening} is already in use: stop what listens there, or choose another port with BINLENS_PORT`;
    case 'EADDRNOTAVAIL':
      return `${config.host} is not an address of this machine: set BINLENS_HOST (0.0.0.0 for every interface)`;
    case 'EACCES':
    case 'EPERM':
      return syscall === 'listen'
        ? `port ${config.port} needs privileges: choose one above 1023 with BINLENS_PORT`
        : `cannot write the data directory ${config.dataDir}: fix its permissions or set BINLENS_DATA_DIR`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
      return database
        ? `cannot reach the database at ${shown(config.databaseUrl)}: start it, or set BINLENS_DATABASE_URL`
        : null;
    case '3D000': // PostgreSQL: database does not exist
    case '28P01': // password authentication failed
    case '28000': // no pg_hba.conf entry / role missing
      return `the database at ${shown(config.databaseUrl)} refused Binlens (${(err as Error).message}): create it or fix BINLENS_DATABASE_URL`;
    case 'SQLITE_CANTOPEN':
    case 'ENOENT':
      return database
        ? null
        : `cannot open the database file ${config.databaseUrl}: check BINLENS_DATA_DIR (or BINLENS_DATABASE_URL)`;
    default:
      return null;
  }
}
