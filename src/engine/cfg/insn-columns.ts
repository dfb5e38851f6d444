// The instructions one exploration visits, as columns of typed arrays instead of one object each: busybox
// amd64 recovers 0.46 M instructions, and as objects (~80 bytes) kept until the graph is assembled they
// were a fifth of the analysis in garbage collection. One scratch set of columns serves every walk of a
// recovery; each finished walk copies its instructions out in address order (20 bytes each).
import { Flow, type Decoded } from '../disasm/instruction.js';

/** One instruction of a function as exploration found it (the form switch-table readers look back over). */
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

/** Bits of `InsnTable.bits`. */
export const REF_IS_MEMORY = 1;
export const IN_DELAY_SLOT = 2;
/** A block starts here: a branch target, or the instruction after a conditional transfer or a call. */
export const LEADER = 4;
/** A direct call to the next instruction (`call $+5`: x86 get-PC and obfuscation idiom). */
export const CALL_NEXT = 8;

/** A walk's instructions in address order, columns indexed alike. */
export interface InsnTable {
  count: number;
  addr: Float64Array;
  len: Uint8Array;
  flow: Uint8Array;
  ref: Float64Array;
  refSize: Uint8Array;
  bits: Uint8Array;
}

export const table = (n: number): InsnTable => {
  // One buffer per table: a backing store each per column made the collector run several times as often.
  const buffer = new ArrayBuffer(n * 20);
  return {
    count: n,
    addr: new Float64Array(buffer, 0, n),
    ref: new Float64Array(buffer, n * 8, n),
    len: new Uint8Array(buffer, n * 16, n),
    flow: new Uint8Array(buffer, n * 17, n),
    refSize: new Uint8Array(buffer, n * 18, n),
    bits: new Uint8Array(buffer, n * 19, n),
  };
};

export const NO_INSNS: InsnTable = table(0);

/** The tables one after another, in order: the graph's one instruction store. */
export function concatTables(parts: InsnTable[]): InsnTable {
  const t = table(parts.reduce((n, p) => n + p.count, 0));
  let at = 0;
  for (const p of parts) {
    t.addr.set(p.addr, at);
    t.ref.set(p.ref, at);
    t.len.set(p.len, at);
    t.flow.set(p.flow, at);
    t.refSize.set(p.refSize, at);
    t.bits.set(p.bits, at);
    at += p.count;
  }
  return t;
}

/** Control-transfer targets (jumps, branches, switch cases) by instruction address, ascending. */
export interface Successors {
  from: Float64Array;
  to: Float64Array;
}

export const NO_SUCCESSORS: Successors = { from: new Float64Array(0), to: new Float64Array(0) };

/** Scratch columns in visit order; grown by doubling. */
export class InsnColumns {
  count = 0;
  addr = new Float64Array(1024);
  len = new Uint8Array(1024);
  flow = new Uint8Array(1024);
  target = new Float64Array(1024);
  ref = new Float64Array(1024);
  refSize = new Uint8Array(1024);
  bits = new Uint8Array(1024);
  /**
   * Per entry, its successors: `targets[succFirst[k] ...]`, `succCount[k]` of them (a walk adds all of an
   * instruction's targets before it visits the next). With the leaders below they replace a Set and a
   * Map per walk, which with formBlocks' objects were most of the 16–24% of busybox's time spent in GC.
   */
  succFirst = new Int32Array(1024);
  succCount = new Int32Array(1024);
  targets = new Float64Array(256);
  targetCount = 0;
  /** Leader addresses, unordered and possibly repeated; marked as LEADER bits by `ordered`. */
  leaders = new Float64Array(256);
  leaderCount = 0;
  /** Scratch for `ordered`. */
  private order = new Int32Array(0);

  push(addr: number, d: Decoded, inDelaySlot: boolean): void {
    if (this.count === this.addr.length) this.grow();
    const k = this.count++;
    this.addr[k] = addr;
    this.len[k] = d.length;
    this.flow[k] = d.flow;
    this.target[k] = d.target;
    this.ref[k] = d.ref;
    this.refSize[k] = d.refSize;
    this.bits[k] =
      (d.refIsMemory ? REF_IS_MEMORY : 0) |
      (inDelaySlot ? IN_DELAY_SLOT : 0) |
      (d.flow === Flow.Call && d.target === addr + d.length ? CALL_NEXT : 0);
    this.succCount[k] = 0;
  }

  /** Starts a walk. */
  reset(): void {
    this.count = 0;
    this.targetCount = 0;
    this.leaderCount = 0;
  }

  /** Records a transfer from entry `k` to `target`. */
  addTarget(k: number, target: number): void {
    if (this.targetCount === this.targets.length) this.targets = grown(this.targets);
    if (this.succCount[k] === 0) this.succFirst[k] = this.targetCount;
    this.succCount[k]!++;
    this.targets[this.targetCount++] = target;
  }

  addLeader(addr: number): void {
    if (this.leaderCount === this.leaders.length) this.leaders = grown(this.leaders);
    this.leaders[this.leaderCount++] = addr;
  }

  /** Entries from `first` on, but delay slots, as objects: the straight-line run a switch table ends. */
  run(first: number): Insn[] {
    const out: Insn[] = [];
    for (let k = first; k < this.count; k++) {
      if (this.bits[k]! & IN_DELAY_SLOT) continue;
      out.push({
        addr: this.addr[k]!,
        len: this.len[k]!,
        flow: this.flow[k] as Flow,
        target: this.target[k]!,
        ref: this.ref[k]!,
        refIsMemory: (this.bits[k]! & REF_IS_MEMORY) !== 0,
        refSize: this.refSize[k]!,
        inDelaySlot: false,
      });
    }
    return out;
  }

  /**
   * Copies the entries out in address order. Runs (`runStarts`: where each straight-line run began) are
   * ascending inside, so ordering the runs by first address is enough unless two runs interleave
   * (overlapping x86 instructions), which falls back to sorting every entry.
   */
  ordered(runStarts: number[]): { insns: InsnTable; succ: Successors } {
    const n = this.count;
    const first: number[] = [];
    const end: number[] = [];
    for (let i = 0; i < runStarts.length; i++) {
      const e = i + 1 < runStarts.length ? runStarts[i + 1]! : n;
      if (e > runStarts[i]!) {
        first.push(runStarts[i]!);
        end.push(e);
      }
    }
    const byAddress = first.map((_, i) => i).sort((x, y) => this.addr[first[x]!]! - this.addr[first[y]!]!);
    if (this.order.length < n) this.order = new Int32Array(this.addr.length);
    const order = this.order;
    let k = 0;
    let sorted = true;
    for (const r of byAddress) {
      for (let e = first[r]!; e < end[r]!; e++) {
        if (k > 0 && this.addr[e]! < this.addr[order[k - 1]!]!) sorted = false;
        order[k++] = e;
      }
    }
    if (!sorted) order.subarray(0, n).sort((x, y) => this.addr[x]! - this.addr[y]!);
    const t = table(n);
    const succ: Successors = { from: new Float64Array(this.targetCount), to: new Float64Array(this.targetCount) };
    const leaders = this.leaders.subarray(0, this.leaderCount).sort();
    let s = 0;
    let l = 0;
    for (let i = 0; i < n; i++) {
      const e = order[i]!;
      const a = this.addr[e]!;
      t.addr[i] = a;
      t.len[i] = this.len[e]!;
      t.flow[i] = this.flow[e]!;
      t.ref[i] = this.ref[e]!;
      t.refSize[i] = this.refSize[e]!;
      while (l < leaders.length && leaders[l]! < a) l++;
      t.bits[i] = this.bits[e]! | (l < leaders.length && leaders[l] === a ? LEADER : 0);
      for (let c = 0, f = this.succFirst[e]!; c < this.succCount[e]!; c++) {
        succ.from[s] = a;
        succ.to[s++] = this.targets[f + c]!;
      }
    }
    return { insns: t, succ };
  }

  private grow(): void {
    const n = this.addr.length * 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.addr = f64(this.addr);
    this.len = u8(this.len);
    this.flow = u8(this.flow);
    this.target = f64(this.target);
    this.ref = f64(this.ref);
    this.refSize = u8(this.refSize);
    this.bits = u8(this.bits);
    this.succFirst = i32(this.succFirst);
    this.succCount = i32(this.succCount);
  }
}

function grown(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}
