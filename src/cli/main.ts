// binlens serve | worker | users create <username> [--team <name>] [--admin] | migrate | analyze <file>
//         | vulns import <dir>
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/index.js';
import { analyzeCommand } from './analyze.js';
import { UsageError } from './usage-error.js';
import { startupHint } from './startup-errors.js';
import { importOsvDirectory } from './vulns-import.js';

const USAGE = `usage:
  binlens serve                                   start the API and workers (npm start)
  binlens worker                                  start workers only (scale-out nodes)
  binlens users create <username> [--team NAME] [--admin]
                                                  create a user; prints its API key on the last line
  binlens migrate                                 apply database migrations and exit
  binlens analyze <file> [--json] [--isa ISA --base ADDR]
                                                  analyse a file locally, no server (--help for more)
  binlens vulns import <dir>                      load OSV JSON records into the vulnerability database`;

// Loaded by the commands that need it: the server's modules (Fastify, database drivers) take 2–3 s to load
// on a busy 2-core machine, which `analyze` would otherwise pay for nothing.
const composition = () => import('../main/index.js');

const consoleLogger = {
  info: (o: object | string, m?: string) => console.error(m ?? o),
  warn: (o: object | string, m?: string) => console.error(m ?? o, typeof o === 'object' ? JSON.stringify(o) : ''),
  error: (o: object | string, m?: string) => console.error(m ?? o, typeof o === 'object' ? JSON.stringify(o) : ''),
};

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

async function serve() {
  const t0 = performance.now();
  const config = loadConfig();
  const service = await (await composition()).buildService(config, consoleLogger);
  const address = await service.app.listen({ host: config.host, port: config.port });
  if (service.generatedAdminKey) {
    console.log(`Generated the admin user's API key (shown once, store it now): ${service.generatedAdminKey}`);
  }
  console.log(
    `Binlens listening on ${address} (ready in ${Math.round(performance.now() - t0)} ms; docs at ${address}/docs)`,
  );
  onShutdown(service.close);
}

async function worker() {
  const config = loadConfig();
  const w = await (await composition()).buildWorker(config, consoleLogger);
  console.log(`Binlens worker started (${Math.max(config.workers, 1)} threads)`);
  onShutdown(w.close);
}

async function users(args: string[]) {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { team: { type: 'string' }, admin: { type: 'boolean', default: false } },
  });
  const [verb, username] = positionals;
  if (verb !== 'create' || !username) throw new UsageError();
  const runtime = await (await composition()).openRuntime(loadConfig());
  try {
    const { user, apiKey } = await runtime.users.create(username, {
      team: values.team ?? null,
      role: values.admin ? 'ADMIN' : 'USER',
    });
    console.log(`Created user ${user.username} (id ${user.id}${values.team ? `, team ${values.team}` : ''}). API key:`);
    console.log(apiKey);
  } finally {
    await runtime.close();
  }
}

async function migrate() {
  const runtime = await (await composition()).openRuntime(loadConfig());
  await runtime.close();
  console.log('Database is up to date');
}

async function vulns(args: string[]) {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [verb, dir] = positionals;
  if (verb !== 'import' || !dir || positionals.length !== 2) throw new UsageError();
  const runtime = await (await composition()).openRuntime(loadConfig());
  try {
    const report = await importOsvDirectory(dir, (rows) => runtime.store.vulnerabilities.upsert(rows));
    for (const r of report.refused) console.error(`refused ${r.file}: ${r.reason}`);
    const total = await runtime.store.vulnerabilities.count();
    console.log(
      `Imported ${report.records} OSV records from ${report.files} files (${report.refused.length} refused); ${total} in the database`,
    );
    if (report.records === 0 && report.refused.length > 0) process.exitCode = 1;
  } finally {
    await runtime.close();
  }
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve();
    case 'worker':
      return worker();
    case 'users':
      return users(rest);
    case 'migrate':
      return migrate();
    case 'analyze':
      return analyzeCommand(rest);
    case 'vulns':
      return vulns(rest);
    default:
      throw new UsageError();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // parseArgs rejects unknown options and missing values with these codes: the command line's fault too.
  const badOption = /^ERR_PARSE_ARGS_/.test(String((err as { code?: unknown }).code));
  if (err instanceof UsageError || badOption) {
    console.error((err as Error).message ? `binlens: ${(err as Error).message}` : USAGE);
    process.exit(2);
  }
  if (err instanceof ConfigError) console.error(`configuration error: ${err.message}`);
  else
    console.error(`binlens: ${startupHint(err, loadConfig()) ?? (err instanceof Error ? err.message : String(err))}`);
  process.exit(1);
});
