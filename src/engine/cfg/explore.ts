import { Flow, type Decoded, type Decoder } from '../disasm/instruction.js';
import { pairRef, pinRegister, resetPairState, type PairState } from '../disasm/pair-ref.js';
import {
  NO_INSNS,
  NO_SUCCESSORS,
  type Insn,
  type InsnColumns,
  type InsnTable,
  type Successors,
} from './insn-columns.js';
import { regionAt, type CodeRegion } from './regions.js';

export type { Insn } from './insn-columns.js';

export interface ExploreContext {
  regions: CodeRegion[];
  decoder: Decoder;
  /** Decoder output record, reused by every walk. */
  scratch: Decoded;
  /** Starts of other functions: flow reaching one leaves the current function. */
  isFunctionStart(addr: number): boolean;
  /** Calls that never return (by target address). */
  isNoReturnTarget(addr: number): boolean;
  /** Register contents for addresses built across instructions (ADRP+ADD, LUI+ADDIU); reused per walk. */
  pairs: PairState;
  /** Instruction columns, reused per walk. */
  columns: InsnColumns;
  /** Numbers the walks of one recovery (CodeRegion.visit holds the last walk to reach each byte). */
  walk: { count: number };
  /** A register the ABI fixes for every function (MIPS PIC: $gp), so GOT loads resolve. */
  pinned?: { reg: number; value: number };
  /** Reads a 32-bit word of the image at an address, or -1 (GOT entries, literal pools). */
  loadWord?: (address: number) => number;
  /** Targets of an indirect jump at the end of `run` (a switch table), or null. */
  switchTargets(run: Insn[], bound: Bound): number[] | null;
  maxInsns: number;
}

export interface Bound {
  lo: number;
  /** Exclusive; Infinity when the function's extent is unknown. */
  hi: number;
}

export interface Exploration {
  /** In address order; none kept by a walk that `stopOnInvalid` ended (its caller drops it). */
  insns: InsnTable;
  /** Instructions decoded: the walk's cost. */
  decoded: number;
  /** Control-transfer targets per instruction address (jumps, branches, switch cases). */
  succ: Successors;
  /** `thumb`: the target runs in Thumb state (ARM; BLX switches state, BL keeps it). */
  calls: { site: number; target: number; indirect: boolean; tail: boolean; thumb: boolean }[];
  truncated: boolean;
  /** Some path ran into bytes that do not decode: likely data, not code. */
  invalid: boolean;
}

/**
 * Recursive descent over one function from `start`: follows branches, jumps and switch tables inside the
 * function, records calls (a jump to another function's start, or out of the known extent, is a tail
 * call) and stops after returns, halts and calls that never return. With `stopOnInvalid` the walk ends at
 * the first bytes that do not decode (gap candidates, dropped when any path does: walking on past that
 * point was 1.26 M of the 1.75 M instructions busybox amd64 decoded).
 */
export function explore(ctx: ExploreContext, start: number, bound: Bound, stopOnInvalid = false): Exploration {
  const d: Decoded = ctx.scratch;
  const columns = ctx.columns;
  columns.reset();
  columns.addLeader(start);
  const walk = ++ctx.walk.count;
  const runStarts: number[] = [];
  const calls: Exploration['calls'] = [];
  const stack = [start];
  const pairs = ctx.pairs;
  pairs.pinned = 0;
  if (ctx.pinned) pinRegister(pairs, ctx.pinned.reg, ctx.pinned.value);
  let truncated = false;
  let invalid = false;

  const inFunction = (a: number) => a >= bound.lo && a < bound.hi && regionAt(ctx.regions, a) !== undefined;
  /** Decodes the instruction at `addr` in `r` and records it, or returns false. */
  const visit = (r: CodeRegion, addr: number, inDelaySlot: boolean): boolean => {
    if (!ctx.decoder.decode(r.bytes, addr - r.start, addr, d)) return false;
    const formed = pairRef(pairs, d, ctx.loadWord);
    if (d.ref < 0 && formed >= 0) {
      d.ref = formed;
      d.refIsMemory = d.loMemory;
    }
    columns.push(addr, d, inDelaySlot);
    r.visit[addr - r.start] = walk;
    return true;
  };
  /** `from`: the branch's entry in `columns`. */
  const branchTo = (from: number, target: number) => {
    columns.addTarget(from, target);
    columns.addLeader(target);
    stack.push(target);
  };

  while (stack.length > 0) {
    let a = stack.pop()!;
    const runStart = columns.count;
    runStarts.push(runStart);
    // Register contents are only known along one straight-line run.
    resetPairState(pairs);
    for (;;) {
      if (a < bound.lo || a >= bound.hi) break;
      const r = regionAt(ctx.regions, a);
      if (r === undefined || r.visit[a - r.start] === walk || (a !== start && ctx.isFunctionStart(a))) break;
      if (columns.count >= ctx.maxInsns) {
        truncated = true;
        break;
      }
      if (!visit(r, a, false)) {
        invalid = true;
        if (stopOnInvalid) stack.length = 0;
        break;
      }
      const at = columns.count - 1;
      const { conditional, targetThumb, flow, target, ref, refIsMemory } = d;
      let next = a + d.length;
      if (d.delaySlot && (flow !== Flow.Sequential || target >= 0)) {
        // The delay slot runs before the transfer: it ends this block, whatever the branch does.
        const slot = regionAt(ctx.regions, next);
        if (slot !== undefined && slot.visit[next - slot.start] !== walk) visit(slot, next, true);
        next += 4;
      }
      // ARM: a return, halt or jump under a condition (`bxeq lr`, `it eq; popeq {pc}`) may not happen.
      const mayFallThrough = conditional && flow !== Flow.Branch;
      if (flow === Flow.Sequential) {
        a = next;
        continue;
      }
      if (flow === Flow.Call) {
        calls.push({ site: a, target, indirect: false, tail: false, thumb: targetThumb });
        if (ctx.isNoReturnTarget(target)) break;
        columns.addLeader(next);
        a = next;
        continue;
      }
      if (flow === Flow.IndirectCall) {
        calls.push({ site: a, target: refIsMemory ? ref : -1, indirect: true, tail: false, thumb: false });
        if (refIsMemory && ctx.isNoReturnTarget(ref)) break;
        a = next;
        continue;
      }
      if (flow === Flow.Branch) {
        if (inFunction(target) && !ctx.isFunctionStart(target)) branchTo(at, target);
        else calls.push({ site: a, target, indirect: false, tail: true, thumb: targetThumb });
        columns.addLeader(next);
        a = next;
        continue;
      }
      if (flow === Flow.Jump) {
        if (target === start || (inFunction(target) && !ctx.isFunctionStart(target))) branchTo(at, target);
        else calls.push({ site: a, target, indirect: false, tail: true, thumb: targetThumb });
      } else if (flow === Flow.IndirectJump) {
        const cases = ctx.switchTargets(columns.run(runStart), bound);
        if (cases) for (const t of cases) branchTo(at, t);
        else calls.push({ site: a, target: refIsMemory ? ref : -1, indirect: true, tail: true, thumb: false });
      }
      if (!mayFallThrough) break; // Return, Halt, Invalid, and unconditional jumps
      columns.addLeader(next);
      a = next;
    }
  }
  const { insns, succ } =
    stopOnInvalid && invalid ? { insns: NO_INSNS, succ: NO_SUCCESSORS } : columns.ordered(runStarts);
  return { insns, decoded: columns.count, succ, calls, truncated, invalid };
}
