// Per-function features, capa-style: each extractor is a small pure function that emits `(group, key)`
// pairs from one function's instruction classes, CFG and references; a new feature is one new function.
// The result is plain JSON (group → key → count), so vectors can be rebuilt with other weights without
// disassembling again, and every dimension of a match can be explained by the keys behind it.
import { INSTRUCTION_CLASSES, type InstructionClass } from '../isa/index.js';

export const FEATURE_GROUPS = [
  'unigram',
  'bigram',
  'trigram',
  'cfg',
  'graphlet',
  'constant',
  'string',
  'import',
  'calls',
  'neighbour',
] as const;
export type FeatureGroup = (typeof FEATURE_GROUPS)[number];

/** group → feature key → how often it occurs in the function. */
export type FunctionFeatures = Partial<Record<FeatureGroup, Record<string, number>>>;

export interface BlockInput {
  /** Semantic classes of the block's instructions, in order (instruction-class.ts). */
  classes: InstructionClass[];
  /** Indices (into the function's blocks) of the blocks control can flow to. */
  succ: number[];
}

/** What extraction needs of one function, independent of architecture and container. */
export interface FunctionInput {
  /** Blocks in address order; block 0 is the entry. */
  blocks: BlockInput[];
  /** Non-address immediates, canonical signed decimal. */
  constants: string[];
  /** Text of the strings its instructions reference. */
  strings: string[];
  /** Names of the imported functions it calls. */
  imports: string[];
  /** Direct calls to functions of the same binary (call sites), and how many distinct callees. */
  internalCalls: number;
  distinctCallees: number;
  /** Call sites elsewhere in the binary that reach this function. */
  callers: number;
  /**
   * Imports and strings of the functions it calls directly (`import:free`, `string:…`): what an -O2
   * build inlines into this function an -O0 build leaves one call away, so one side's own features
   * meet the other's neighbourhood.
   */
  neighbours: string[];
}

/** Counts `key` in `group` once, or `count` times. */
export type Emit = (group: FeatureGroup, key: string, count?: number) => void;
type Extractor = (f: FunctionInput, emit: Emit) => void;

/** log2 buckets (0, 1, 2-3, 4-7, …): sizes change with -O level, their order of magnitude much less. */
export const bucket = (n: number): number => (n <= 0 ? 0 : 1 + Math.floor(Math.log2(n)));

const CLASS_INDEX = new Map<string, number>(INSTRUCTION_CLASSES.map((c, i) => [c, i]));
const CLASSES = INSTRUCTION_CLASSES.length;

/** N-gram `code` (classes as base-24 digits) → its key, `load add`: built once, not per occurrence. */
const ngramKeys = new Map<number, string>();
function ngramKey(n: number, code: number): string {
  let key = ngramKeys.get(n * CLASSES ** 3 + code);
  if (key === undefined) {
    const parts: string[] = [];
    for (let i = 0, c = code; i < n; i++, c = Math.floor(c / CLASSES)) parts.unshift(INSTRUCTION_CLASSES[c % CLASSES]!);
    key = parts.join(' ');
    ngramKeys.set(n * CLASSES ** 3 + code, key);
  }
  return key;
}

/**
 * N-grams counted by code in a typed array and emitted once each, in order of first occurrence (the
 * order, and so the vector, a count per occurrence gives): a string per position was a third of the
 * vectors stage.
 */
const ngrams = (n: 1 | 2 | 3, group: FeatureGroup): Extractor => {
  const counts = new Int32Array(CLASSES ** n);
  return (f, emit) => {
    const order: number[] = [];
    for (const { classes } of f.blocks) {
      const c = classes.map((x) => CLASS_INDEX.get(x)!);
      for (let i = 0; i + n <= c.length; i++) {
        let code = 0;
        for (let k = 0; k < n; k++) code = code * CLASSES + c[i + k]!;
        if (counts[code]!++ === 0) order.push(code);
      }
    }
    for (const code of order) {
      emit(group, ngramKey(n, code), counts[code]!);
      counts[code] = 0;
    }
  };
};

/** Depth-first back edges from the entry: each closes a loop. */
function backEdges(blocks: BlockInput[]): number {
  const state = new Uint8Array(blocks.length); // 0 unseen, 1 on stack, 2 done
  let back = 0;
  const stack: [number, number][] = blocks.length ? [[0, 0]] : [];
  if (blocks.length) state[0] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const succ = blocks[top[0]]!.succ;
    if (top[1] >= succ.length) {
      state[top[0]] = 2;
      stack.pop();
      continue;
    }
    const s = succ[top[1]++]!;
    if (state[s] === 1) back++;
    else if (state[s] === 0) {
      state[s] = 1;
      stack.push([s, 0]);
    }
  }
  return back;
}

const cfgShape: Extractor = (f, emit) => {
  const n = f.blocks.length;
  const indeg = new Int32Array(n);
  let edges = 0;
  for (const b of f.blocks) {
    edges += b.succ.length;
    for (const s of b.succ) indeg[s]!++;
  }
  const insns = f.blocks.reduce((a, b) => a + b.classes.length, 0);
  emit('cfg', `blocks:${bucket(n)}`);
  emit('cfg', `edges:${bucket(edges)}`);
  emit('cfg', `cyclomatic:${bucket(edges - n + 2)}`);
  emit('cfg', `loops:${bucket(backEdges(f.blocks))}`);
  emit('cfg', `insns:${bucket(insns)}`);
  emit('cfg', `exits:${bucket(f.blocks.filter((b) => b.succ.length === 0).length)}`);
  for (let i = 0; i < n; i++) {
    emit('cfg', `out:${Math.min(f.blocks[i]!.succ.length, 3)}`);
    emit('cfg', `in:${Math.min(indeg[i]!, 3)}`);
  }
};

/**
 * Graphlets: each block with its degrees and its successors' out-degrees (capped at 3, sorted), a
 * radius-1 neighbourhood that survives register allocation and instruction selection untouched.
 */
const graphlets: Extractor = (f, emit) => {
  const indeg = new Int32Array(f.blocks.length);
  for (const b of f.blocks) for (const s of b.succ) indeg[s]!++;
  const cap = (d: number) => Math.min(d, 3);
  f.blocks.forEach((b, i) => {
    const succ = b.succ.map((s) => cap(f.blocks[s]!.succ.length)).sort();
    emit('graphlet', `${cap(indeg[i]!)}>${cap(b.succ.length)}>${succ.join(',')}${b.succ.includes(i) ? '@' : ''}`);
  });
};

const constants: Extractor = (f, emit) => f.constants.forEach((c) => emit('constant', c));
const strings: Extractor = (f, emit) => f.strings.forEach((s) => emit('string', s));
const imports: Extractor = (f, emit) => f.imports.forEach((s) => emit('import', s));
const calls: Extractor = (f, emit) => {
  emit('calls', `sites:${bucket(f.internalCalls + f.imports.length)}`);
  emit('calls', `callees:${bucket(f.distinctCallees)}`);
  emit('calls', `imports:${bucket(new Set(f.imports).size)}`);
  emit('calls', `callers:${bucket(f.callers)}`);
  emit('calls', `strings:${bucket(f.strings.length)}`);
};

const neighbours: Extractor = (f, emit) => f.neighbours.forEach((k) => emit('neighbour', k));

export const EXTRACTORS: readonly Extractor[] = [
  ngrams(1, 'unigram'),
  ngrams(2, 'bigram'),
  ngrams(3, 'trigram'),
  cfgShape,
  graphlets,
  constants,
  strings,
  imports,
  calls,
  neighbours,
];

/** Runs every extractor over one function. */
export function extractFeatures(f: FunctionInput, emit: Emit): void {
  for (const x of EXTRACTORS) x(f, emit);
}

export function functionFeatures(f: FunctionInput): FunctionFeatures {
  // Counted in Maps (an object grown key by key is a slow dictionary), handed out as plain JSON.
  const groups = new Map<FeatureGroup, Map<string, number>>();
  extractFeatures(f, (group, key, count = 1) => {
    let g = groups.get(group);
    if (!g) groups.set(group, (g = new Map()));
    g.set(key, (g.get(key) ?? 0) + count);
  });
  const out: FunctionFeatures = {};
  for (const [group, counts] of groups) out[group] = Object.fromEntries(counts);
  return out;
}
