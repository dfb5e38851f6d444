// What `binlens analyze` and `binlens types` share: the file argument checked, the options that say what a
// raw blob is (--isa, --base, --platform), and the engine run in a worker thread so progress keeps moving.
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { BinaryConfig } from '../engine/index.js';
import type { EngineWorkerInput, EngineWorkerMessage } from './analyze-worker.js';
import { UsageError } from './usage-error.js';

export const BINARY_OPTIONS_HELP = `  --isa ISA        what the file does not say itself, as for a raw blob (a file in no known container):
                   x86, x86_64 or arm (AArch64)
  --base ADDR      load address of a raw blob, hex (0x…) or decimal; default 0; needs --isa
  --platform NAME  linux, windows or android, when the file does not say (it chooses the model)`;

export const BINARY_OPTIONS = {
  isa: { type: 'string' },
  base: { type: 'string' },
  platform: { type: 'string' },
} as const;

const ISAS = ['x86', 'x86_64', 'arm'] as const;
const PLATFORMS = ['linux', 'windows', 'android'] as const;

function oneOf<T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new UsageError(`--${option} must be one of ${allowed.join(', ')}, not '${value}'`);
}

/** A hex (0x…) or decimal address; `what` names the option or argument in the error. */
export function parseAddress(value: string, what: string): number {
  const n = /^(0x[0-9a-f]+|[0-9]+)$/i.test(value) ? Number(value) : NaN;
  // Addresses are plain numbers throughout the engine, so they must stay exact.
  if (!Number.isSafeInteger(n)) throw new UsageError(`${what} must be an address such as 0x400000, not '${value}'`);
  return n;
}

/** The engine options the raw-blob flags give. */
export function binaryInput(values: {
  isa?: string;
  base?: string;
  platform?: string;
}): Pick<EngineWorkerInput['options'], 'binaryConfig' | 'symbols'> {
  const binaryConfig: BinaryConfig = {
    isa: oneOf('isa', values.isa, ISAS) ?? null,
    platform: oneOf('platform', values.platform, PLATFORMS) ?? null,
  };
  if (values.base !== undefined && !binaryConfig.isa) throw new UsageError('--base needs --isa (raw blobs only)');
  // The pipeline loads a raw blob at the symbols' base address, as the API does with `symbols.base_address`.
  const symbols =
    values.base === undefined ? null : { baseAddress: parseAddress(values.base, '--base'), functions: [] };
  return { binaryConfig, symbols };
}

export function checkFile(file: string): void {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) throw new UsageError(`no such file: ${file}`);
  if (st.isDirectory()) throw new UsageError(`${file} is a directory, not a binary`);
  if (!st.isFile()) throw new UsageError(`${file} is not a regular file`);
}

export function runInWorker(
  input: EngineWorkerInput,
  onProgress: (stage: string, fraction: number) => void,
): Promise<Extract<EngineWorkerMessage, { kind: 'done' }>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./analyze-worker.js', import.meta.url), { workerData: input });
    worker.on('message', (m: EngineWorkerMessage) => {
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

/** Prints to stdout; a reader that stops early (`| head`) is not an error of the command. */
export function writeOut(text: string): void {
  process.stdout.once('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') console.error(`cannot write the result: ${err.message}`);
    process.exit(err.code === 'EPIPE' ? 0 : 1);
  });
  process.stdout.write(text);
}
