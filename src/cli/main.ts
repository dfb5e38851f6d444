// binlens <command> [options]: the table of commands is commands.ts; this file parses, helps and reports.
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from '../config/index.js';
import { parseCommandLine } from './arguments.js';
import { COMMANDS, type Command, type OptionSpec } from './commands.js';
import { startupHint } from './startup-errors.js';
import { bold, errorStyle } from './style.js';
import { UsageError } from './usage-error.js';

const version = (): string =>
  (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const name = (c: Command) => c.words.join(' ');
const optionLabel = (option: string, spec: OptionSpec) => `--${option}${spec.value ? ` ${spec.value}` : ''}`;

function generalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => `${name(c)} ${c.args}`.length));
  return [
    `${bold('binlens')} ${version()}: an open binary-analysis and malware-analysis service`,
    '',
    `${bold('usage:')} binlens <command> [options]`,
    '',
    ...COMMANDS.map((c) => `  ${`${name(c)} ${c.args}`.padEnd(width)}  ${c.summary}`),
    '',
    '  -h, --help     help for binlens, or for a command (binlens users create --help)',
    '  -v, --version  print the version',
    '',
    'Settings come from the environment (BINLENS_*; see the README); a command option overrides its setting.',
  ].join('\n');
}

function commandHelp(c: Command): string {
  const options = Object.entries(c.options);
  const width = Math.max(12, ...options.map(([o, spec]) => optionLabel(o, spec).length));
  return [
    `${bold('usage:')} binlens ${name(c)}${c.args ? ` ${c.args}` : ''}${options.length ? ' [options]' : ''}`,
    '',
    c.summary.charAt(0).toUpperCase() + c.summary.slice(1),
    '',
    ...options.map(
      ([o, spec]) =>
        `  ${optionLabel(o, spec).padEnd(width)}  ${spec.help}${spec.env ? ` (overrides ${spec.env})` : ''}`,
    ),
    `  ${'-h, --help'.padEnd(width)}  show this help`,
  ].join('\n');
}

/** The command whose words start the command line (the longest such), and the arguments after them. */
function findCommand(argv: string[]): { command: Command; args: string[] } | null {
  const matches = COMMANDS.filter((c) => c.words.every((w, i) => argv[i] === w));
  const command = matches.sort((a, b) => b.words.length - a.words.length)[0];
  return command ? { command, args: argv.slice(command.words.length) } : null;
}

/** What a command line that names no command meant to run, said as a usage error. */
function unknownCommand(argv: string[]): UsageError {
  const group = COMMANDS.filter((c) => c.words.length > 1 && c.words[0] === argv[0]);
  if (group.length > 0) {
    const verbs = group.map((c) => c.words[1]).join(', ');
    return new UsageError(
      argv[1] === undefined
        ? `${argv[0]} needs one of: ${verbs}`
        : `unknown command '${argv[0]} ${argv[1]}': ${argv[0]} takes ${verbs}`,
    );
  }
  return new UsageError(`unknown command '${argv[0]}' (binlens --help lists the commands)`);
}

let effectiveConfig: Config | null = null;

async function main(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.log(generalHelp());
    return;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    console.log(`binlens ${version()}`);
    return;
  }
  const found = findCommand(argv);
  if (!found) throw unknownCommand(argv);
  const { command, args } = found;
  const config = (overrides: Record<string, string>) => () =>
    (effectiveConfig ??= loadConfig({ ...process.env, ...overrides }));
  if (command.ownParser) {
    await command.run({ args, positionals: [], values: {}, config: config({}), composition });
    return;
  }
  const { values, positionals } = parseCommandLine(name(command), {
    args,
    allowPositionals: true,
    options: {
      ...Object.fromEntries(Object.entries(command.options).map(([o, spec]) => [o, { type: spec.type }])),
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(commandHelp(command));
    return;
  }
  const [min, max] = command.arity;
  if (positionals.length < min || positionals.length > max)
    throw new UsageError(`${name(command)} takes ${command.args || 'no arguments'} (binlens ${name(command)} --help)`);
  const given = values as Record<string, string | boolean | undefined>;
  const overrides: Record<string, string> = {};
  for (const [o, spec] of Object.entries(command.options)) {
    const v = given[o];
    if (spec.env && typeof v === 'string') overrides[spec.env] = v;
  }
  await command.run({ args, positionals, values: given, config: config(overrides), composition });
}

// Loaded by the commands that need it: the server's modules (Fastify, database drivers) take 2–3 s to load
// on a busy 2-core machine, which `analyze`, `--help` and `--version` would otherwise pay for nothing.
const composition = () => import('../main/index.js');

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(errorStyle(`binlens: ${err.message}`));
    process.exit(2);
  }
  if (err instanceof ConfigError) console.error(errorStyle(`binlens: configuration error: ${err.message}`));
  else {
    // The settings the command ran with; a failure before they were read has no setting to name.
    const hint = effectiveConfig ? startupHint(err, effectiveConfig) : null;
    console.error(errorStyle(`binlens: ${hint ?? (err instanceof Error ? err.message : String(err))}`));
  }
  process.exit(1);
});
