// One binary's recovered functions → capability features per scope instance (capa's extractors): what
// each instruction does, what each block and function add, and the file's own features. The result is
// plain data, kept with the analysis so rules re-match without decoding again.
import type { Architecture, BinaryFormat, Platform } from '../../contracts/result.js';
import type { FunctionGraph } from '../cfg/index.js';
import { decoderOf, newDecoded, type Decoders } from '../disasm/index.js';
import { isaFamily } from '../features/instruction-class.js';
import { fileOffsetOf, type BinaryImage, type ImportInfo } from '../formats/image.js';
import { extractStrings, stringReferences, type FoundString } from '../strings/index.js';
import { apiNames, stringKey, valueKey } from './feature-key.js';
import {
  bytesKey,
  type BlockFeatures,
  type ExtractedFeatures,
  type FeatureList,
  type FunctionFeaturesDoc,
} from './feature-set.js';
import { instructionCharacteristics, stackStringBytes } from './instruction-features.js';
import { operandFeatures } from './operand-features.js';

/** Bytes read at a non-string data reference: enough for S-boxes and key schedules rules name. */
const REF_BYTES = 128;
/** Rules look for short literals; a multi-KiB string adds nothing a prefix does not. */
const MAX_STRING = 4096;
/** Instructions decoded per function, and per binary: bounds time on hostile or huge inputs. */
const MAX_FUNCTION_INSNS = 20_000;
const MAX_BINARY_INSNS = 4_000_000;
/** capa reports a stack string once a block writes this many printable characters to the frame. */
const STACK_STRING_CHARS = 8;

const ARCH: Partial<Record<Architecture, string>> = {
  x86: 'i386',
  x86_64: 'amd64',
  arm64: 'aarch64',
  arm: 'arm',
  mips: 'mips',
};
const OS: Partial<Record<Platform, string>> = {
  windows: 'windows',
  linux: 'linux',
  android: 'android',
  macos: 'macos',
};
const FORMAT: Partial<Record<BinaryFormat, string>> = { pe: 'pe', elf: 'elf', macho: 'macho' };

/** Instruction address → features the cross-reference tables give it (API calls, strings, data). */
type SiteFeatures = Map<number, string[]>;

function addAt(map: SiteFeatures, site: number, keys: string[]): void {
  const at = map.get(site);
  if (at) at.push(...keys);
  else map.set(site, [...keys]);
}

function importsByAddress(image: BinaryImage): Map<number, ImportInfo> {
  const out = new Map<number, ImportInfo>();
  for (const imp of image.imports) {
    out.set(imp.slot, imp);
    for (const s of imp.stubs) out.set(s, imp);
  }
  return out;
}

const apiKeys = (imp: ImportInfo): string[] => apiNames(imp.library, imp.name).map((n) => valueKey('api', n));

function siteFeatures(image: BinaryImage, graph: FunctionGraph, strings: FoundString[]): SiteFeatures {
  const sites: SiteFeatures = new Map();
  const imports = importsByAddress(image);
  const { site, target } = graph.calls;
  for (let c = 0; c < site.length; c++) {
    const imp = imports.get(target[c]!);
    if (imp) addAt(sites, site[c]!, apiKeys(imp));
  }
  for (const r of stringReferences(strings, graph))
    addAt(sites, r.site, [stringKey(strings[r.string]!.value.slice(0, MAX_STRING))]);
  // Other data a function reads (tables, keys, S-boxes) as bytes, once per target.
  const bytesAt = new Map<number, string | null>();
  const { site: refSite, target: refTarget } = graph.refs;
  for (let i = 0; i < refSite.length; i++) {
    const t = refTarget[i]!;
    const imp = imports.get(t);
    if (imp) {
      // `call [iat]` and `mov reg, [iat]` read the slot: the function uses that API.
      addAt(sites, refSite[i]!, apiKeys(imp));
      continue;
    }
    if (!bytesAt.has(t)) bytesAt.set(t, dataBytes(image, t));
    const key = bytesAt.get(t);
    if (key) addAt(sites, refSite[i]!, [key]);
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

function fileFeatures(image: BinaryImage, strings: FoundString[]): FeatureList {
  const out: FeatureList = [];
  const { format, architecture, platform } = image.identity;
  if (FORMAT[format]) out.push([valueKey('format', FORMAT[format]), 0]);
  if (ARCH[architecture]) out.push([valueKey('arch', ARCH[architecture]), 0]);
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

export function capabilityFeatures(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  strings: FoundString[] = extractStrings(image),
): ExtractedFeatures {
  const sites = siteFeatures(image, graph, strings);
  const d = newDecoded();
  const isAddress = (v: number) => v >= 0x10000 && fileOffsetOf(image, v) >= 0;
  const funcAt = new Map<number, number>(graph.functions.map((f, i) => [f.start, i]));
  const fnExtra: FeatureList[] = graph.functions.map(() => []);
  const { site, caller, target } = graph.calls;
  for (let c = 0; c < site.length; c++) {
    const from = caller[c]!;
    fnExtra[from]?.push([valueKey('characteristic', 'calls from'), site[c]!]);
    const callee = funcAt.get(target[c]!);
    if (callee === undefined) continue;
    fnExtra[callee]!.push([valueKey('characteristic', 'calls to'), site[c]!]);
    if (callee === from) fnExtra[from]!.push([valueKey('characteristic', 'recursive call'), site[c]!]);
  }
  const edgesOf: number[][] = graph.functions.map(() => []);
  for (let e = 0; e < graph.edges.from.length; e++) edgesOf[graph.blocks.func[graph.edges.from[e]!]!]?.push(e);
  let budget = MAX_BINARY_INSNS;
  const functions: FunctionFeaturesDoc[] = graph.functions.map((f, fi) => {
    const decoder = decoderOf(decoders, f.thumb);
    const family = isaFamily(decoder.mode);
    const local = new Map<number, number>();
    for (let b = 0; b < f.blockCount; b++) local.set(graph.blocks.start[f.firstBlock + b]!, b);
    const succ: number[][] = Array.from({ length: f.blockCount }, () => []);
    let fnBudget = MAX_FUNCTION_INSNS;
    const blocks: BlockFeatures[] = [];
    for (let b = 0; b < f.blockCount; b++) {
      const gb = f.firstBlock + b;
      const start = graph.blocks.start[gb]!;
      const end = graph.blocks.end[gb]!;
      const bb: BlockFeatures = { address: start, features: [], instructions: [] };
      let stackChars = 0;
      let off = fileOffsetOf(image, start);
      for (let v = start; off >= 0 && v < end && fnBudget > 0 && budget > 0; fnBudget--, budget--) {
        const text = decoder.text(image.bytes, off, v);
        if (!text || !decoder.decode(image.bytes, off, v, d) || d.length === 0) break;
        const features: FeatureList = [[valueKey('mnemonic', text.mnemonic), v]];
        for (const k of operandFeatures(family, text.mnemonic, text.operands, isAddress)) features.push([k, v]);
        for (const c of instructionCharacteristics(decoder.mode, text, d, v))
          features.push([valueKey('characteristic', c), v]);
        for (const k of sites.get(v) ?? []) features.push([k, v]);
        stackChars += stackStringBytes(family, text);
        bb.instructions.push({ address: v, features });
        v += d.length;
        off += d.length;
      }
      if (stackChars >= STACK_STRING_CHARS) bb.features.push([valueKey('characteristic', 'stack string'), start]);
      blocks.push(bb);
    }
    const { from, to } = graph.edges;
    for (const e of edgesOf[fi]!) {
      const b = from[e]! - f.firstBlock;
      if (b < 0 || b >= f.blockCount) continue;
      const t = local.get(to[e]!);
      if (t === undefined) continue;
      succ[b]!.push(t);
      if (t === b) blocks[b]!.features.push([valueKey('characteristic', 'tight loop'), blocks[b]!.address]);
    }
    const features = fnExtra[fi]!;
    if (hasLoop(succ)) features.push([valueKey('characteristic', 'loop'), f.start]);
    return { address: f.start, features, blocks };
  });
  return { file: fileFeatures(image, strings), functions };
}
