import { Flow, newDecoded, type Decoder } from '../disasm/instruction.js';
import { newPairState } from '../disasm/pair-ref.js';
import type { BinaryImage } from '../formats/image.js';
import { formBlocks, type Block } from './blocks.js';
import { explore, type Bound, type Exploration, type ExploreContext } from './explore.js';
import { Column } from './growable.js';
import { isNoReturnName } from './no-return.js';
import { paddingLength } from './padding.js';
import { codeRegions, regionAt, type CodeRegion } from './regions.js';
import { collectSeeds, type ClientFunction, type Seed } from './seeds.js';
import { mipsSwitchTargets, thumbSwitchTargets, x86SwitchTargets } from './switch-tables.js';
import { fileOffsetOf } from '../formats/image.js';
import { CallKind, type FunctionGraph, type RecoveredFunction } from './types.js';

export interface RecoverOptions {
  /** Decoder for the image's instruction set; `thumb` too for ARM images. */
  decoder: Decoder;
  thumbDecoder?: Decoder;
  /** ARM: functions whose mode no symbol states are Thumb (the entry point is). */
  thumbByDefault?: boolean;
  /** Boundaries a disassembler plugin sent: used instead of recovery's own starts. */
  client?: ClientFunction[];
  /** Upper bound on instructions decoded in all (hostile inputs). */
  maxInstructions?: number;
}

interface Found {
  seed: Seed;
  x: Exploration;
}

/**
 * Work bound, in decoded instructions (each gap candidate costs at least one): real code needs about one
 * per 4 bytes plus the failed gap attempts; half the code size (at least 2 M, at most 20 M) leaves room for
 * both, and stops a blob of junk claimed as code from scanning for minutes.
 */
const maxInstructionsFor = (regions: CodeRegion[]) =>
  Math.min(20_000_000, Math.max(2_000_000, Math.floor(regions.reduce((n, r) => n + r.bytes.length, 0) / 2)));

/**
 * Function recovery: every start the file vouches for (symbols, exports, entry points, unwind tables,
 * client boundaries), then the targets of direct calls and tail jumps found while descending through
 * those, then whatever code no function claims (gap scanning, after alignment padding).
 */
export function recoverFunctions(image: BinaryImage, opts: RecoverOptions): FunctionGraph {
  const regions = codeRegions(image);
  const seeds = collectSeeds(image, regions, opts.client);
  const noReturn = noReturnAddresses(image);
  const found = new Map<number, Found>();
  const pending = [...seeds.keys()].sort((a, b) => a - b);
  let budget = opts.maxInstructions ?? maxInstructionsFor(regions);
  const pointerSize = image.identity.bits === 64 ? 8 : 4;
  const isX86 = image.identity.architecture === 'x86' || image.identity.architecture === 'x86_64';
  const isMips = image.identity.architecture === 'mips';
  const gp = isMips ? mipsGp(image) : -1;
  const view = new DataView(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  const little = image.identity.endianness !== 'big';
  const loadWord = (a: number) => {
    const off = fileOffsetOf(image, a);
    return off >= 0 && off + 4 <= image.bytes.length ? view.getUint32(off, little) : -1;
  };

  const pairs = newPairState(image.identity.bits === 64 ? 64 : 32);
  const scratch = newDecoded();
  const ctx = (decoder: Decoder): ExploreContext => ({
    regions,
    decoder,
    isFunctionStart: (a) => seeds.has(a),
    isNoReturnTarget: (a) => noReturn.has(a),
    pairs,
    scratch,
    ...(gp >= 0 ? { pinned: { reg: MIPS_GP, value: gp }, loadWord } : {}),
    switchTargets: (run, bound) =>
      isX86
        ? x86SwitchTargets(image, regions, pointerSize, run, bound)
        : isMips
          ? mipsSwitchTargets(image, regions, gp, run, bound)
          : decoder === opts.thumbDecoder
            ? thumbSwitchTargets(image, regions, run)
            : null,
    maxInsns: budget,
  });
  const decoderFor = (seed: Seed) =>
    (seed.thumb ?? opts.thumbByDefault) && opts.thumbDecoder ? opts.thumbDecoder : opts.decoder;
  const extents = knownExtents(seeds);
  const addSeed = (start: number, source: Seed['source'], thumb: boolean | null) => {
    if (seeds.has(start)) return;
    // A jump into the body of a function whose extent the file records (a .cold part jumping back into
    // its parent) is not a tail call to a new function.
    if (source === 'tail' && extents.contains(start)) return;
    const r = regionAt(regions, start);
    if (!r || r.stubs) return;
    seeds.set(start, { start, end: -1, name: null, source, thumb });
    pending.push(start);
  };
  const run = (seed: Seed, bound: Bound): Exploration => {
    const x = explore(ctx(decoderFor(seed)), seed.start, bound);
    budget -= x.insns.length;
    return x;
  };
  const arm = opts.thumbDecoder !== undefined;
  /** Tail-jump targets wait until every stronger start is explored: most land inside a known body. */
  const tails: { target: number; thumb: boolean | null }[] = [];
  const owned = (a: number) => {
    const r = regionAt(regions, a);
    return r !== undefined && r.owner[a - r.start] === 1;
  };
  const accept = (seed: Seed, x: Exploration) => {
    found.set(seed.start, { seed, x });
    claim(regions, seed, x);
    for (const c of x.calls) {
      if (c.indirect || c.target < 0) continue;
      if (c.tail) tails.push({ target: c.target, thumb: arm ? c.thumb : null });
      else addSeed(c.target, 'call', arm ? c.thumb : null);
    }
  };
  let next = 0;
  const drain = () => {
    for (;;) {
      while (next < pending.length && budget > 0) {
        const start = pending[next++]!;
        const seed = seeds.get(start)!;
        if (!found.has(start)) accept(seed, run(seed, { lo: start, hi: seed.end > 0 ? seed.end : Infinity }));
      }
      const before = pending.length;
      for (const t of tails.splice(0)) if (!owned(t.target)) addSeed(t.target, 'tail', t.thumb);
      if (pending.length === before) return;
    }
  };

  drain();
  if (!opts.client?.length) {
    let firstLength = 0;
    scanGaps(
      image,
      regions,
      (seed, bound) => {
        if (seeds.has(seed.start)) return false;
        budget--; // every candidate costs at least a decode: a blob of junk must not scan for ever
        // Most candidates in data fail on their first bytes: check those before a whole walk.
        const r = regionAt(regions, seed.start)!;
        firstLength = 0;
        if (!decoderFor(seed).decode(r.bytes, seed.start - r.start, seed.start, scratch)) return false;
        firstLength = scratch.length;
        if (scratch.flow === Flow.Invalid || scratch.flow === Flow.Halt) return false;
        const x = run(seed, bound);
        // Code nothing reaches must at least decode cleanly to count as a function.
        if (x.insns.length === 0 || x.invalid) return false;
        // Code that jumps into the middle of another function is a piece of it (a switch case whose
        // table was not resolved), not a function: claim it so the scan moves on.
        if (x.calls.some((c) => c.tail && c.target >= 0 && owned(c.target) && !seeds.has(c.target))) {
          claim(regions, seed, x);
          return true;
        }
        seeds.set(seed.start, seed);
        accept(seed, x);
        drain();
        return true;
      },
      () => firstLength,
      () => budget <= 0,
    );
  }
  return assemble(found, budget <= 0);
}

/** Marks what a function covers: its instructions, the literal pools it loads from, its recorded extent. */
function claim(regions: CodeRegion[], seed: Seed, x: Exploration) {
  for (const i of x.insns) {
    markOwned(regions, i.addr, i.addr + i.len);
    // A PC-relative load from code reads a literal pool: data, not a function to find.
    if (i.refIsMemory && i.ref >= 0 && regionAt(regions, i.ref))
      markOwned(regions, i.ref, i.ref + Math.max(4, i.refSize));
  }
  if (seed.end > 0) markOwned(regions, seed.start, seed.end);
}

const MIPS_GP = 28;

/**
 * MIPS $gp in position-independent code: the `_gp` symbol when the file keeps it, else the ABI's rule,
 * 0x7ff0 past the start of .got (so 16-bit offsets reach 64 KiB of GOT).
 */
function mipsGp(image: BinaryImage): number {
  const sym = image.symbols.find((s) => s.name === '_gp');
  if (sym) return sym.vaddr;
  const got = image.sections.find((s) => s.name === '.got');
  return got ? got.vaddr + 0x7ff0 : -1;
}

/** Extents the file records (symbol sizes, unwind ranges), for "is this inside a known function?". */
function knownExtents(seeds: Map<number, Seed>) {
  const spans = [...seeds.values()].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const starts = Float64Array.from(spans, (s) => s.start);
  const ends = Float64Array.from(spans, (s) => s.end);
  return {
    contains(a: number): boolean {
      let lo = 0;
      let hi = starts.length - 1;
      let hit = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (starts[mid]! <= a) {
          hit = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      // Ranges can nest (a symbol inside an FDE): look back over a few earlier spans too.
      for (let k = hit; k >= 0 && k > hit - 8; k--) if (a > starts[k]! && a < ends[k]!) return true;
      return false;
    },
  };
}

/** Import stubs and slots, and symbols, whose names say they never return. */
function noReturnAddresses(image: BinaryImage): Set<number> {
  const out = new Set<number>();
  for (const imp of image.imports) {
    if (!isNoReturnName(imp.name)) continue;
    out.add(imp.slot);
    for (const s of imp.stubs) out.add(s);
  }
  for (const s of image.symbols) if (s.kind === 'function' && isNoReturnName(s.name)) out.add(s.vaddr);
  return out;
}

function markOwned(regions: CodeRegion[], lo: number, hi: number) {
  for (let a = lo; a < hi;) {
    const r = regionAt(regions, a);
    if (!r) return;
    const end = Math.min(hi, r.end);
    r.owner.fill(1, a - r.start, end - r.start);
    a = end;
  }
}

/**
 * Walks code no function claims, skipping alignment padding, and offers each start to `tryGap`, which
 * returns whether it claimed anything (the run's end is then measured again).
 */
function scanGaps(
  image: BinaryImage,
  regions: CodeRegion[],
  tryGap: (seed: Seed, bound: Bound) => boolean,
  lastFirstLength: () => number,
  exhausted: () => boolean,
) {
  const arch = image.identity.architecture;
  const step = arch === 'x86' || arch === 'x86_64' ? 1 : arch === 'arm' ? 2 : 4;
  for (const r of regions) {
    if (r.stubs) continue;
    // End of the unclaimed run at `off`, kept while nothing is claimed: re-measuring it at every failed
    // candidate made a long run of data quadratic.
    let runEnd = -1;
    for (let off = 0; off < r.bytes.length && !exhausted();) {
      if (r.owner[off] === 1) {
        off++;
        continue;
      }
      // Instructions start on their alignment (claimed data, e.g. a literal, can end anywhere).
      if ((r.start + off) % step !== 0) {
        off += step - ((r.start + off) % step);
        continue;
      }
      const pad = paddingLength(arch, r.bytes, off);
      if (pad > 0) {
        off += pad;
        continue;
      }
      if (off >= runEnd) {
        runEnd = off;
        while (runEnd < r.bytes.length && r.owner[runEnd] === 0) runEnd++;
      }
      const start = r.start + off;
      if (tryGap({ start, end: -1, name: null, source: 'gap', thumb: null }, { lo: start, hi: r.start + runEnd })) {
        runEnd = -1;
      }
      // Nothing usable here: step over what decoded as its first instruction (or one slot) and look
      // again. Byte steps through code that ends badly retried the same walk at every byte.
      if (r.owner[off] === 0) off += Math.max(step, lastFirstLength());
    }
  }
}

function assemble(found: Map<number, Found>, truncated: boolean): FunctionGraph {
  const sorted = [...found.values()].sort((a, b) => a.seed.start - b.seed.start);
  const functions: RecoveredFunction[] = [];
  const bStart = new Column();
  const bEnd = new Column();
  const bFunc = new Column();
  const bInsns = new Column();
  const eFrom = new Column();
  const eTo = new Column();
  const eKind = new Column();
  const cSite = new Column();
  const cCaller = new Column();
  const cTarget = new Column();
  const cKind = new Column();
  const rSite = new Column();
  const rFunc = new Column();
  const rTarget = new Column();
  let instructionCount = 0;
  sorted.forEach(({ seed, x }, fi) => {
    const blocks: Block[] = formBlocks(x);
    const firstBlock = bStart.length;
    let end = seed.start;
    let returns = false;
    for (const b of blocks) {
      const bi = bStart.length;
      bStart.push(b.start);
      bEnd.push(b.end);
      bFunc.push(fi);
      bInsns.push(b.insns);
      end = Math.max(end, b.end);
      for (const e of b.edges) {
        eFrom.push(bi);
        eTo.push(e.to);
        eKind.push(e.kind);
      }
    }
    for (const i of x.insns) {
      if (i.flow === 4 /* Flow.Return */) returns = true;
      if (i.ref >= 0) {
        rSite.push(i.addr);
        rFunc.push(fi);
        rTarget.push(i.ref);
      }
    }
    for (const c of x.calls) {
      cSite.push(c.site);
      cCaller.push(fi);
      cTarget.push(c.target);
      cKind.push(c.tail ? CallKind.Tail : c.indirect ? CallKind.Indirect : CallKind.Direct);
      if (c.tail) returns = true;
    }
    instructionCount += x.insns.length;
    functions.push({
      start: seed.start,
      end: seed.end > 0 ? seed.end : end,
      name: seed.name,
      source: seed.source,
      thumb: seed.thumb ?? false,
      noReturn: !returns && !x.truncated && !truncated,
      firstBlock,
      blockCount: blocks.length,
    });
  });
  return {
    functions,
    blocks: { start: bStart.toFloat64(), end: bEnd.toFloat64(), func: bFunc.toInt32(), insns: bInsns.toInt32() },
    edges: { from: eFrom.toInt32(), to: eTo.toFloat64(), kind: eKind.toUint8() },
    calls: { site: cSite.toFloat64(), caller: cCaller.toInt32(), target: cTarget.toFloat64(), kind: cKind.toUint8() },
    refs: { site: rSite.toFloat64(), func: rFunc.toInt32(), target: rTarget.toFloat64() },
    instructionCount,
  };
}
