// A stored sample as the engine reads it, in two halves: what the job handler (main thread) resolves from the
// analysis row and the blob store, and what the worker thread reads from it — the bytes and the options the
// analysis was created with (binary config, the plugin's boundaries, a debug file, the demangler). Analyses and
// data-type generation read their samples the same way.
import { readFile, stat } from 'node:fs/promises';
import type { BlobStore } from '../blobs/index.js';
import { clientBoundaries, decodeAnalysisConfig } from '../contracts/index.js';
import type { AnalyzeOptions, BinaryConfig, ClientSymbols } from '../engine/index.js';
import type { AnalysisRow } from '../store/index.js';
import { loadDemangler } from './demangler.js';
import { PermanentJobError } from './failures.js';

export interface SampleInput {
  path: string;
  binaryConfig: BinaryConfig | null;
  /** Function boundaries a disassembler plugin sent with the create request. */
  symbols: ClientSymbols | null;
  /** A separate debug file for the sample (names for its stripped functions). */
  debugPath: string | null;
  /** Samples larger than this are refused rather than read into a worker's memory. */
  maxBytes: number;
}

/**
 * The analysis's sample and config as a worker thread reads them (main thread). `debugSha256` is the debug
 * file its job resolved (the submitter's upload); it is left out when the blob store no longer has it.
 */
export async function sampleInput(
  blobs: BlobStore,
  analysis: Pick<AnalysisRow, 'sha256' | 'config'>,
  debugSha256: string | null,
  maxBytes: number,
): Promise<SampleInput> {
  if (!(await blobs.has(analysis.sha256)))
    throw new PermanentJobError(`sample ${analysis.sha256} is missing from the blob store`);
  const config = decodeAnalysisConfig(analysis.config);
  const debugPresent = debugSha256 !== null && (await blobs.has(debugSha256));
  return {
    path: await blobs.localPath(analysis.sha256),
    binaryConfig: config.binary_config,
    symbols: clientBoundaries(config),
    debugPath: debugPresent ? await blobs.localPath(debugSha256) : null,
    maxBytes,
  };
}

/** The options the engine runs with on every stored sample (no capability rules, no SBOM). */
export type SampleOptions = Omit<AnalyzeOptions, 'rules' | 'sbom'>;

/** Reads the sample and its debug file (worker thread); a sample over the limit is refused unread. */
export async function readSample(
  input: SampleInput,
): Promise<{ kind: 'read'; bytes: Uint8Array; options: SampleOptions } | { kind: 'refused'; reason: string }> {
  const { size } = await stat(input.path);
  if (size > input.maxBytes)
    return { kind: 'refused', reason: `sample is ${size} bytes; the analysis limit is ${input.maxBytes}` };
  const bytes = await readFile(input.path);
  const debug =
    input.debugPath && (await stat(input.debugPath)).size <= input.maxBytes ? await readFile(input.debugPath) : null;
  return {
    kind: 'read',
    bytes,
    options: { binaryConfig: input.binaryConfig, symbols: input.symbols, debug, demangle: await loadDemangler() },
  };
}
