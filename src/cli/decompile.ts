// binlens decompile <file> [function|address…] [--json]: C for the file's functions (or the named ones and
// what they call in the file), without a server or database.
import { placeholderForm, type Decompilation } from '../engine/index.js';
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

const HELP = `usage: binlens decompile <file> [function|address…] [--json] [--isa ISA] [--base ADDR] [--platform NAME]

Decompiles the file's functions here, without a server or database, and prints one C translation unit:
standard headers, the helpers and data the functions use, and their definitions. Name functions (as
\`binlens analyze\` lists them) or give addresses (hex 0x… or decimal) to decompile only those and the
functions of the file they call. A function the decompiler cannot express yet is a comment saying why.

  --json           print { source, functions: [{ address, name, text, error, symbols, prototype,
                   raw_decompilation, function_mapping_full }] } instead: the text also in the API's
                   placeholder form (<DISASM_FUNCTION_0>, <VAR_1>, …) with the map that resolves it
${BINARY_OPTIONS_HELP}
  -h, --help       show this help

Exit codes: 0 done, 1 the file could not be analysed or a named function is not in it, 2 usage error.`;

export async function decompileCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandLine('decompile', {
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
  const [file, ...names] = positionals;
  if (!file) throw new UsageError('decompile takes a file (binlens decompile --help)');
  checkFile(file);
  const wanted = names.map((w) => (/^(0x[0-9a-f]+|[0-9]+)$/i.test(w) ? parseAddress(w, 'an address') : w));
  const bar = process.stderr.isTTY ? new ProgressBar(process.stderr) : null;
  let c: Decompilation;
  try {
    const done = await runInWorker(
      {
        task: 'decompile',
        path: file,
        options: binaryInput(values),
        rulesDirs: null,
        wanted: wanted.length ? wanted : null,
      },
      (stage, fraction) => bar?.update(stage, fraction),
    );
    c = JSON.parse(done.json) as Decompilation;
  } catch (err) {
    throw new Error(`cannot decompile ${file}: ${(err as Error).message}`);
  } finally {
    bar?.stop();
  }
  if (!values.json) return writeOut(c.source);
  const functions = c.functions.map((f) => {
    const form = f.text === null ? null : placeholderForm(f.text, f.symbols);
    return { ...f, raw_decompilation: form?.text ?? null, function_mapping_full: form?.mapping ?? null };
  });
  writeOut(JSON.stringify({ ...c, functions }, null, 2) + '\n');
}
