import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

/** Why Node's parser refused a command line, said for people: the option, and where the options are listed. */
function refusal(err: unknown, command: string): UsageError | null {
  const { code, message } = err as { code?: unknown; message?: string };
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return null;
  const option = /'(-[^' ]*)/.exec(message ?? '')?.[1] ?? 'an option';
  const what =
    code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? `unknown option ${option}`
      : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
        ? 'unexpected argument'
        : `option ${option} ${/argument missing/.test(message ?? '') ? 'needs a value' : 'takes no value'}`;
  return new UsageError(`${what} (binlens ${command} --help lists the options)`);
}

/** The command line of one `binlens` command, strictly parsed; a refusal is a UsageError naming the option. */
export function parseCommandLine<T extends ParseArgsConfig>(
  command: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw refusal(err, command) ?? err;
  }
}
