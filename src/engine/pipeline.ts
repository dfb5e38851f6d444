// One analysis run over a file's bytes: identify, fingerprint, choose a model, recover functions and
// strings. Deterministic: the same bytes and options always give the same result document.
import type { AnalysisResult, BinaryIdentity } from '../contracts/result.js';
import { packVectors } from '../shared/simhash.js';
import { applyBinaryConfig, type BinaryConfig } from './binary-config.js';
import { identify } from './formats/identify.js';
import { hashBytes, shannonEntropy } from './hashes.js';
import { detectLanguage } from './language.js';
import { pickModel } from './models.js';
import { describeCalls, describeFunctions, describeRefs, describeStrings } from './describe-functions.js';
import { createDemangler } from './names/index.js';
import type { RawLoad } from './formats/parse.js';
import { recoverBinaryFunctions, type ClientSymbols } from './recover-binary.js';
import { binaryFeatures } from './features/index.js';
import { functionVector } from './similarity/index.js';

/** How much of the file identification reads; headers of every supported format sit well inside it. */
export const IDENTIFY_PREFIX = 64 * 1024;

export interface AnalyzeOptions {
  binaryConfig?: BinaryConfig | null;
  symbols?: ClientSymbols | null;
  /** Bytes of a separate debug file uploaded for this binary (names for its stripped functions). */
  debug?: Uint8Array | null;
}

export type ProgressCallback = (stage: string, fraction: number) => void;

/**
 * What the bytes are and how to load them: a container parses itself; a blob loads raw at the client's
 * base address as the ISA its config names. Analysis and later re-disassembly (block text) share this.
 */
export function loadPlan(
  bytes: Uint8Array,
  options: Pick<AnalyzeOptions, 'binaryConfig' | 'symbols'>,
): { identity: BinaryIdentity; raw: RawLoad | undefined } {
  const identity = applyBinaryConfig(identify(bytes.subarray(0, IDENTIFY_PREFIX), bytes.length), options.binaryConfig);
  const raw = identity.format === 'raw' ? { target: identity, base: options.symbols?.baseAddress ?? 0 } : undefined;
  return { identity, raw };
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
  const { identity, raw } = loadPlan(bytes, options);
  onProgress?.('hash', 0.05);
  const hashes = hashBytes(bytes);
  const entropy = shannonEntropy(bytes);
  const base: AnalysisResult = {
    identity,
    hashes,
    size: bytes.length,
    entropy,
    modelName: pickModel(identity),
    language: 'unknown',
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
    vectors: null,
    diagnostics: [],
  };
  if (identity.format === 'raw' && identity.architecture === 'unknown') return base;

  onProgress?.('recover', 0.15);
  const { image, graph, debugNamed, decoders } = await recoverBinaryFunctions(bytes, {
    ...(raw ? { raw } : {}),
    symbols: options.symbols ?? null,
    debug: options.debug ?? null,
  });
  onProgress?.('names', 0.8);
  const functions = describeFunctions(graph, await createDemangler(), debugNamed);
  onProgress?.('strings', 0.9);
  const strings = describeStrings(graph, image);
  onProgress?.('vectors', 0.93);
  const vectors = packVectors(binaryFeatures(image, graph, decoders).map((f) => functionVector(f)));
  onProgress?.('done', 1);
  return {
    ...base,
    // A raw blob is what the caller said it is; a container says for itself.
    identity: raw
      ? identity
      : { ...image.identity, debug: image.identity.debug || image.debug.dwarf || debugNamed.size > 0 },
    language: detectLanguage(image),
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
    vectors,
    diagnostics: [...image.diagnostics],
  };
}
