// Recovered functions → IR, through their ISA profile's lifter: the instructions recovery found, block by
// block, with the CFG's edges, MIPS delay slots lifted before their transfer (which reads its condition or
// target first), tail jumps as tail calls and every call reading its convention's argument registers and
// clobbering the rest.
import type { Platform } from '../../contracts/result.js';
import { CallKind, IN_DELAY_SLOT, type FunctionBlocks, type FunctionGraph } from '../cfg/index.js';
import { decoderOf, type Decoder, type Decoders } from '../disasm/index.js';
import { fileOffsetOf, type BinaryImage } from '../formats/image.js';
import { MODE_PROFILES } from '../isa/index.js';
import {
  forEachRegRead,
  konst,
  ref,
  reg,
  rewriteStmt,
  type Expr,
  type IrFunction,
  type RegisterFile,
  type Stmt,
} from './ir.js';
import type { CallingConvention, Lifter } from './lifter.js';
import { definedBy } from './ssa.js';

/** Instructions lifted per function at most; the rest of a larger one is counted as undecoded. */
const MAX_INSNS = 100_000;

/** Lifts the functions of one recovered binary, sharing lifters and call-site facts between them. */
export class FunctionLifter {
  private readonly lifters = new Map<Decoder, Lifter | null>();
  private readonly tailSites = new Set<number>();
  /** Executable sections nothing writes to. */
  private readonly code: { start: number; end: number }[];

  constructor(
    private readonly image: BinaryImage,
    private readonly graph: FunctionGraph,
    private readonly decoders: Decoders,
    readonly platform: Platform,
  ) {
    const { site, kind } = graph.calls;
    for (let i = 0; i < site.length; i++) if (kind[i] === CallKind.Tail) this.tailSites.add(site[i]!);
    this.code = image.sections
      .filter((sec) => sec.exec && !sec.write && sec.fileSize > 0)
      .map((sec) => ({ start: sec.vaddr, end: sec.vaddr + sec.fileSize }));
  }

  /** The register file and default convention of function `fi`, or null when its CPU has no lifter. */
  abiOf(fi: number): { regs: RegisterFile; convention: CallingConvention } | null {
    const decoder = decoderOf(this.decoders, this.graph.functions[fi]!.thumb);
    const ir = MODE_PROFILES[decoder.mode].ir;
    if (!ir) return null;
    return { regs: ir.registers(decoder.mode), convention: ir.conventions(decoder.mode, this.platform)[0]! };
  }

  /** Function `fi` as IR, or null when its CPU has no lifter. */
  lift(fi: number, layout: FunctionBlocks): IrFunction | null {
    const f = this.graph.functions[fi]!;
    const decoder = decoderOf(this.decoders, f.thumb);
    const lifter = this.lifterFor(decoder);
    const abi = this.abiOf(fi);
    if (!lifter || !abi) return null;
    const { addr, len, bits } = this.graph.insns;
    const bytes = this.image.bytes;
    let budget = MAX_INSNS;
    let undecoded = 0;
    const blocks = layout.blocks.map((gb, local) => {
      const stmts: Stmt[] = [];
      const first = this.graph.blocks.firstInsn[gb]!;
      const last = first + this.graph.blocks.insns[gb]!;
      const liftInto = (k: number, out: Stmt[]): void => {
        const off = fileOffsetOf(this.image, addr[k]!);
        if (budget-- <= 0 || off < 0 || off + len[k]! > bytes.length) {
          undecoded++;
          return;
        }
        const before = out.length;
        if (lifter.lift(bytes, off, addr[k]!, out) === 0) undecoded++;
        else {
          for (let i = before; i < out.length; i++) rewriteStmt(out[i]!, this.literal);
          this.completeCalls(out, before, addr[k]! + len[k]!, abi);
        }
      };
      for (let k = first; k < last; k++) {
        if (!(k + 1 < last && bits[k + 1]! & IN_DELAY_SLOT)) {
          liftInto(k, stmts);
          continue;
        }
        // A MIPS delay slot runs before the transfer it follows takes effect (a call sees the arguments it
        // sets, a return the result), but after the transfer has read its condition or target.
        const transfer: Stmt[] = [];
        liftInto(k, transfer);
        const slot = stmts.length;
        liftInto(++k, stmts);
        readBeforeSlot(transfer, stmts, slot, abi.regs);
        for (const s of transfer) stmts.push(s);
      }
      return {
        start: this.graph.blocks.start[gb]!,
        end: this.graph.blocks.end[gb]!,
        stmts,
        succ: layout.succ[local]!,
        pred: [] as number[],
      };
    });
    // The entry as the target of a loop gets an empty block before it, so the values on entry reach it
    // along an edge of their own (SSA's phis there then merge version 0 with the loop's). The registers
    // the ABI fixes on entry are set there too.
    const fixed = (MODE_PROFILES[decoder.mode].ir?.entryValues?.(this.image, f.start) ?? []).map(({ r, v }): Stmt => ({
      k: 'set',
      r,
      ver: -1,
      e: konst(v, abi.regs.widths[r]!),
      at: f.start,
    }));
    if (fixed.length || layout.succ.some((succ) => succ.includes(0))) {
      for (const b of blocks) b.succ = b.succ.map((x) => x + 1);
      blocks.unshift({ start: f.start, end: f.start, stmts: fixed, succ: [1], pred: [] });
    }
    blocks.forEach((b, i) => b.succ.forEach((s) => blocks[s]!.pred.push(i)));
    const fn = { start: f.start, regs: abi.regs, blocks, undecoded };
    MODE_PROFILES[decoder.mode].ir?.resolve?.(fn);
    return fn;
  }

  /**
   * A load from read-only code (ARM and Thumb literal pools) is the constant stored there: what a call or
   * global reached through `ldr r3, =x` is becomes visible to constant propagation.
   */
  private readonly literal = (e: Expr): Expr => {
    if (e.k !== 'load' || e.w > 8) return e;
    const at = constantAddress(e.addr);
    if (at === null || !this.code.some((c) => at >= c.start && at + e.w <= c.end)) return e;
    const off = fileOffsetOf(this.image, at);
    if (off < 0 || off + e.w > this.image.bytes.length) return e;
    let v = 0n;
    for (let i = 0; i < e.w; i++) {
      const byte = this.image.bytes[off + (this.image.identity.endianness === 'big' ? i : e.w - 1 - i)]!;
      v = (v << 8n) | BigInt(byte);
    }
    // What a literal holds is most often an address (`ldr r3, =x`): a reference wherever it lands.
    return ref(v, e.w);
  };

  private lifterFor(decoder: Decoder): Lifter | null {
    let l = this.lifters.get(decoder);
    if (l === undefined) this.lifters.set(decoder, (l = MODE_PROFILES[decoder.mode].ir?.lifter(decoder) ?? null));
    return l;
  }

  /**
   * Tail jumps become tail calls; calls read every argument register and clobber the convention's set;
   * returns read the return registers.
   */
  private completeCalls(
    stmts: Stmt[],
    from: number,
    next: number,
    { regs, convention: conv }: { regs: RegisterFile; convention: CallingConvention },
  ): void {
    for (let i = from; i < stmts.length; i++) {
      const s = stmts[i]!;
      if (s.k === 'jump' && this.tailSites.has(s.at))
        stmts[i] = { k: 'call', target: s.target, args: [], writes: [], vers: [], at: s.at, tail: true };
      const c = stmts[i]!;
      if (c.k === 'ret') c.reads = returnRegisters(conv).map((r) => reg(r, regs.widths[r]!));
      if (c.k !== 'call') continue;
      // A call to a get-PC thunk loads the address after the call, and does nothing else.
      const thunk = c.tail ? null : this.thunkWrites(c.target);
      if (thunk !== null) {
        stmts[i] = { k: 'set', r: thunk, ver: -1, e: konst(next, regs.addressSize), at: c.at };
        continue;
      }
      c.args = [...conv.intArgs, ...conv.floatArgs, regs.sp].map((r) => reg(r, regs.widths[r]!));
      if (!c.tail) {
        c.writes = [...conv.clobbers];
        c.vers = c.writes.map(() => -1);
      }
    }
  }

  /** The register a direct call's target writes when it is a get-PC thunk; null for any other call. */
  private thunkWrites(target: Expr): number | null {
    if (target.k !== 'const') return null;
    const ir = MODE_PROFILES[this.decoders.decoder.mode].ir;
    const off = fileOffsetOf(this.image, Number(BigInt.asUintN(64, target.v)));
    return off < 0 || !ir?.thunkWrites ? null : ir.thunkWrites(this.image.bytes, off);
  }
}

/**
 * A transfer's condition or target that reads a register its delay slot (`stmts` from `slot`) writes is
 * read into the scratch register before the slot. The slot's instruction never needs that register itself:
 * lifters use it only to break cycles between an instruction's writes, and a MIPS instruction writes one
 * register, or hi and lo from others.
 */
function readBeforeSlot(transfer: Stmt[], stmts: Stmt[], slot: number, regs: RegisterFile): void {
  const written = new Set<number>();
  for (let i = slot; i < stmts.length; i++) for (const r of definedBy(stmts[i]!)) written.add(r);
  if (!written.size) return;
  const early = (e: Expr, at: number): Expr => {
    let hit = false;
    forEachRegRead(e, (r) => (hit ||= written.has(r.r)));
    if (!hit) return e;
    stmts.splice(slot, 0, { k: 'set', r: regs.temp, ver: -1, e, at });
    return reg(regs.temp, e.w);
  };
  for (const s of transfer) {
    if (s.k === 'branch') s.c = early(s.c, s.at);
    else if (s.k === 'jump' || s.k === 'call') s.target = early(s.target, s.at);
  }
}

/** An address made of constants only (`pc + 8 + imm` as lifted), or null. */
function constantAddress(e: Expr, depth = 0): number | null {
  if (e.k === 'const') return Number(BigInt.asUintN(e.w * 8, e.v));
  if (depth > 4 || e.k !== 'bin' || (e.op !== 'add' && e.op !== 'sub')) return null;
  const [a, b] = [constantAddress(e.a, depth + 1), constantAddress(e.b, depth + 1)];
  if (a === null || b === null) return null;
  const sum = e.op === 'add' ? a + b : a - b;
  return Number(BigInt.asUintN(e.w * 8, BigInt(sum)));
}

const returnRegisters = (conv: CallingConvention): number[] =>
  conv.floatReturn === null ? [conv.intReturn] : [conv.intReturn, conv.floatReturn];
