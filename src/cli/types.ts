// binlens types <file> [function|address…] [--json]: the recovered prototype of every function (or of the
// named ones) as C declarations, without a server or database.
import type { FunctionTypesRecord } from '../shared/type-records.js';
import { parseCommandLine } from './arguments.js';
import {
  BINARY_OPTIONS,
  BINARY_OPTIONS_HELP,
  binaryInput,
  checkFile,
  parseAddress,
  runInWorker,
  writeOut,
} from './binary-input.js';
import { ProgressBar } from './progress-bar.js';
import { UsageError } from './usage-error.js';

const HELP = `usage: binlens types <file> [function|address…] [--json] [--isa ISA] [--base ADDR] [--platform NAME]

Recovers the data types of the file's functions here, without a server or database, and prints each
prototype as a C declaration, with its address and where the types came from (dwarf, library, recovered).
Name functions (as \`binlens analyze\` lists them) or give addresses (hex 0x… or decimal) to print only those.

  --json           print the records (arguments, stack variables, dependencies) as JSON instead
${BINARY_OPTIONS_HELP}
  -h, --help       show this help

Exit codes: 0 done, 1 the file could not be analysed or a named function is not in it, 2 usage error.`;

export async function typesCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandLine('types', {
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      ...BINARY_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const [file, ...wanted] = positionals;
  if (!file) throw new UsageError('types takes a file (binlens types --help)');
  checkFile(file);
  const options = binaryInput(values);
  const bar = process.stderr.isTTY ? new ProgressBar(process.stderr) : null;
  let records: FunctionTypesRecord[];
  try {
    const done = await runInWorker({ task: 'types', path: file, options, rulesDirs: null }, (stage, fraction) =>
      bar?.update(stage, fraction),
    );
    records = JSON.parse(done.json) as FunctionTypesRecord[];
  } catch (err) {
    throw new Error(`cannot analyse ${file}: ${(err as Error).message}`);
  } finally {
    bar?.stop();
  }
  const chosen = wanted.length ? select(records, wanted) : records;
  writeOut(values.json ? JSON.stringify(chosen, null, 2) + '\n' : chosen.map(declarationLine).join('\n') + '\n');
}

/** The records of the named functions, in the order asked; an unknown name or address is an error. */
function select(records: FunctionTypesRecord[], wanted: string[]): FunctionTypesRecord[] {
  return wanted.map((w) => {
    const byName = records.find((r) => r.name === w);
    const found =
      byName ??
      (/^(0x[0-9a-f]+|[0-9]+)$/i.test(w) ? records.find((r) => r.vaddr === parseAddress(w, 'an address')) : undefined);
    if (!found) throw new Error(`no function ${w} in the file (binlens types <file> lists them all)`);
    return found;
  });
}

const declarationLine = (r: FunctionTypesRecord): string =>
  `/* 0x${r.vaddr.toString(16)} ${r.source}${r.convention === 'sysv' || r.convention === 'cdecl' ? '' : ` ${r.convention}`} */ ${r.declaration};`;
