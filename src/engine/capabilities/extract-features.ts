// One binary's recovered functions → capability features per scope instance (capa's extractors): what
// each instruction does, what each block and function add, and the file's own features. Written straight
// into the frozen document kept with the analysis (interned keys, address deltas), so rules re-match
// without decoding again. Instruction text comes from engine/encodings, one per distinct encoding.
import type { BinaryFormat, Platform } from '../../contracts/result.js';
import type { FrozenFeatures } from '../../contracts/understanding.js';
import { CALL_NEXT, type FunctionGraph } from '../cfg/index.js';
import { Flow } from '../disasm/index.js';
import type { Encodings } from '../encodings/index.js';
import { isaFamily, isaProfile } from '../isa/index.js';
import { fileOffsetOf, type BinaryImage, type ImportInfo } from '../formats/image.js';
import { stringReferences, type FoundString } from '../strings/index.js';
import { apiNames, stringKey, valueKey } from './feature-key.js';
import { bytesKey, FeatureKeys } from './feature-set.js';
import { encodingCharacteristics, stackStringBytes } from './instruction-features.js';
import { operandFeatures } from './operand-features.js';

export const FROZEN_VERSION = 1;

/** Bytes read at a non-string data reference: enough for S-boxes and key schedules rules name. */
const REF_BYTES = 128;
/** Rules look for short literals; a multi-KiB string adds nothing a prefix does not. */
const MAX_STRING = 4096;
/** Instructions decoded per function, and per binary: bounds time on hostile or huge inputs. */
const MAX_FUNCTION_INSNS = 20_000;
const MAX_BINARY_INSNS = 4_000_000;
/** capa reports a stack string once a block writes this many printable characters to the frame. */
const STACK_STRING_CHARS = 8;
const INDIRECT_CALL = valueKey('characteristic', 'indirect call');
const CALL_NEXT_KEY = valueKey('characteristic', 'call $+5');
const STACK_STRING = valueKey('characteristic', 'stack string');

const OS: Partial<Record<Platform, string>> = {
  windows: 'windows',
  linux: 'linux',
  android: 'android',
  macos: 'macos',
};
const FORMAT: Partial<Record<BinaryFormat, string>> = { pe: 'pe', elf: 'elf', macho: 'macho' };

/** Instruction address → ids of the features the cross-reference tables give it (API calls, strings, data). */
type SiteFeatures = Map<number, number[]>;

function addAt(map: SiteFeatures, site: number, ids: number[]): void {
  const at = map.get(site);
  if (at) at.push(...ids);
  else map.set(site, [...ids]);
}

function importsByAddress(image: BinaryImage): Map<number, ImportInfo> {
  const out = new Map<number, ImportInfo>();
  for (const imp of image.imports) {
    out.set(imp.slot, imp);
    for (const s of imp.stubs) out.set(s, imp);
  }
  return out;
}

function siteFeatures(
  image: BinaryImage,
  graph: FunctionGraph,
  strings: FoundString[],
  keys: FeatureKeys,
): SiteFeatures {
  const apiKeys = (imp: ImportInfo): number[] =>
    apiNames(imp.library, imp.name).map((n) => keys.id(valueKey('api', n)));
  const sites: SiteFeatures = new Map();
  const imports = importsByAddress(image);
  const { site, target } = graph.calls;
  for (let c = 0; c < site.length; c++) {
    const imp = imports.get(target[c]!);
    if (imp) addAt(sites, site[c]!, apiKeys(imp));
  }
  for (const r of stringReferences(strings, graph))
    addAt(sites, r.site, [keys.id(stringKey(strings[r.string]!.value.slice(0, MAX_STRING)))]);
  // Other data a function reads (tables, keys, S-boxes) as bytes, once per target.
  const bytesAt = new Map<number, number | null>();
  const { site: refSite, target: refTarget } = graph.refs;
  for (let i = 0; i < refSite.length; i++) {
    const t = refTarget[i]!;
    const imp = imports.get(t);
    if (imp) {
      // `call [iat]` and `mov reg, [iat]` read the slot: the function uses that API.
      addAt(sites, refSite[i]!, apiKeys(imp));
      continue;
    }
    if (!bytesAt.has(t)) {
      const run = dataBytes(image, t);
      bytesAt.set(t, run === null ? null : keys.id(run));
    }
    const id = bytesAt.get(t);
    if (id != null) addAt(sites, refSite[i]!, [id]);
  }
  return sites;
}

/** The bytes at a data address, or null when unmapped or all zero (uninitialised). */
function dataBytes(image: BinaryImage, vaddr: number): string | null {
  const off = fileOffsetOf(image, vaddr);
  if (off < 0) return null;
  const run = image.bytes.subarray(off, Math.min(off + REF_BYTES, image.bytes.length));
  return run.length > 0 && run.some((b) => b !== 0) ? bytesKey(run) : null;
}

/** Cycles in the function's CFG (capa's `loop`), by depth-first search from its first block. */
function hasLoop(succ: number[][]): boolean {
  const state = new Uint8Array(succ.length); // 0 new, 1 on the stack, 2 done
  const stack: [number, number][] = [];
  for (let root = 0; root < succ.length; root++) {
    if (state[root]) continue;
    stack.push([root, 0]);
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = succ[top[0]]![top[1]++];
      if (next === undefined) {
        state[top[0]] = 2;
        stack.pop();
      } else if (state[next] === 1) return true;
      else if (state[next] === 0) {
        state[next] = 1;
        stack.push([next, 0]);
      }
    }
  }
  return false;
}

/** `[key, address]` pairs of the file scope. */
function fileFeatures(image: BinaryImage, strings: FoundString[]): [string, number][] {
  const out: [string, number][] = [];
  const { format, architecture, platform } = image.identity;
  if (FORMAT[format]) out.push([valueKey('format', FORMAT[format]), 0]);
  const isa = isaProfile(architecture);
  if (isa) out.push([valueKey('arch', isa.names.capa), 0]);
  if (OS[platform]) out.push([valueKey('os', OS[platform]), 0]);
  for (const imp of image.imports)
    for (const n of apiNames(imp.library, imp.name)) out.push([valueKey('import', n), imp.slot]);
  for (const e of image.exports) out.push([valueKey('export', e.name), e.vaddr]);
  for (const s of image.sections) out.push([valueKey('section', s.name), s.vaddr]);
  for (const s of strings) out.push([stringKey(s.value.slice(0, MAX_STRING)), s.vaddr]);
  if (embeddedPe(image.bytes)) out.push([valueKey('characteristic', 'embedded pe'), 0]);
  return out;
}

/** A PE image after the start of the file: `MZ` whose e_lfanew points at `PE\0\0`. */
function embeddedPe(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = bytes.indexOf(0x4d, 1); i >= 0 && i + 0x40 <= bytes.length; i = bytes.indexOf(0x4d, i + 1)) {
    if (bytes[i + 1] !== 0x5a) continue;
    const pe = i + view.getUint32(i + 0x3c, true);
    if (pe + 4 <= bytes.length && view.getUint32(pe, true) === 0x4550) return true;
  }
  return false;
}

/** What one distinct encoding contributes to every instruction of it. */
interface EncodingFeatures {
  ids: number[];
  stackChars: number;
}

/** Per distinct encoding, the key ids and stack-string bytes every instruction of it contributes. */
function encodingFeatures(
  encodings: Encodings,
  keys: FeatureKeys,
  isAddress: (v: number) => boolean,
): (id: number) => EncodingFeatures | null {
  // Filled out of order: allocated whole so it stays a flat array, not a dictionary.
  const known: (EncodingFeatures | null | undefined)[] = new Array<undefined>(encodings.text.length).fill(undefined);
  return (id) => {
    let x = known[id];
    if (x === undefined) {
      const text = encodings.text[id]!;
      const mode = encodings.mode[id]!;
      const family = isaFamily(mode);
      x = text && {
        ids: [
          valueKey('mnemonic', text.mnemonic),
          ...operandFeatures(family, text.mnemonic, text.operands, isAddress),
          ...encodingCharacteristics(mode, text).map((c) => valueKey('characteristic', c)),
        ].map((k) => keys.id(k)),
        stackChars: stackStringBytes(family, text),
      };
      known[id] = x;
    }
    return x;
  };
}

/** Function-scope call features: `calls from` at each site, `calls to` at each caller's, `recursive call`. */
function callFeatures(graph: FunctionGraph): [string, number][][] {
  const funcAt = new Map<number, number>(graph.functions.map((f, i) => [f.start, i]));
  const out: [string, number][][] = graph.functions.map(() => []);
  const { site, caller, target } = graph.calls;
  for (let c = 0; c < site.length; c++) {
    const from = caller[c]!;
    out[from]?.push([valueKey('characteristic', 'calls from'), site[c]!]);
    const callee = funcAt.get(target[c]!);
    if (callee === undefined) continue;
    out[callee]!.push([valueKey('characteristic', 'calls to'), site[c]!]);
    if (callee === from) out[from]!.push([valueKey('characteristic', 'recursive call'), site[c]!]);
  }
  return out;
}

/** What the walk over one analysis's instructions shares: lookups, and the instructions left to read. */
interface Walk {
  graph: FunctionGraph;
  encodings: Encodings;
  keys: FeatureKeys;
  sites: SiteFeatures;
  featuresOf: (id: number) => EncodingFeatures | null;
  /** Instructions still to read, in the binary and in the current function. */
  budget: number;
  fnBudget: number;
}

/** One block's instructions as `[address delta, n, …n key ids]`, and the block's own features. */
function blockDoc(w: Walk, gb: number): FrozenFeatures['functions'][number]['b'][number] {
  const { graph, sites } = w;
  const { addr, flow, bits } = graph.insns;
  const of = w.encodings.of;
  const start = graph.blocks.start[gb]!;
  const first = graph.blocks.firstInsn[gb]!;
  // Each instruction read, the one that stops the walk included, is charged to both budgets.
  const last = first + Math.max(0, Math.min(graph.blocks.insns[gb]!, w.fnBudget, w.budget));
  const i: number[] = [];
  let stackChars = 0;
  let prev = start;
  let k = first;
  for (; k < last; k++) {
    const id = of[k]!;
    const x = id < 0 ? null : w.featuresOf(id);
    if (!x) {
      k++;
      break;
    }
    const v = addr[k]!;
    const at = sites.get(v);
    const indirect = flow[k] === Flow.IndirectCall;
    const next = (bits[k]! & CALL_NEXT) !== 0;
    const ids = x.ids;
    i.push(v - prev, ids.length + (indirect ? 1 : 0) + (next ? 1 : 0) + (at === undefined ? 0 : at.length));
    for (let j = 0; j < ids.length; j++) i.push(ids[j]!);
    if (indirect) i.push(w.keys.id(INDIRECT_CALL));
    if (next) i.push(w.keys.id(CALL_NEXT_KEY));
    if (at !== undefined) for (let j = 0; j < at.length; j++) i.push(at[j]!);
    stackChars += x.stackChars;
    prev = v;
  }
  w.fnBudget -= k - first;
  w.budget -= k - first;
  return { a: start, f: stackChars >= STACK_STRING_CHARS ? [w.keys.id(STACK_STRING), start] : [], i };
}

export function capabilityFeatures(
  image: BinaryImage,
  graph: FunctionGraph,
  encodings: Encodings,
  strings: FoundString[],
): FrozenFeatures {
  const keys = new FeatureKeys();
  const pairs = (list: [string, number][]): number[] => list.flatMap(([k, a]) => [keys.id(k), a]);
  const isAddress = (v: number) => v >= 0x10000 && fileOffsetOf(image, v) >= 0;
  const walk: Walk = {
    graph,
    encodings,
    keys,
    sites: siteFeatures(image, graph, strings, keys),
    featuresOf: encodingFeatures(encodings, keys, isAddress),
    budget: MAX_BINARY_INSNS,
    fnBudget: 0,
  };
  const fnExtra = callFeatures(graph);
  const edgesOf: number[][] = graph.functions.map(() => []);
  for (let e = 0; e < graph.edges.from.length; e++) edgesOf[graph.blocks.func[graph.edges.from[e]!]!]?.push(e);
  // An import's stub (`jmp [iat]` thunk, PLT entry) is not code of the binary: calls to it are API calls
  // of the caller, and the stub itself would otherwise "do" every API the binary imports.
  const stubs = new Set(image.imports.flatMap((i) => i.stubs));
  const functions: FrozenFeatures['functions'] = graph.functions.map((f, fi) => {
    if (stubs.has(f.start)) return { a: f.start, f: [], b: [] };
    walk.fnBudget = MAX_FUNCTION_INSNS;
    const blocks: FrozenFeatures['functions'][number]['b'] = [];
    for (let b = 0; b < f.blockCount; b++) blocks.push(blockDoc(walk, f.firstBlock + b));
    const local = new Map<number, number>();
    for (let b = 0; b < f.blockCount; b++) local.set(graph.blocks.start[f.firstBlock + b]!, b);
    const succ: number[][] = Array.from({ length: f.blockCount }, () => []);
    const { from, to } = graph.edges;
    for (const e of edgesOf[fi]!) {
      const b = from[e]! - f.firstBlock;
      if (b < 0 || b >= f.blockCount) continue;
      const t = local.get(to[e]!);
      if (t === undefined) continue;
      succ[b]!.push(t);
      if (t === b) blocks[b]!.f.push(keys.id(valueKey('characteristic', 'tight loop')), blocks[b]!.a);
    }
    const features = fnExtra[fi]!;
    if (hasLoop(succ)) features.push([valueKey('characteristic', 'loop'), f.start]);
    return { a: f.start, f: pairs(features), b: blocks };
  });
  const file = pairs(fileFeatures(image, strings));
  return { version: FROZEN_VERSION, keys: keys.keys, file, functions };
}
