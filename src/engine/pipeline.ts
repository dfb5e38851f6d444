// One analysis run over a file's bytes: identify, fingerprint, choose a model. Deterministic: the same
// bytes and options always give the same result document.
import type { Architecture, AnalysisResult, BinaryIdentity } from '../contracts/result.js';
import { identify } from './formats/identify.js';
import { hashBytes, shannonEntropy } from './hashes.js';
import { pickModel } from './models.js';

/** How much of the file identification reads; headers of every supported format sit well inside it. */
export const IDENTIFY_PREFIX = 64 * 1024;

/** The submitter's description of the binary, in the reference API's vocabulary. */
export interface BinaryConfig {
  isa?: 'x86' | 'x86_64' | 'arm' | null;
  platform?: 'linux' | 'windows' | 'android' | null;
  /** Advisory only: the bytes decide the format; a blob claimed as PE stays raw. */
  file_format?: 'pe' | 'elf' | 'blob' | null;
}

export interface AnalyzeOptions {
  binaryConfig?: BinaryConfig;
}

export type ProgressCallback = (stage: string, fraction: number) => void;

/** The reference's ISA 'arm' names its arm-64 models, so it means AArch64 here. */
const ISA: Record<NonNullable<BinaryConfig['isa']>, { architecture: Architecture; bits: 32 | 64 }> = {
  x86: { architecture: 'x86', bits: 32 },
  x86_64: { architecture: 'x86_64', bits: 64 },
  arm: { architecture: 'arm64', bits: 64 },
};

/** Fill what the bytes could not tell (unknown architecture/platform) from the submitter's config. */
export function applyBinaryConfig(identity: BinaryIdentity, config: BinaryConfig | null | undefined): BinaryIdentity {
  if (!config) return identity;
  const out = { ...identity };
  const isa = config.isa ? ISA[config.isa] : undefined;
  if (isa && out.architecture === 'unknown') {
    out.architecture = isa.architecture;
    out.bits = isa.bits;
    // All three ISAs are little-endian as the models know them.
    out.endianness ??= 'little';
  }
  if (config.platform && out.platform === 'unknown') out.platform = config.platform;
  return out;
}

export function analyze(bytes: Uint8Array, options: AnalyzeOptions, onProgress?: ProgressCallback): AnalysisResult {
  onProgress?.('identify', 0);
  const identity = applyBinaryConfig(identify(bytes.subarray(0, IDENTIFY_PREFIX), bytes.length), options.binaryConfig);
  onProgress?.('hash', 0.25);
  const hashes = hashBytes(bytes);
  onProgress?.('entropy', 0.75);
  const entropy = shannonEntropy(bytes);
  onProgress?.('done', 1);
  return {
    identity,
    hashes,
    size: bytes.length,
    entropy,
    modelName: pickModel(identity),
    // Function recovery is a later stage; until it exists no functions are reported.
    functionCount: 0,
  };
}
