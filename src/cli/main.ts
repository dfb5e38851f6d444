// binlens serve | worker | users create <username> [--team <name>] [--admin] | migrate
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/index.js';
import { buildService, buildWorker, openRuntime } from '../main/index.js';

const USAGE = `usage:
  binlens serve                                   start the API and workers (npm start)
  binlens worker                                  start workers only (scale-out nodes)
  binlens users create <username> [--team NAME] [--admin]
                                                  create a user; prints its API key on the last line
  binlens migrate                                 apply database migrations and exit`;

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
  const service = await buildService(config, consoleLogger);
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
  const w = await buildWorker(config, consoleLogger);
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
  const runtime = await openRuntime(loadConfig());
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
  const runtime = await openRuntime(loadConfig());
  await runtime.close();
  console.log('Database is up to date');
}

class UsageError extends Error {}

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
    default:
      throw new UsageError();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(USAGE);
    process.exit(2);
  }
  console.error(
    err instanceof ConfigError ? `configuration error: ${err.message}` : err instanceof Error ? err.message : err,
  );
  process.exit(1);
});
