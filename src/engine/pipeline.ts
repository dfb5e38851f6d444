// One analysis run over a file's bytes, as a declared list of stages over one context (STAGES below):
// identify, hash, parse, recover, names, strings, instructions, vectors, capabilities, sbom.
// Deterministic: the same bytes and options always give the same result document.
import type { AnalysisResult, BinaryIdentity, FileHashes } from '../contracts/result.js';
import type { FunctionRecord, StringRecord } from '../shared/analysis-records.js';
import type { CapabilityReport, FrozenFeatures, LibraryRecord } from '../contracts/understanding.js';
import type { PackedVectors } from '../shared/simhash.js';
import { applyBinaryConfig, type BinaryConfig } from './binary-config.js';
import type { RuleSet } from './capabilities/index.js';
import type { FunctionGraph } from './cfg/index.js';
import { describeCalls, describeFunctions, describeRefs, describeStrings } from './describe-functions.js';
import type { Decoders } from './disasm/index.js';
import { encodeInstructions, type Encodings } from './encodings/index.js';
import { binaryFunctionInputs } from './features/index.js';
import type { BinaryImage } from './formats/image.js';
import { identify } from './formats/identify.js';
import type { RawLoad } from './formats/parse.js';
import { hashBytes, shannonEntropy } from './hashes.js';
import { detectLanguage } from './language.js';
import { pickModel } from './models.js';
import { guardedDemangler, type DemangleFunction } from './names/index.js';
import { loadImage, recoverImage, type ClientSymbols } from './recover-binary.js';
import { identifyLibraries } from './sbom/index.js';
import { packedFunctionVectors } from './similarity/index.js';
import { extractStrings, type FoundString } from './strings/index.js';
import { understandCapabilities } from './understand.js';
import { functionTypes, recoverFunctionSignatures } from './types/index.js';
import { decompile, type Decompilation } from './decompile/index.js';
import type { FunctionTypesRecord } from '../shared/type-records.js';

/** How much of the file identification reads; headers of every supported format sit well inside it. */
export const IDENTIFY_PREFIX = 64 * 1024;

export interface AnalyzeOptions {
  binaryConfig?: BinaryConfig | null;
  symbols?: ClientSymbols | null;
  /** Bytes of a separate debug file uploaded for this binary (names for its stripped functions). */
  debug?: Uint8Array | null;
  /** Compiled capability rules, when capabilities are to be generated. */
  rules?: RuleSet | null;
  /** Identify the libraries the binary carries. */
  sbom?: boolean;
  /** C++/Rust demangler the host loaded (jobs/demangler.ts); without one, names stay as the binary has them. */
  demangle?: DemangleFunction | null;
}

/**
 * Told as each stage begins, with the share of the analysis done before it and what the stage does ('done', 1
 * at the end). A listener that returns a promise is awaited, so a host can record progress (in a database) as
 * the analysis moves.
 */
export type ProgressCallback = (stage: StageName | 'done', fraction: number, label: string) => void | Promise<void>;

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

/** Everything the stages of one analysis read and produce. */
interface AnalysisContext {
  bytes: Uint8Array;
  options: AnalyzeOptions;
  identity: BinaryIdentity;
  raw: RawLoad | undefined;
  hashes: FileHashes;
  entropy: number;
  image: BinaryImage;
  debugNamed: Set<number>;
  /** The uploaded debug file, when it belongs to the binary. */
  debugImage: BinaryImage | null;
  graph: FunctionGraph;
  decoders: Decoders;
  functions: FunctionRecord[];
  found: FoundString[];
  strings: StringRecord[];
  encodings: Encodings;
  vectors: PackedVectors;
  capabilities: CapabilityReport | null;
  capabilityFeatures: FrozenFeatures | null;
  sbom: LibraryRecord[] | null;
  types: FunctionTypesRecord[] | null;
}

type Key = keyof AnalysisContext;

/** The analysis's stages, in order (STAGES gives each its work). */
export const STAGE_NAMES = [
  'identify',
  'hash',
  'parse',
  'recover',
  'names',
  'types',
  'strings',
  'instructions',
  'vectors',
  'capabilities',
  'sbom',
] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** One step of the analysis: what it reads, what it adds, and its share of the progress bar. */
interface Stage<N extends Key, P extends Key> {
  name: StageName;
  /** What it does, for people watching an analysis. */
  label: string;
  needs: readonly N[];
  produces: readonly P[];
  weight: number;
  run(ctx: Pick<AnalysisContext, N>): Pick<AnalysisContext, P> | Promise<Pick<AnalysisContext, P>>;
}

/** Keeps each stage's `run` checked against its own `needs` and `produces`. */
const stage = <N extends Key, P extends Key>(s: Stage<N, P>): Stage<Key, Key> => s as unknown as Stage<Key, Key>;

/** Stages that need no instruction set: a file in no known container, without one to read it as, stops there. */
const BEFORE_CODE: StageName[] = ['identify', 'hash'];

/**
 * The analysis, in order. Recovery decodes each instruction once; `instructions` formats each distinct
 * encoding once, and every later consumer reads those instead of decoding again.
 */
const STAGES: Stage<Key, Key>[] = [
  stage({
    name: 'identify',
    label: 'Identifying the file',
    needs: ['bytes', 'options'],
    produces: ['identity', 'raw'],
    weight: 0,
    run: ({ bytes, options }) => loadPlan(bytes, options),
  }),
  stage({
    name: 'hash',
    label: 'Hashing',
    needs: ['bytes'],
    produces: ['hashes', 'entropy'],
    weight: 5,
    run: ({ bytes }) => ({ hashes: hashBytes(bytes), entropy: shannonEntropy(bytes) }),
  }),
  stage({
    name: 'parse',
    label: 'Parsing the container',
    needs: ['bytes', 'raw', 'options'],
    produces: ['image', 'debugNamed', 'debugImage'],
    weight: 3,
    run: ({ bytes, raw, options }) => loadImage(bytes, { ...(raw ? { raw } : {}), debug: options.debug ?? null }),
  }),
  stage({
    name: 'recover',
    label: 'Recovering functions',
    needs: ['image', 'options'],
    produces: ['graph', 'decoders'],
    weight: 30,
    run: ({ image, options }) => recoverImage(image, options.symbols),
  }),
  stage({
    name: 'names',
    label: 'Naming functions',
    needs: ['graph', 'debugNamed', 'options'],
    produces: ['functions'],
    weight: 4,
    run: ({ graph, debugNamed, options }) => ({
      functions: describeFunctions(graph, guardedDemangler(options.demangle), debugNamed),
    }),
  }),
  stage({
    name: 'types',
    label: 'Recovering data types',
    needs: ['image', 'graph', 'decoders', 'functions', 'debugImage'],
    produces: ['types'],
    weight: 10,
    run: ({ image, graph, decoders, functions, debugImage }) => ({
      types: functionTypes(image, graph, decoders, functions, debugImage),
    }),
  }),
  stage({
    name: 'strings',
    label: 'Extracting strings',
    needs: ['image', 'graph'],
    produces: ['found', 'strings'],
    weight: 4,
    run: ({ image, graph }) => {
      const found = extractStrings(image);
      return { found, strings: describeStrings(graph, image, found) };
    },
  }),
  stage({
    name: 'instructions',
    label: 'Reading instructions',
    needs: ['image', 'graph', 'decoders'],
    produces: ['encodings'],
    weight: 15,
    run: ({ image, graph, decoders }) => ({ encodings: encodeInstructions(image, graph, decoders) }),
  }),
  stage({
    name: 'vectors',
    label: 'Computing similarity vectors',
    needs: ['image', 'graph', 'encodings', 'found'],
    produces: ['vectors'],
    weight: 15,
    run: ({ image, graph, encodings, found }) => ({
      vectors: packedFunctionVectors(binaryFunctionInputs(image, graph, encodings, found)),
    }),
  }),
  stage({
    name: 'capabilities',
    label: 'Matching capability rules',
    needs: ['image', 'graph', 'encodings', 'found', 'options'],
    produces: ['capabilities', 'capabilityFeatures'],
    weight: 20,
    run: ({ image, graph, encodings, found, options }) => {
      if (!options.rules) return { capabilities: null, capabilityFeatures: null };
      const u = understandCapabilities(image, graph, encodings, found, options.rules);
      return { capabilities: u.capabilities, capabilityFeatures: u.features };
    },
  }),
  stage({
    name: 'sbom',
    label: 'Identifying libraries',
    needs: ['image', 'found', 'options'],
    produces: ['sbom'],
    weight: 4,
    run: ({ image, found, options }) => ({ sbom: options.sbom ? identifyLibraries(found, image.libraries) : null }),
  }),
];

/**
 * Runs the stages in order over one context: reports each as it begins (with the share of the analysis
 * done before it, by weight), and checks what it needs is there; a listener times stages from those
 * reports and knows the failing one as the last reported. Stops after identification and hashing when
 * there is no code to read.
 */
async function runStages(
  ctx: Partial<AnalysisContext>,
  stages: Stage<Key, Key>[],
  onProgress?: ProgressCallback,
): Promise<void> {
  const total = stages.reduce((n, s) => n + s.weight, 0);
  let done = 0;
  for (const s of stages) {
    if (!BEFORE_CODE.includes(s.name) && ctx.identity?.format === 'raw' && ctx.identity.architecture === 'unknown')
      break;
    await onProgress?.(s.name, done / total, s.label);
    const missing = s.needs.filter((k) => !(k in ctx));
    if (missing.length > 0)
      throw new Error(`stage ${s.name} needs ${missing.join(', ')}: an earlier stage must produce it`);
    Object.assign(ctx, await s.run(ctx as AnalysisContext));
    done += s.weight;
  }
  await onProgress?.('done', 1, 'Done');
}

/**
 * The whole static analysis of one file: identify, parse the container, recover functions, extract
 * strings and references, name functions, vectors, capabilities, libraries. A file in no known
 * container, without an ISA to read it as a raw blob, gets identity and hashes only.
 */
export async function analyze(
  bytes: Uint8Array,
  options: AnalyzeOptions,
  onProgress?: ProgressCallback,
): Promise<AnalysisResult> {
  const ctx: Partial<AnalysisContext> = { bytes, options };
  await runStages(ctx, ANALYSIS_STAGES, onProgress);
  return resultOf(ctx as AnalysisContext);
}

/** The analysis runs every stage but data types, which are generated on request (analyzeTypes). */
const ANALYSIS_STAGES = STAGES.filter((s) => s.name !== 'types');

/** What data-type generation runs: the functions as the analysis found them, then their types. */
const TYPE_STAGES: StageName[] = ['identify', 'parse', 'recover', 'names', 'types'];

/**
 * The data types of every function of one file (its analysis's functions, found again the same way: the
 * analysis is deterministic), for the data-types job and `binlens types`.
 */
export async function analyzeTypes(
  bytes: Uint8Array,
  options: Omit<AnalyzeOptions, 'rules' | 'sbom'>,
  onProgress?: ProgressCallback,
): Promise<FunctionTypesRecord[]> {
  const ctx: Partial<AnalysisContext> = { bytes, options };
  await runStages(
    ctx,
    STAGES.filter((s) => TYPE_STAGES.includes(s.name)),
    onProgress,
  );
  return ctx.types ?? [];
}

/**
 * C for the functions `wanted` picks among the file's functions (names as the analysis gives them, or
 * start addresses; all when null), and for every function of the file they call. `renamed` gives functions,
 * by start address, the names their users chose since (the stored analysis's names); `edited` the data
 * types they gave functions (the rest have the types generation finds: DWARF's, a library's, recovered).
 */
export async function analyzeDecompilation(
  bytes: Uint8Array,
  options: Omit<AnalyzeOptions, 'rules' | 'sbom'>,
  wanted: (string | number)[] | null,
  onProgress?: ProgressCallback,
  renamed?: ReadonlyMap<number, string>,
  edited?: ReadonlyMap<number, FunctionTypesRecord>,
): Promise<Decompilation> {
  const ctx: Partial<AnalysisContext> = { bytes, options };
  await runStages(
    ctx,
    STAGES.filter((s) => DECOMPILE_STAGES.includes(s.name)),
    onProgress,
  );
  const { image, graph, decoders, functions, debugImage } = ctx as AnalysisContext;
  // Recovered once: the data types and the decompiler both start from them.
  const signatures = recoverFunctionSignatures(image, graph, decoders);
  const types = functionTypes(image, graph, decoders, functions, debugImage, signatures);
  const typed = new Map(types.map((t) => [t.vaddr, t]));
  for (const [vaddr, t] of edited ?? []) typed.set(vaddr, t);
  const roots = wanted
    ? wanted.map((w) => {
        const i = functions.findIndex((f) => (typeof w === 'number' ? f.vaddr === w : f.name === w));
        if (i < 0) throw new NoSuchFunction(w);
        return i;
      })
    : functions.map((_, i) => i);
  return decompile(
    image,
    graph,
    decoders,
    roots,
    functions.map((f) => renamed?.get(f.vaddr) ?? f.name),
    typed,
    signatures,
  );
}

const DECOMPILE_STAGES: StageName[] = ['identify', 'parse', 'recover', 'names'];

/** A function asked for by name or address that the file does not have. */
export class NoSuchFunction extends Error {
  /** The request's fault: asking again gives the same answer. */
  readonly permanent = true;
  constructor(readonly wanted: string | number) {
    super(`no function ${typeof wanted === 'number' ? `at 0x${wanted.toString(16)}` : wanted} in the file`);
  }
}

/** The result document from whatever the stages produced. */
function resultOf(ctx: AnalysisContext): AnalysisResult {
  const { identity, raw, image, graph } = ctx;
  const base: AnalysisResult = {
    identity,
    hashes: ctx.hashes,
    size: ctx.bytes.length,
    entropy: ctx.entropy,
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
    capabilities: null,
    capabilityFeatures: null,
    sbom: null,
    diagnostics: [],
  };
  if (!graph) return base;
  return {
    ...base,
    // A raw blob is what the caller said it is; a container says for itself.
    identity: raw
      ? identity
      : { ...image.identity, debug: image.identity.debug || image.debug.dwarf || ctx.debugNamed.size > 0 },
    language: detectLanguage(image),
    functionCount: ctx.functions.length,
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
    functions: ctx.functions,
    calls: describeCalls(graph, image, ctx.functions),
    strings: ctx.strings,
    refs: describeRefs(graph),
    instructionCount: graph.instructionCount,
    vectors: ctx.vectors,
    capabilities: ctx.capabilities,
    capabilityFeatures: ctx.capabilityFeatures,
    sbom: ctx.sbom,
    diagnostics: [...image.diagnostics],
  };
}
