// binlens analyze <file> [--json] [--isa ISA] [--base ADDR] [--platform NAME] [--rules DIR] [--recovery-only]:
// every stage the service runs (capabilities and the SBOM included) on this machine, without a server or
// database, in a worker thread so the progress bar moves during long stages.
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import type { AnalysisResult } from '../contracts/index.js';
import { formatSummary } from './analysis-summary.js';
import type { EngineWorkerInput, EngineWorkerMessage } from './analyze-worker.js';
import { BINARY_OPTIONS, BINARY_OPTIONS_HELP, binaryInput, checkFile, runInWorker, writeOut } from './binary-input.js';
import { parseCommandLine } from './arguments.js';
import { ProgressBar } from './progress-bar.js';
import { StageClock } from './stage-clock.js';
import { UsageError } from './usage-error.js';

const HELP = `usage: binlens analyze <file> [--json] [--isa ISA] [--base ADDR] [--platform NAME] [--rules DIR]
                       [--recovery-only]

Analyses the file here, without a server or database, with every stage the service runs, and prints a
summary: format, architecture, functions, strings, imports, security features, capabilities, libraries,
and the time each stage took.

  --json           print the full analysis result document as JSON on stdout instead
${BINARY_OPTIONS_HELP}
  --rules DIR      also match the capability rules in DIR (repeatable; BINLENS_RULES_DIRS is read too)
  --recovery-only  skip capabilities and library identification (faster)
  -h, --help       show this help

A progress bar is drawn on stderr when it is a terminal. Exit codes: 0 analysed, 1 the analysis failed
(malformed or unsupported file), 2 usage error (bad option, missing file).`;

function parseCommand(args: string[]) {
  const { positionals, values } = parseCommandLine('analyze', {
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      ...BINARY_OPTIONS,
      rules: { type: 'string', multiple: true, default: [] },
      'recovery-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  if (positionals.length !== 1) throw new UsageError('analyze takes one file (binlens analyze --help)');
  const understand = !values['recovery-only'];
  const options: EngineWorkerInput['options'] = { ...binaryInput(values), sbom: understand };
  const rulesDirs = understand ? [...loadConfig().rulesDirs, ...values.rules.map((d) => resolve(d))] : null;
  return { file: positionals[0]!, json: values.json, options, rulesDirs };
}

export async function analyzeCommand(args: string[]): Promise<void> {
  const command = parseCommand(args);
  if (!command) {
    console.log(HELP);
    return;
  }
  checkFile(command.file);
  const t0 = performance.now();
  const clock = new StageClock();
  // Starting the worker and loading the engine (WebAssembly decoders load later, inside 'recover').
  clock.enter('start-up');
  const bar = process.stderr.isTTY ? new ProgressBar(process.stderr) : null;
  let done: Extract<EngineWorkerMessage, { kind: 'done' }>;
  try {
    const input = {
      task: 'analysis' as const,
      path: command.file,
      options: command.options,
      rulesDirs: command.rulesDirs,
    };
    done = await runInWorker(input, (reported, fraction) => {
      // 'done' is reported when the last stage ends; serializing the result and passing it over follow, and
      // take most of a second for a large document.
      const stage = reported === 'done' ? 'transfer' : reported;
      clock.enter(stage);
      bar?.update(stage, fraction);
    });
  } catch (err) {
    throw new Error(`cannot analyse ${command.file}: ${(err as Error).message}`);
  } finally {
    bar?.stop();
  }
  clock.stop();
  // Rule files that did not load are reported, as the service logs them; the rest were matched.
  for (const p of done.ruleProblems) console.error(`capability rule skipped: ${p.source}: ${p.message}`);
  if (command.json) {
    writeOut(done.json + '\n');
    return;
  }
  const facts = {
    file: command.file,
    stages: clock.stages(),
    totalMs: performance.now() - t0,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  writeOut(formatSummary(JSON.parse(done.json) as AnalysisResult, facts) + '\n');
}
