// One analysis run over a file's bytes: identify, fingerprint, choose a model, recover functions and
// strings. Deterministic: the same bytes and options always give the same result document.
import type { Architecture, AnalysisResult, BinaryIdentity } from '../contracts/result.js';
import { identify } from './formats/identify.js';
import { hashBytes, shannonEntropy } from './hashes.js';
import { pickModel } from './models.js';
import { describeCalls, describeFunctions, describeRefs, describeStrings } from './describe-functions.js';
import { createDemangler } from './names/index.js';
import { recoverBinaryFunctions, type ClientSymbols } from './recover-binary.js';

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
  binaryConfig?: BinaryConfig | null;
  symbols?: ClientSymbols | null;
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

/**
 * The whole static analysis of one file: identify, parse the container, recover functions, extract
 * strings and references, name functions. A file in no known container, without an ISA to read it as a
 * raw blob, gets identity and hashes only.
 */
export async function analyze(
  bytes: Uint8Array,
  options: AnalyzeOptions,
  onProgress?: ProgressCallback,
): Promise<AnalysisResult> {
  onProgress?.('identify', 0);
  const identity = applyBinaryConfig(identify(bytes.subarray(0, IDENTIFY_PREFIX), bytes.length), options.binaryConfig);
  onProgress?.('hash', 0.05);
  const hashes = hashBytes(bytes);
  const entropy = shannonEntropy(bytes);
  const base: AnalysisResult = {
    identity,
    hashes,
    size: bytes.length,
    entropy,
    modelName: pickModel(identity),
    functionCount: 0,
    sections: [],
    imports: [],
    exports: [],
    libraries: [],
    security: {},
    debugInfo: { dwarf: false, buildId: null, pdbPath: null, pdbGuid: null },
    stripped: true,
    functions: [],
    calls: [],
    strings: [],
    refs: [],
    instructionCount: 0,
    diagnostics: [],
  };
  if (identity.format === 'raw' && identity.architecture === 'unknown') return base;

  onProgress?.('recover', 0.15);
  const raw = identity.format === 'raw' ? { target: identity, base: options.symbols?.baseAddress ?? 0 } : undefined;
  const { image, graph } = await recoverBinaryFunctions(bytes, {
    ...(raw ? { raw } : {}),
    symbols: options.symbols ?? null,
  });
  onProgress?.('names', 0.8);
  const functions = describeFunctions(graph, await createDemangler());
  onProgress?.('strings', 0.9);
  const strings = describeStrings(graph, image);
  onProgress?.('done', 1);
  return {
    ...base,
    // A raw blob is what the caller said it is; a container says for itself.
    identity: raw ? identity : { ...image.identity, debug: image.identity.debug || image.debug.dwarf },
    functionCount: functions.length,
    sections: image.sections.map((s) => ({ ...s })),
    imports: image.imports.map((i) => ({ ...i, stubs: [...i.stubs] })),
    exports: image.exports.map((e) => ({ name: e.name, vaddr: e.vaddr })),
    libraries: [...image.libraries],
    security: { ...image.security },
    debugInfo: {
      dwarf: image.debug.dwarf,
      buildId: image.debug.buildId,
      pdbPath: image.debug.pdbPath,
      pdbGuid: image.debug.pdbGuid,
    },
    stripped: !image.symbols.some((s) => s.kind === 'function' && (s.source === 'symtab' || s.source === 'nlist')),
    functions,
    calls: describeCalls(graph, image, functions),
    strings,
    refs: describeRefs(graph),
    instructionCount: graph.instructionCount,
    diagnostics: [...image.diagnostics],
  };
}
