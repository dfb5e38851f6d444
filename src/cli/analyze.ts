// binlens analyze <file> [--json] [--isa ISA] [--base ADDR] [--platform NAME] [--rules DIR] [--recovery-only]:
// every stage the service runs (capabilities and the SBOM included) on this machine, without a server or
// database, in a worker thread so the progress bar moves during long stages.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../config/index.js';
import type { AnalysisResult } from '../contracts/index.js';
import type { BinaryConfig } from '../engine/index.js';
import { formatSummary } from './analysis-summary.js';
import type { AnalyzeWorkerInput, AnalyzeWorkerMessage } from './analyze-worker.js';
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
  --isa ISA        what the file does not say itself, as for a raw blob (a file in no known container):
                   x86, x86_64 or arm (AArch64)
  --base ADDR      load address of a raw blob, hex (0x…) or decimal; default 0; needs --isa
  --platform NAME  linux, windows or android, when the file does not say (it chooses the model)
  --rules DIR      also match the capability rules in DIR (repeatable; BINLENS_RULES_DIRS is read too)
  --recovery-only  skip capabilities and library identification (faster)
  -h, --help       show this help

A progress bar is drawn on stderr when it is a terminal. Exit codes: 0 analysed, 1 the analysis failed
(malformed or unsupported file), 2 usage error (bad option, missing file).`;

const ISAS = ['x86', 'x86_64', 'arm'] as const;
const PLATFORMS = ['linux', 'windows', 'android'] as const;

function oneOf<T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new UsageError(`--${option} must be one of ${allowed.join(', ')}, not '${value}'`);
}

function parseAddress(value: string): number {
  const n = /^(0x[0-9a-f]+|[0-9]+)$/i.test(value) ? Number(value) : NaN;
  // Addresses are plain numbers throughout the engine, so they must stay exact.
  if (!Number.isSafeInteger(n)) throw new UsageError(`--base must be an address such as 0x400000, not '${value}'`);
  return n;
}

function parseCommand(args: string[]) {
  const { positionals, values } = parseCommandLine('analyze', {
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      isa: { type: 'string' },
      base: { type: 'string' },
      platform: { type: 'string' },
      rules: { type: 'string', multiple: true, default: [] },
      'recovery-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  if (positionals.length !== 1) throw new UsageError('analyze takes one file (binlens analyze --help)');
  const binaryConfig: BinaryConfig = {
    isa: oneOf('isa', values.isa, ISAS) ?? null,
    platform: oneOf('platform', values.platform, PLATFORMS) ?? null,
  };
  if (values.base !== undefined && !binaryConfig.isa) throw new UsageError('--base needs --isa (raw blobs only)');
  // The pipeline loads a raw blob at the symbols' base address, as the API does with `symbols.base_address`.
  const understand = !values['recovery-only'];
  const options: AnalyzeWorkerInput['options'] = {
    binaryConfig,
    symbols: values.base === undefined ? null : { baseAddress: parseAddress(values.base), functions: [] },
    sbom: understand,
  };
  const rulesDirs = understand ? [...loadConfig().rulesDirs, ...values.rules.map((d) => resolve(d))] : null;
  return { file: positionals[0]!, json: values.json, options, rulesDirs };
}

function checkFile(file: string): void {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) throw new UsageError(`no such file: ${file}`);
  if (st.isDirectory()) throw new UsageError(`${file} is a directory, not a binary`);
  if (!st.isFile()) throw new UsageError(`${file} is not a regular file`);
}

function runInWorker(input: AnalyzeWorkerInput, onProgress: (stage: string, fraction: number) => void) {
  return new Promise<Extract<AnalyzeWorkerMessage, { kind: 'done' }>>((resolve, reject) => {
    const worker = new Worker(new URL('./analyze-worker.js', import.meta.url), { workerData: input });
    worker.on('message', (m: AnalyzeWorkerMessage) => {
      if (m.kind === 'progress') onProgress(m.stage, m.fraction);
      else if (m.kind === 'done') resolve(m);
      // A permanent failure is the file's (malformed, unsupported); any other is the engine's.
      else reject(new Error(m.permanent ? m.message : `internal error: ${m.message}`));
    });
    // The worker itself died (out of memory, a module that failed to load); after a result these are no-ops.
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the analysis worker exited with code ${code}`)));
  });
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
  let done: Extract<AnalyzeWorkerMessage, { kind: 'done' }>;
  try {
    const input = { path: command.file, options: command.options, rulesDirs: command.rulesDirs };
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
  // A reader that stops early (`| head`) is not an error of the analysis.
  process.stdout.once('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') console.error(`cannot write the result: ${err.message}`);
    process.exit(err.code === 'EPIPE' ? 0 : 1);
  });
  // Rule files that did not load are reported, as the service logs them; the rest were matched.
  for (const p of done.ruleProblems) console.error(`capability rule skipped: ${p.source}: ${p.message}`);
  if (command.json) {
    process.stdout.write(done.json + '\n');
    return;
  }
  const facts = {
    file: command.file,
    stages: clock.stages(),
    totalMs: performance.now() - t0,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  console.log(formatSummary(JSON.parse(done.json) as AnalysisResult, facts));
}
