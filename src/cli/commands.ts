// The `binlens` commands: each one's words, what it does, its options (with the setting each overrides) and
// what it runs. Help, parsing and errors are generated from this table (main.ts), so every command has them.
import type { Config } from '../config/index.js';
import type * as Main from '../main/index.js';
import { analyzeCommand } from './analyze.js';
import { typesCommand } from './types.js';
import { decompileCommand } from './decompile.js';
import { importOsvDirectory } from './vulns-import.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** How the value is written in help (PORT, DIR, …); strings only. */
  value?: string;
  /** The environment setting this option overrides (flags win over the environment). */
  env?: string;
  help: string;
}

export interface CommandContext {
  /** The command line after the command's words, as typed. */
  args: string[];
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  /** The settings: environment with this command line's overrides applied. */
  config: () => Config;
  /** The service's composition, loaded only by commands that need it (seconds on a busy machine). */
  composition: () => Promise<typeof Main>;
}

export interface Command {
  words: string[];
  /** Positional arguments, as help shows them. */
  args: string;
  arity: [min: number, max: number];
  summary: string;
  options: Record<string, OptionSpec>;
  /** Parses `args` itself and prints its own help (nothing is parsed for it). */
  ownParser?: true;
  run(ctx: CommandContext): Promise<void>;
}

const STORE: Record<string, OptionSpec> = {
  'data-dir': { type: 'string', value: 'DIR', env: 'BINLENS_DATA_DIR', help: 'samples and the SQLite database' },
  'database-url': {
    type: 'string',
    value: 'URL',
    env: 'BINLENS_DATABASE_URL',
    help: 'postgres://… for PostgreSQL, else a SQLite file',
  },
};
const WORKERS: OptionSpec = { type: 'string', value: 'N', env: 'BINLENS_WORKERS', help: 'analysis worker threads' };

function onShutdown(close: () => Promise<void>) {
  let closing = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (closing) return;
      closing = true;
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

/** Opens the store for one command and closes it after, whatever happens. */
async function withRuntime<T>(
  ctx: CommandContext,
  work: (runtime: Awaited<ReturnType<typeof Main.openRuntime>>) => Promise<T>,
): Promise<T> {
  const runtime = await (await ctx.composition()).openRuntime(ctx.config());
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

const username = (ctx: CommandContext) => ctx.positionals[0]!;

export const COMMANDS: Command[] = [
  {
    words: ['serve'],
    args: '',
    arity: [0, 0],
    summary: 'start the API and its analysis workers (npm start)',
    options: {
      host: { type: 'string', value: 'ADDR', env: 'BINLENS_HOST', help: 'address to listen on' },
      port: { type: 'string', value: 'PORT', env: 'BINLENS_PORT', help: 'port to listen on (0: any free port)' },
      ...STORE,
      workers: WORKERS,
    },
    async run(ctx) {
      const t0 = performance.now();
      const config = ctx.config();
      const service = await (await ctx.composition()).buildService(config, { log: true });
      const address = await service.app.listen({ host: config.host, port: config.port });
      if (service.generatedAdminKey)
        console.log(`Generated the admin user's API key (shown once, store it now): ${service.generatedAdminKey}`);
      console.log(
        `Binlens listening on ${address} (ready in ${Math.round(performance.now() - t0)} ms; docs at ${address}/docs)`,
      );
      console.log(`Web interface: ${address}/ (sign in with an API key)`);
      onShutdown(service.close);
    },
  },
  {
    words: ['worker'],
    args: '',
    arity: [0, 0],
    summary: 'run analysis workers only, against a shared PostgreSQL (scale-out nodes)',
    options: { ...STORE, workers: WORKERS },
    async run(ctx) {
      const config = ctx.config();
      const w = await (await ctx.composition()).buildWorker(config);
      console.log(`Binlens worker started (${Math.max(config.workers, 1)} threads)`);
      onShutdown(w.close);
    },
  },
  {
    words: ['users', 'create'],
    args: '<username>',
    arity: [1, 1],
    summary: 'create a user; prints its API key alone on the last line',
    options: {
      team: { type: 'string', value: 'NAME', help: 'the team it belongs to (created when new)' },
      admin: { type: 'boolean', help: 'an administrator' },
      ...STORE,
    },
    run: (ctx) =>
      withRuntime(ctx, async (runtime) => {
        const team = (ctx.values.team as string | undefined) ?? null;
        const { user, apiKey } = await runtime.users.create(username(ctx), {
          team,
          role: ctx.values.admin ? 'ADMIN' : 'USER',
        });
        console.log(`Created user ${user.username} (id ${user.id}${team ? `, team ${team}` : ''}). API key:`);
        console.log(apiKey);
      }),
  },
  {
    words: ['users', 'list'],
    args: '',
    arity: [0, 0],
    summary: 'list the users: id, name, role, team, created, whether their key works',
    options: { ...STORE },
    run: (ctx) =>
      withRuntime(ctx, async (runtime) => {
        const rows = (await runtime.users.list()).map((u) => [
          String(u.id),
          u.username,
          u.role,
          u.team ?? '-',
          new Date(u.createdAt).toISOString().slice(0, 10),
          u.revoked ? 'revoked' : 'active',
        ]);
        const table = [['ID', 'USERNAME', 'ROLE', 'TEAM', 'CREATED', 'KEY'], ...rows];
        const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
        for (const r of table)
          console.log(
            r
              .map((cell, c) => cell.padEnd(widths[c]!))
              .join('  ')
              .trimEnd(),
          );
      }),
  },
  {
    words: ['users', 'rotate-key'],
    args: '<username>',
    arity: [1, 1],
    summary: 'give a user a new API key (the old one stops working); prints it on the last line',
    options: { ...STORE },
    run: (ctx) =>
      withRuntime(ctx, async (runtime) => {
        const apiKey = await runtime.users.rotateKey(username(ctx));
        console.log(`New API key of ${username(ctx)} (the old one no longer works):`);
        console.log(apiKey);
      }),
  },
  {
    words: ['users', 'revoke'],
    args: '<username>',
    arity: [1, 1],
    summary: "revoke a user's API key (rotate-key gives a new one)",
    options: { ...STORE },
    run: (ctx) =>
      withRuntime(ctx, async (runtime) => {
        await runtime.users.revokeKey(username(ctx));
        console.log(`Revoked the API key of ${username(ctx)}`);
      }),
  },
  {
    words: ['migrate'],
    args: '',
    arity: [0, 0],
    summary: 'apply database migrations and exit',
    options: { ...STORE },
    run: (ctx) => withRuntime(ctx, async () => console.log('Database is up to date')),
  },
  {
    words: ['analyze'],
    args: '<file>',
    arity: [1, 1],
    summary: 'analyse a file here, without a server (binlens analyze --help for its options)',
    options: {},
    ownParser: true,
    run: (ctx) => analyzeCommand(ctx.args),
  },
  {
    words: ['types'],
    args: '<file> [function|address…]',
    arity: [1, Infinity],
    summary: 'print recovered function prototypes as C declarations (binlens types --help)',
    options: {},
    ownParser: true,
    run: (ctx) => typesCommand(ctx.args),
  },
  {
    words: ['decompile'],
    args: '<file> [function|address…]',
    arity: [1, Infinity],
    summary: 'print the functions as C (binlens decompile --help)',
    options: {},
    ownParser: true,
    run: (ctx) => decompileCommand(ctx.args),
  },
  {
    words: ['vulns', 'import'],
    args: '<dir>',
    arity: [1, 1],
    summary: 'load OSV JSON records (a directory of files) into the vulnerability database',
    options: { ...STORE },
    run: (ctx) =>
      withRuntime(ctx, async (runtime) => {
        const report = await importOsvDirectory(ctx.positionals[0]!, (rows) =>
          runtime.store.vulnerabilities.upsert(rows),
        );
        for (const r of report.refused) console.error(`refused ${r.file}: ${r.reason}`);
        const total = await runtime.store.vulnerabilities.count();
        console.log(
          `Imported ${report.records} OSV records from ${report.files} files (${report.refused.length} refused); ${total} in the database`,
        );
        if (report.records === 0 && report.refused.length > 0) process.exitCode = 1;
      }),
  },
];
