import { Flow, newDecoded, type Decoder } from '../disasm/instruction.js';
import { newPairState } from '../disasm/pair-ref.js';
import type { IsaProfile } from '../isa/index.js';
import type { BinaryImage } from '../formats/image.js';
import { formBlocks, type BlockColumns } from './blocks.js';
import { explore, type Bound, type Exploration, type ExploreContext } from './explore.js';
import { Column } from './growable.js';
import { concatTables, InsnColumns, REF_IS_MEMORY } from './insn-columns.js';
import { nextStartIndex } from './next-start.js';
import { isNoReturnName } from './no-return.js';
import { codeRegions, regionAt, type CodeRegion } from './regions.js';
import { collectSeeds, type ClientFunction, type Seed } from './seeds.js';
import { mipsSwitchTargets, thumbSwitchTargets, x86SwitchTargets, type TableSpans } from './switch-tables.js';
import { fileOffsetOf } from '../formats/image.js';
import { CallKind, type FunctionGraph, type RecoveredFunction } from './types.js';

export interface RecoverOptions {
  /** The image's instruction set: gap step, padding, switch tables, registers a call clobbers. */
  isa: IsaProfile;
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
  const isa = opts.isa;
  const gp = isa.globalPointer ? mipsGp(image) : -1;
  const view = new DataView(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  const little = image.identity.endianness !== 'big';
  const loadWord = (a: number) => {
    const off = fileOffsetOf(image, a);
    return off >= 0 && off + 4 <= image.bytes.length ? view.getUint32(off, little) : -1;
  };

  const tables: TableSpans = new Map();
  const pairs = newPairState(image.identity.bits === 64 ? 64 : 32, isa.callClobbers);
  const scratch = newDecoded();
  const columns = new InsnColumns();
  const walk = { count: 0 };
  // Function starts as a byte per code byte for explore's test at every instruction, where a Map lookup
  // was ~5% of busybox amd64. Seeds only grow, and a Map iterator also yields entries added after it was
  // made, so each walk first marks the seeds added since the last one.
  const unmarked = seeds.keys();
  let marked = 0;
  const markStarts = () => {
    for (; marked < seeds.size; marked++) {
      const a = unmarked.next().value!;
      const r = regionAt(regions, a);
      if (r) r.starts[a - r.start] = 1;
    }
  };
  const isFunctionStart = (a: number) => {
    const r = regionAt(regions, a);
    return r !== undefined ? r.starts[a - r.start] === 1 : seeds.has(a);
  };
  const ctx = (decoder: Decoder): ExploreContext => ({
    regions,
    decoder,
    isFunctionStart,
    isNoReturnTarget: (a) => noReturn.has(a),
    pairs,
    scratch,
    columns,
    walk,
    ...(gp >= 0 ? { pinned: { reg: MIPS_GP, value: gp }, loadWord } : {}),
    switchTargets: (run, bound) => {
      switch (isa.switchTables) {
        case 'x86':
          return x86SwitchTargets(image, regions, pointerSize, run, bound);
        case 'mips':
          return mipsSwitchTargets(image, regions, gp, run, bound);
        case 'thumb':
          return decoder === opts.thumbDecoder ? thumbSwitchTargets(image, regions, run, tables) : null;
        case null:
          return null;
      }
    },
    maxInsns: budget,
  });
  const decoderFor = (seed: Seed) =>
    (seed.thumb ?? opts.thumbByDefault) && opts.thumbDecoder ? opts.thumbDecoder : opts.decoder;
  const extents = knownExtents(seeds);
  const known = nextStartIndex(seeds.keys());
  const addSeed = (start: number, source: Seed['source'], thumb: boolean | null) => {
    if (seeds.has(start)) return;
    // A jump into the body of a function whose extent the file records (a .cold part jumping back into
    // its parent) is not a tail call to a new function.
    if (source === 'tail' && extents.contains(start)) return;
    const r = regionAt(regions, start);
    if (!r || r.stubs) return;
    seeds.set(start, { start, end: -1, name: null, source, thumb });
    pending.push(start);
    known.add(start);
  };
  // One context per decoder, not one per walk: a random 16 MB blob makes millions of short walks.
  const contexts = new Map<Decoder, ExploreContext>();
  const run = (seed: Seed, bound: Bound, gap = false): Exploration => {
    // Record the instruction set actually used: a seed without a hint is Thumb in a Thumb-by-default image.
    if (opts.thumbDecoder) seed.thumb ??= opts.thumbByDefault === true;
    markStarts();
    const decoder = decoderFor(seed);
    let c = contexts.get(decoder);
    if (!c) contexts.set(decoder, (c = ctx(decoder)));
    c.maxInsns = budget;
    const x = explore(c, seed.start, bound, gap);
    budget -= x.decoded;
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
    claim(regions, tables, seed, x);
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
        if (!found.has(start)) accept(seed, run(seed, { lo: start, hi: seed.end > 0 ? seed.end : known.after(start) }));
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
      isa,
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
        const x = run(seed, bound, true);
        // Code nothing reaches must at least decode cleanly to count as a function.
        if (x.insns.count === 0 || x.invalid) return false;
        // Compiled code always ends (return, jump, call): a walk of only plain instructions that runs into
        // the next function or the end of the gap is data that happens to decode (Thumb literal pools of
        // doubles and 32-bit constants did, 7 times in sqlite's armhf build).
        if (x.insns.flow.subarray(0, x.insns.count).every((f) => f === Flow.Sequential)) return false;
        // Code that jumps into the middle of another function is a piece of it (a switch case whose
        // table was not resolved), not a function: claim it so the scan moves on.
        if (x.calls.some((c) => c.tail && c.target >= 0 && owned(c.target) && !seeds.has(c.target))) {
          claim(regions, tables, seed, x);
          return true;
        }
        seeds.set(seed.start, seed);
        known.add(seed.start);
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
function claim(regions: CodeRegion[], tables: TableSpans, seed: Seed, x: Exploration) {
  const { count, addr, len, flow, ref, refSize, bits } = x.insns;
  // Adjacent instructions are marked as one range: one region lookup per straight-line run.
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < count; k++) {
    if (addr[k] !== hi) {
      markOwned(regions, lo, hi);
      lo = addr[k]!;
    }
    hi = addr[k]! + len[k]!;
    // A PC-relative load from code reads a literal pool: data, not a function to find.
    const r = ref[k]!;
    if (bits[k]! & REF_IS_MEMORY && r >= 0 && regionAt(regions, r)) markOwned(regions, r, r + Math.max(4, refSize[k]!));
    const table = flow[k] === Flow.IndirectJump ? tables.get(addr[k]!) : undefined;
    if (table) markOwned(regions, table.start, table.end);
  }
  markOwned(regions, lo, hi);
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
    r.claims.push(a - r.start);
    a = end;
  }
}

/**
 * Walks code no function claims, skipping alignment padding, and offers each start to `tryGap`, which
 * returns whether it claimed anything (the run's end is then measured again).
 */
function scanGaps(
  isa: IsaProfile,
  regions: CodeRegion[],
  tryGap: (seed: Seed, bound: Bound) => boolean,
  lastFirstLength: () => number,
  exhausted: () => boolean,
) {
  const step = isa.step;
  for (const r of regions) {
    if (r.stubs) continue;
    // The unclaimed run at `off` ends at the first claimed byte past it. A native scan finds that byte
    // (`scanned`); claims made since begin at offsets `markOwned` logs, so until `off` passes `scanned`
    // the end is the least of those past `off`. Measuring byte by byte at every candidate made a long run
    // quadratic, and a native scan after every function found was still 16% of busybox arm64 and 3 s of
    // a 4 MB random blob (each scan ran to its end).
    let runEnd = -1;
    let scanned = -1;
    let claimed = false;
    r.claims.length = 0;
    for (let off = 0; off < r.bytes.length && !exhausted();) {
      if (r.owner[off] === 1) {
        // Claimed bytes come in whole functions: a native scan (indexOf) steps over them at once.
        const free = r.owner.indexOf(0, off);
        off = free < 0 ? r.bytes.length : free;
        continue;
      }
      // Instructions start on their alignment (claimed data, e.g. a literal, can end anywhere).
      if ((r.start + off) % step !== 0) {
        off += step - ((r.start + off) % step);
        continue;
      }
      const pad = isa.padding(r.bytes, off);
      if (pad > 0) {
        off += pad;
        continue;
      }
      if (off >= scanned) {
        const owned = r.owner.indexOf(1, off);
        runEnd = scanned = owned < 0 ? r.bytes.length : owned;
        r.claims.length = 0;
      } else if (claimed || off >= runEnd) {
        // `off` is unclaimed, so a claim that began before it ended before it: only later ones count.
        runEnd = scanned;
        let kept = 0;
        for (const c of r.claims) {
          if (c < off) continue;
          r.claims[kept++] = c;
          if (c < runEnd) runEnd = c;
        }
        r.claims.length = kept;
      }
      claimed = false;
      const start = r.start + off;
      if (tryGap({ start, end: -1, name: null, source: 'gap', thumb: null }, { lo: start, hi: r.start + runEnd })) {
        claimed = true;
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
  const out: BlockColumns = {
    start: new Column(),
    end: new Column(),
    func: new Column(),
    insns: new Column(),
    firstInsn: new Column(),
    edgeFrom: new Column(),
    edgeTo: new Column(),
    edgeKind: new Column(),
  };
  const cSite = new Column();
  const cCaller = new Column();
  const cTarget = new Column();
  const cKind = new Column();
  const rSite = new Column();
  const rFunc = new Column();
  const rTarget = new Column();
  let instructionCount = 0;
  sorted.forEach(({ seed, x }, fi) => {
    const firstBlock = out.start.length;
    const end = formBlocks(x, fi, instructionCount, out, seed.start);
    let returns = false;
    const { count, addr, flow, ref } = x.insns;
    for (let k = 0; k < count; k++) {
      if (flow[k] === Flow.Return) returns = true;
      if (ref[k]! >= 0) {
        rSite.push(addr[k]!);
        rFunc.push(fi);
        rTarget.push(ref[k]!);
      }
    }
    for (const c of x.calls) {
      cSite.push(c.site);
      cCaller.push(fi);
      cTarget.push(c.target);
      cKind.push(c.tail ? CallKind.Tail : c.indirect ? CallKind.Indirect : CallKind.Direct);
      if (c.tail) returns = true;
    }
    instructionCount += x.insns.count;
    functions.push({
      start: seed.start,
      end: seed.end > 0 ? seed.end : end,
      name: seed.name,
      source: seed.source,
      thumb: seed.thumb ?? false,
      noReturn: !returns && !x.truncated && !truncated,
      firstBlock,
      blockCount: out.start.length - firstBlock,
    });
  });
  return {
    functions,
    blocks: {
      start: out.start.toFloat64(),
      end: out.end.toFloat64(),
      func: out.func.toInt32(),
      insns: out.insns.toInt32(),
      firstInsn: out.firstInsn.toInt32(),
    },
    insns: concatTables(sorted.map((f) => f.x.insns)),
    edges: { from: out.edgeFrom.toInt32(), to: out.edgeTo.toFloat64(), kind: out.edgeKind.toUint8() },
    calls: { site: cSite.toFloat64(), caller: cCaller.toInt32(), target: cTarget.toFloat64(), kind: cKind.toUint8() },
    refs: { site: rSite.toFloat64(), func: rFunc.toInt32(), target: rTarget.toFloat64() },
    instructionCount,
  };
}
