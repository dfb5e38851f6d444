import { Flow, type Decoded, type Decoder } from '../disasm/instruction.js';
import { pairRef, pinRegister, resetPairState, type PairState } from '../disasm/pair-ref.js';
import { regionAt, type CodeRegion } from './regions.js';

/** One instruction of a function as exploration found it. */
export interface Insn {
  addr: number;
  len: number;
  flow: Flow;
  target: number;
  ref: number;
  refIsMemory: boolean;
  refSize: number;
  /** Set for the instruction in a MIPS delay slot: it belongs to the branch before it. */
  inDelaySlot: boolean;
}

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
  insns: Insn[];
  /** Block leaders: branch targets and the instructions after conditional branches. */
  leaders: Set<number>;
  /** Control-transfer targets per instruction address (jumps, branches, switch cases). */
  succ: Map<number, number[]>;
  /** `thumb`: the target runs in Thumb state (ARM; BLX switches state, BL keeps it). */
  calls: { site: number; target: number; indirect: boolean; tail: boolean; thumb: boolean }[];
  truncated: boolean;
  /** Some path ran into bytes that do not decode: likely data, not code. */
  invalid: boolean;
}

/**
 * Recursive descent over one function from `start`: follows branches, jumps and switch tables inside the
 * function, records calls (a jump to another function's start, or out of the known extent, is a tail
 * call) and stops after returns, halts and calls that never return.
 */
export function explore(ctx: ExploreContext, start: number, bound: Bound): Exploration {
  const d: Decoded = ctx.scratch;
  const seen = new Set<number>();
  const insns: Insn[] = [];
  const leaders = new Set<number>([start]);
  const succ = new Map<number, number[]>();
  const calls: Exploration['calls'] = [];
  const stack = [start];
  const pairs = ctx.pairs;
  pairs.pinned = 0;
  if (ctx.pinned) pinRegister(pairs, ctx.pinned.reg, ctx.pinned.value);
  let truncated = false;
  let invalid = false;

  const inFunction = (a: number) => a >= bound.lo && a < bound.hi && regionAt(ctx.regions, a) !== undefined;
  const record = (addr: number, inDelaySlot: boolean): Insn => {
    const formed = pairRef(pairs, d, ctx.loadWord);
    if (d.ref < 0 && formed >= 0) {
      d.ref = formed;
      d.refIsMemory = d.loMemory;
    }
    const insn = {
      addr,
      len: d.length,
      flow: d.flow,
      target: d.target,
      ref: d.ref,
      refIsMemory: d.refIsMemory,
      refSize: d.refSize,
      inDelaySlot,
    };
    insns.push(insn);
    seen.add(addr);
    return insn;
  };
  const decodeAt = (addr: number): boolean => {
    const r = regionAt(ctx.regions, addr);
    return r !== undefined && ctx.decoder.decode(r.bytes, addr - r.start, addr, d);
  };
  const branchTo = (from: number, target: number) => {
    const list = succ.get(from) ?? [];
    list.push(target);
    succ.set(from, list);
    leaders.add(target);
    stack.push(target);
  };

  while (stack.length > 0) {
    let a = stack.pop()!;
    const run: Insn[] = [];
    // Register contents are only known along one straight-line run.
    resetPairState(pairs);
    for (;;) {
      if (seen.has(a) || !inFunction(a) || (a !== start && ctx.isFunctionStart(a))) break;
      if (insns.length >= ctx.maxInsns) {
        truncated = true;
        break;
      }
      if (!decodeAt(a)) {
        invalid = true;
        break;
      }
      const insn = record(a, false);
      const conditional = d.conditional;
      const targetThumb = d.targetThumb;
      run.push(insn);
      let next = a + d.length;
      if (d.delaySlot && (insn.flow !== Flow.Sequential || insn.target >= 0)) {
        // The delay slot runs before the transfer: it ends this block, whatever the branch does.
        if (!seen.has(next) && decodeAt(next)) record(next, true);
        next += 4;
      }
      const { flow, target } = insn;
      // ARM: a return, halt or jump under a condition (`bxeq lr`, `it eq; popeq {pc}`) may not happen.
      const mayFallThrough = conditional && flow !== Flow.Branch;
      if (flow === Flow.Sequential) {
        a = next;
        continue;
      }
      if (flow === Flow.Call) {
        calls.push({ site: insn.addr, target, indirect: false, tail: false, thumb: targetThumb });
        if (ctx.isNoReturnTarget(target)) break;
        leaders.add(next);
        a = next;
        continue;
      }
      if (flow === Flow.IndirectCall) {
        calls.push({
          site: insn.addr,
          target: insn.refIsMemory ? insn.ref : -1,
          indirect: true,
          tail: false,
          thumb: false,
        });
        if (insn.refIsMemory && ctx.isNoReturnTarget(insn.ref)) break;
        a = next;
        continue;
      }
      if (flow === Flow.Branch) {
        if (inFunction(target) && !ctx.isFunctionStart(target)) branchTo(insn.addr, target);
        else calls.push({ site: insn.addr, target, indirect: false, tail: true, thumb: targetThumb });
        leaders.add(next);
        a = next;
        continue;
      }
      if (flow === Flow.Jump) {
        if (target === start || (inFunction(target) && !ctx.isFunctionStart(target))) branchTo(insn.addr, target);
        else calls.push({ site: insn.addr, target, indirect: false, tail: true, thumb: targetThumb });
      } else if (flow === Flow.IndirectJump) {
        const cases = ctx.switchTargets(run, bound);
        if (cases) for (const t of cases) branchTo(insn.addr, t);
        else
          calls.push({
            site: insn.addr,
            target: insn.refIsMemory ? insn.ref : -1,
            indirect: true,
            tail: true,
            thumb: false,
          });
      }
      if (!mayFallThrough) break; // Return, Halt, Invalid, and unconditional jumps
      leaders.add(next);
      a = next;
    }
  }
  insns.sort((x, y) => x.addr - y.addr);
  return { insns, leaders, succ, calls, truncated, invalid };
}
