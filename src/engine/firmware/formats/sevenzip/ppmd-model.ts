// The PPMd var.H model (Dmitry Shkarin's PPMd, as 7-Zip's Ppmd7 keeps it): contexts of up to `order`
// previous bytes, each with its symbols' frequencies, in one memory block the archive sizes. The block is
// raw text at the bottom (1/8 of it) and 12-byte units above, handed out by PPMd's own allocator; when it
// runs out the model restarts empty. Decoder and encoder must run out at the same symbol, so the allocator
// is reproduced exactly: its free lists, splitting and gluing decide when that happens.
//
// Records, at byte offsets into `heap` (offset 0 is "null"):
//   context (12 bytes, 4-aligned): numStats u16, summFreq u16, stats u32, suffix u32 — a context with one
//     symbol keeps that state inline from byte 2 (its symbol, freq and successor overlay summFreq, stats);
//   state (6 bytes, 2-aligned): symbol u8, freq u8, successor as two u16 halves (low first).
import { DecodeError } from '../../compression/errors.js';

export const MAX_ORDER = 64;
const MAX_FREQ = 124;
const UNIT = 12;
const NUM_INDEXES = 38;
const INIT_BIN_ESC = [0x3cdd, 0x1f3f, 0x59bf, 0x48f3, 0x64a1, 0x5abc, 0x6632, 0x6051];
export const PERIOD_BITS = 7;
const BIN_SCALE = 1 << 14;
/** SEE contexts: 25 by non-masked count, × 16 by the other flags; index 400 is the "dummy" one. */
export const DUMMY_SEE = 400;

const INDEX_TO_UNITS = new Uint8Array(NUM_INDEXES);
const UNITS_TO_INDEX = new Uint8Array(128);
/** Number of symbols → SEE row, and → the binary contexts' column group. */
export const NS_TO_INDEX = new Uint8Array(256);
export const NS_TO_BS_INDEX = new Uint8Array(256);
{
  for (let i = 0, k = 0; i < NUM_INDEXES; i++) {
    for (let step = i >= 12 ? 4 : (i >>> 2) + 1; step > 0; step--) UNITS_TO_INDEX[k++] = i;
    INDEX_TO_UNITS[i] = k;
  }
  NS_TO_BS_INDEX.fill(6);
  NS_TO_BS_INDEX.fill(4, 2, 11);
  NS_TO_BS_INDEX[0] = 0;
  NS_TO_BS_INDEX[1] = 2;
  for (let i = 0; i < 3; i++) NS_TO_INDEX[i] = i;
  for (let i = 3, m = 3, k = 1; i < 256; i++) {
    NS_TO_INDEX[i] = m;
    if (--k === 0) k = ++m - 2;
  }
}
const u2i = (nu: number) => UNITS_TO_INDEX[nu - 1]!;
const i2u = (i: number) => INDEX_TO_UNITS[i]!;

export class PpmdModel {
  readonly heap: Uint8Array;
  readonly h16: Uint16Array;
  readonly h32: Uint32Array;
  private readonly freeList = new Uint32Array(NUM_INDEXES);
  private readonly align: number;
  private glueCount = 0;
  private loUnit = 0;
  private hiUnit = 0;
  private text = 0;
  private unitsStart = 0;
  /** Scratch for createSuccessors (a context chain is at most `order` long). */
  private readonly ps = new Int32Array(MAX_ORDER + 1);

  minContext = 0;
  maxContext = 0;
  foundState = 0;
  orderFall = 0;
  initEsc = 0;
  prevSuccess = 0;
  hiBitsFlag = 0;
  runLength = 0;
  initRL = 0;
  readonly seeSumm = new Uint16Array(DUMMY_SEE + 1);
  readonly seeShift = new Uint8Array(DUMMY_SEE + 1);
  readonly seeCount = new Uint8Array(DUMMY_SEE + 1);
  /** [freq − 1][column]: 128 × 64 binary-context probabilities. */
  readonly binSumm = new Uint16Array(128 * 64);

  constructor(
    readonly order: number,
    readonly size: number,
  ) {
    // Units must be 4-aligned: the top of the block (align + size) is, and units are carved down from it.
    this.align = (4 - size) & 3;
    const bytes = this.align + size + UNIT;
    this.heap = new Uint8Array(bytes + ((4 - bytes) & 3));
    this.h16 = new Uint16Array(this.heap.buffer);
    this.h32 = new Uint32Array(this.heap.buffer);
    this.restart();
  }

  // Field access. Offsets of u16/u32 fields are even/4-aligned by the layout above; a state is three u16s.
  numStats(c: number): number {
    return this.h16[c >>> 1]!;
  }
  summFreq(c: number): number {
    return this.h16[(c + 2) >>> 1]!;
  }
  stats(c: number): number {
    return this.h32[(c + 4) >>> 2]!;
  }
  suffix(c: number): number {
    return this.h32[(c + 8) >>> 2]!;
  }
  successor(s: number): number {
    return (this.h16[(s + 2) >>> 1]! | (this.h16[(s + 4) >>> 1]! << 16)) >>> 0;
  }
  setSuccessor(s: number, v: number): void {
    this.h16[(s + 2) >>> 1] = v;
    this.h16[(s + 4) >>> 1] = v >>> 16;
  }
  private copyState(to: number, from: number): void {
    const h = this.h16;
    const t = to >>> 1;
    const f = from >>> 1;
    h[t] = h[f]!;
    h[t + 1] = h[f + 1]!;
    h[t + 2] = h[f + 2]!;
  }
  private swapStates(a: number, b: number): void {
    const h = this.h16;
    for (let i = a >>> 1, j = b >>> 1, end = i + 3; i < end; i++, j++) {
      const t = h[i]!;
      h[i] = h[j]!;
      h[j] = t;
    }
  }
  /** Copies `units` 12-byte units (both offsets 4-aligned). */
  private copyUnits(to: number, from: number, units: number): void {
    const h = this.h32;
    for (let t = to >>> 2, f = from >>> 2, end = f + 3 * units; f < end;) h[t++] = h[f++]!;
  }

  restart(): void {
    const h = this.heap;
    this.freeList.fill(0);
    this.text = this.align;
    this.hiUnit = this.text + this.size;
    this.loUnit = this.unitsStart = this.hiUnit - Math.floor(this.size / 8 / UNIT) * 7 * UNIT;
    this.glueCount = 0;
    this.orderFall = this.order;
    this.runLength = this.initRL = -Math.min(this.order, 12) - 1;
    this.prevSuccess = 0;

    this.hiUnit -= UNIT;
    const mc = this.hiUnit;
    const s = this.loUnit;
    this.loUnit += (256 / 2) * UNIT;
    this.minContext = this.maxContext = mc;
    this.foundState = s;
    this.h16[mc >>> 1] = 256;
    this.h16[(mc + 2) >>> 1] = 257;
    this.h32[(mc + 4) >>> 2] = s;
    this.h32[(mc + 8) >>> 2] = 0;
    for (let i = 0; i < 256; i++) {
      const st = s + 6 * i;
      h[st] = i;
      h[st + 1] = 1;
      this.setSuccessor(st, 0);
    }
    for (let i = 0; i < 128; i++)
      for (let k = 0; k < 8; k++) {
        const value = BIN_SCALE - Math.floor(INIT_BIN_ESC[k]! / (i + 2));
        for (let m = 0; m < 64; m += 8) this.binSumm[i * 64 + k + m] = value;
      }
    for (let i = 0; i < 25; i++)
      for (let k = 0; k < 16; k++) {
        this.seeSumm[i * 16 + k] = (5 * i + 10) << (PERIOD_BITS - 4);
        this.seeShift[i * 16 + k] = PERIOD_BITS - 4;
        this.seeCount[i * 16 + k] = 4;
      }
    this.seeSumm[DUMMY_SEE] = 0;
    this.seeShift[DUMMY_SEE] = PERIOD_BITS;
    this.seeCount[DUMMY_SEE] = 64;
  }

  // ---- The allocator: free lists of blocks of 1–128 units, by the 38 size classes ----

  private insertNode(node: number, index: number): void {
    this.h32[node >>> 2] = this.freeList[index]!;
    this.freeList[index] = node;
  }

  private removeNode(index: number): number {
    const node = this.freeList[index]!;
    this.freeList[index] = this.h32[node >>> 2]!;
    return node;
  }

  private splitBlock(ptr: number, oldIndex: number, newIndex: number): void {
    const nu = i2u(oldIndex) - i2u(newIndex);
    ptr += i2u(newIndex) * UNIT;
    let i = u2i(nu);
    if (i2u(i) !== nu) {
      const k = i2u(--i);
      this.insertNode(ptr + k * UNIT, nu - k - 1);
    }
    this.insertNode(ptr, i);
  }

  /**
   * Merges free blocks that touch. Every free block is stamped 0 in its first u16 (no context or state
   * array starts with a zero u16: numStats ≥ 1, a first state's freq ≥ 1), and the unit at loUnit is stamped
   * 1 as a guard; the root context at the top ends every run.
   */
  private glueFreeBlocks(): void {
    const { h16, h32 } = this;
    this.glueCount = 255;
    if (this.loUnit !== this.hiUnit) h16[this.loUnit >>> 1] = 1;
    // One list of all free blocks (stamp, unit count, next at +4), each list's blocks pushed in turn.
    let head = 0;
    for (let i = 0; i < NUM_INDEXES; i++) {
      const nu = i2u(i);
      let next = this.freeList[i]!;
      this.freeList[i] = 0;
      while (next !== 0) {
        const node = next;
        next = h32[node >>> 2]!;
        h16[node >>> 1] = 0;
        h16[(node + 2) >>> 1] = nu;
        h32[(node + 4) >>> 2] = head;
        head = node;
      }
    }
    // Blocks swallowed by an earlier one (count 0) leave the list here: filling the lists below writes into
    // the blocks that swallowed them, so they must not be visited again.
    for (let n = head, prev = 0; n !== 0;) {
      const node = n;
      let nu = h16[(n + 2) >>> 1]!;
      n = h32[(n + 4) >>> 2]!;
      if (nu === 0) {
        if (prev === 0) head = n;
        else h32[(prev + 4) >>> 2] = n;
        continue;
      }
      prev = node;
      for (;;) {
        const next = node + nu * UNIT;
        nu += h16[(next + 2) >>> 1]!;
        if (h16[next >>> 1] !== 0 || nu >= 0x10000) break;
        h16[(node + 2) >>> 1] = nu;
        h16[(next + 2) >>> 1] = 0;
      }
    }
    for (let n = head; n !== 0;) {
      let node = n;
      let nu = h16[(n + 2) >>> 1]!;
      n = h32[(n + 4) >>> 2]!;
      if (nu === 0) continue;
      for (; nu > 128; nu -= 128, node += 128 * UNIT) this.insertNode(node, NUM_INDEXES - 1);
      let i = u2i(nu);
      if (i2u(i) !== nu) {
        const k = i2u(--i);
        this.insertNode(node + k * UNIT, nu - k - 1);
      }
      this.insertNode(node, i);
    }
  }

  private allocUnitsRare(index: number): number {
    if (this.glueCount === 0) {
      this.glueFreeBlocks();
      if (this.freeList[index] !== 0) return this.removeNode(index);
    }
    let i = index;
    do {
      if (++i === NUM_INDEXES) {
        const bytes = i2u(index) * UNIT;
        this.glueCount--;
        return this.unitsStart - this.text > bytes ? (this.unitsStart -= bytes) : 0;
      }
    } while (this.freeList[i] === 0);
    const block = this.removeNode(i);
    this.splitBlock(block, i, index);
    return block;
  }

  private allocUnits(index: number): number {
    if (this.freeList[index] !== 0) return this.removeNode(index);
    const bytes = i2u(index) * UNIT;
    if (this.hiUnit - this.loUnit >= bytes) {
      const at = this.loUnit;
      this.loUnit += bytes;
      return at;
    }
    return this.allocUnitsRare(index);
  }

  private allocContext(): number {
    if (this.hiUnit !== this.loUnit) return (this.hiUnit -= UNIT);
    if (this.freeList[0] !== 0) return this.removeNode(0);
    return this.allocUnitsRare(0);
  }

  // ---- Model updates after a symbol ----

  /** Finds `symbol` among the states of context `c` (it is there: suffixes hold their children's symbols). */
  private findState(c: number, symbol: number): number {
    let s = this.stats(c);
    for (let n = this.numStats(c); n > 1 && this.heap[s] !== symbol; n--) s += 6;
    return s;
  }

  /** Turns the raw (text) successors along the suffix chain into contexts; 0 when memory runs out. */
  private createSuccessors(skip: boolean): number {
    const { heap, ps } = this;
    let c = this.minContext;
    const upBranch = this.successor(this.foundState);
    const symbol = heap[this.foundState]!;
    let numPs = 0;
    if (!skip) ps[numPs++] = this.foundState;
    while (this.suffix(c) !== 0 && numPs <= MAX_ORDER) {
      c = this.suffix(c);
      const s = this.numStats(c) !== 1 ? this.findState(c, symbol) : c + 2;
      const successor = this.successor(s);
      if (successor !== upBranch) {
        c = successor;
        if (numPs === 0) return c;
        break;
      }
      ps[numPs++] = s;
    }
    const upSymbol = heap[upBranch]!;
    let upFreq: number;
    if (this.numStats(c) === 1) upFreq = heap[c + 3]!;
    else {
      const s = this.findState(c, upSymbol);
      const cf = heap[s + 1]! - 1;
      const s0 = (this.summFreq(c) - this.numStats(c) - cf) >>> 0;
      upFreq = 1 + (2 * cf <= s0 ? (5 * cf > s0 ? 1 : 0) : Math.floor((2 * cf + 3 * s0 - 1) / (2 * s0)));
    }
    do {
      const c1 = this.allocContext();
      if (c1 === 0) return 0;
      this.h16[c1 >>> 1] = 1;
      heap[c1 + 2] = upSymbol;
      heap[c1 + 3] = upFreq;
      this.setSuccessor(c1 + 2, upBranch + 1);
      this.h32[(c1 + 8) >>> 2] = c;
      this.setSuccessor(ps[--numPs]!, c1);
      c = c1;
    } while (numPs !== 0);
    return c;
  }

  updateModel(): void {
    const { heap, h16, h32 } = this;
    const fs = this.foundState;
    const fSymbol = heap[fs]!;
    let fSuccessor = this.successor(fs);
    if (heap[fs + 1]! < MAX_FREQ / 4 && this.suffix(this.minContext) !== 0) {
      const c = this.suffix(this.minContext);
      if (this.numStats(c) === 1) {
        if (heap[c + 3]! < 32) heap[c + 3] = heap[c + 3]! + 1;
      } else {
        let s = this.stats(c);
        if (heap[s] !== fSymbol) {
          s = this.findState(c, fSymbol);
          if (heap[s + 1]! >= heap[s - 5]!) {
            this.swapStates(s, s - 6);
            s -= 6;
          }
        }
        if (heap[s + 1]! < MAX_FREQ - 9) {
          heap[s + 1] = heap[s + 1]! + 2;
          h16[(c + 2) >>> 1] = h16[(c + 2) >>> 1]! + 2;
        }
      }
    }

    if (this.orderFall === 0) {
      this.minContext = this.maxContext = this.createSuccessors(true);
      if (this.minContext === 0) return this.restart();
      this.setSuccessor(this.foundState, this.minContext);
      return;
    }

    heap[this.text++] = fSymbol;
    let successor = this.text;
    if (this.text >= this.unitsStart) return this.restart();
    if (fSuccessor !== 0) {
      if (fSuccessor <= successor) {
        const cs = this.createSuccessors(false);
        if (cs === 0) return this.restart();
        fSuccessor = cs;
      }
      if (--this.orderFall === 0) {
        successor = fSuccessor;
        if (this.maxContext !== this.minContext) this.text--;
      }
    } else {
      this.setSuccessor(fs, successor);
      fSuccessor = this.minContext;
    }

    const ns = this.numStats(this.minContext);
    const fFreq = heap[fs + 1]!;
    const s0 = this.summFreq(this.minContext) - ns - (fFreq - 1);
    let steps = 0;
    for (let c = this.maxContext; c !== this.minContext; c = this.suffix(c)) {
      if (++steps > MAX_ORDER) throw new DecodeError('PPMd model inconsistent');
      const ns1 = this.numStats(c);
      let sum: number;
      if (ns1 !== 1) {
        if ((ns1 & 1) === 0) {
          // The states array is full: move it to a block one unit larger.
          const oldNU = ns1 >>> 1;
          const i = u2i(oldNU);
          if (i !== u2i(oldNU + 1)) {
            const ptr = this.allocUnits(i + 1);
            if (ptr === 0) return this.restart();
            const old = this.stats(c);
            this.copyUnits(ptr, old, oldNU);
            this.insertNode(old, i);
            h32[(c + 4) >>> 2] = ptr;
          }
        }
        sum = this.summFreq(c);
        sum += (2 * ns1 < ns ? 1 : 0) + 2 * (4 * ns1 <= ns && sum <= 8 * ns1 ? 1 : 0);
      } else {
        // A one-symbol context becomes a two-symbol one: its inline state moves to a states array.
        const s = this.allocUnits(0);
        if (s === 0) return this.restart();
        this.copyState(s, c + 2);
        h32[(c + 4) >>> 2] = s;
        let freq = heap[s + 1]!;
        freq = freq < MAX_FREQ / 4 - 1 ? freq * 2 : MAX_FREQ - 4;
        heap[s + 1] = freq;
        sum = freq + this.initEsc + (ns > 3 ? 1 : 0);
      }
      let cf = 2 * fFreq * (sum + 6);
      const sf = s0 + sum;
      if (cf < 6 * sf) {
        cf = 1 + (cf > sf ? 1 : 0) + (cf >= 4 * sf ? 1 : 0);
        sum += 3;
      } else {
        cf = 4 + (cf >= 9 * sf ? 1 : 0) + (cf >= 12 * sf ? 1 : 0) + (cf >= 15 * sf ? 1 : 0);
        sum += cf;
      }
      h16[(c + 2) >>> 1] = sum;
      const s = this.stats(c) + ns1 * 6;
      this.setSuccessor(s, successor);
      heap[s] = fSymbol;
      heap[s + 1] = cf;
      h16[c >>> 1] = ns1 + 1;
    }
    this.maxContext = this.minContext = fSuccessor;
  }

  /** Halves the frequencies of the current context (one passed MAX_FREQ), dropping those that reach 0. */
  rescale(): void {
    const { heap } = this;
    const mc = this.minContext;
    const stats = this.stats(mc);
    let s = this.foundState;
    // The found state moves to the front.
    if (s !== stats) {
      const sym = heap[s]!;
      const freq = heap[s + 1]!;
      const succ = this.successor(s);
      heap.copyWithin(stats + 6, stats, s);
      s = stats;
      heap[s] = sym;
      heap[s + 1] = freq;
      this.setSuccessor(s, succ);
    }
    let escFreq = (this.summFreq(mc) - heap[s + 1]!) >>> 0;
    const adder = this.orderFall !== 0 ? 1 : 0;
    let sumFreq = (heap[s + 1]! + 4 + adder) >>> 1;
    heap[s + 1] = sumFreq;
    for (let i = this.numStats(mc) - 1; i > 0; i--) {
      s += 6;
      let freq = heap[s + 1]!;
      escFreq = (escFreq - freq) >>> 0;
      freq = (freq + adder) >>> 1;
      sumFreq += freq;
      heap[s + 1] = freq;
      if (freq > heap[s - 5]!) {
        // Keep the array sorted by frequency: insertion into the run before it.
        const sym = heap[s]!;
        const succ = this.successor(s);
        let s1 = s;
        do {
          this.copyState(s1, s1 - 6);
          s1 -= 6;
        } while (s1 !== stats && freq > heap[s1 - 5]!);
        heap[s1] = sym;
        heap[s1 + 1] = freq;
        this.setSuccessor(s1, succ);
      }
    }
    if (heap[s + 1] === 0) {
      let removed = 0;
      do {
        removed++;
        s -= 6;
      } while (heap[s + 1] === 0);
      escFreq = (escFreq + removed) >>> 0;
      const numStats = this.numStats(mc);
      const kept = numStats - removed;
      this.h16[mc >>> 1] = kept;
      const n0 = (numStats + 1) >>> 1;
      if (kept === 1) {
        let freq = heap[stats + 1]!;
        do {
          escFreq >>>= 1;
          freq = (freq + 1) >>> 1;
        } while (escFreq > 1);
        this.copyState(mc + 2, stats);
        heap[mc + 3] = freq;
        this.foundState = mc + 2;
        this.insertNode(stats, u2i(n0));
        return;
      }
      const n1 = (kept + 1) >>> 1;
      const i0 = u2i(n0);
      const i1 = u2i(n1);
      if (n0 !== n1 && i0 !== i1) {
        if (this.freeList[i1] !== 0) {
          const ptr = this.removeNode(i1);
          this.copyUnits(ptr, stats, n1);
          this.h32[(mc + 4) >>> 2] = ptr;
          this.insertNode(stats, i0);
        } else this.splitBlock(stats, i0, i1);
      }
    }
    this.h16[(mc + 2) >>> 1] = sumFreq + escFreq - (escFreq >>> 1);
    this.foundState = this.stats(mc);
  }

  // ---- After each decoded symbol: which update runs depends on where the symbol was found ----

  /** The first (most probable) symbol of a multi-symbol context. */
  update1First(): void {
    const s = this.foundState;
    const mc = this.minContext;
    const freq = this.heap[s + 1]!;
    const summ = this.summFreq(mc);
    this.prevSuccess = 2 * freq > summ ? 1 : 0;
    this.runLength += this.prevSuccess;
    this.h16[(mc + 2) >>> 1] = summ + 4;
    this.heap[s + 1] = freq + 4;
    if (freq + 4 > MAX_FREQ) this.rescale();
    this.nextContext();
  }

  /** Another symbol of the context it was first looked for in: it moves up one place if it now outranks. */
  update1(): void {
    let s = this.foundState;
    const mc = this.minContext;
    const freq = this.heap[s + 1]! + 4;
    this.heap[s + 1] = freq;
    this.h16[(mc + 2) >>> 1] = this.summFreq(mc) + 4;
    if (freq > this.heap[s - 5]!) {
      this.swapStates(s, s - 6);
      this.foundState = s -= 6;
      if (freq > MAX_FREQ) this.rescale();
    }
    this.nextContext();
  }

  /** A symbol found in a shorter context after escapes. */
  update2(): void {
    const s = this.foundState;
    const mc = this.minContext;
    const freq = this.heap[s + 1]! + 4;
    this.runLength = this.initRL;
    this.h16[(mc + 2) >>> 1] = this.summFreq(mc) + 4;
    this.heap[s + 1] = freq;
    if (freq > MAX_FREQ) this.rescale();
    this.updateModel();
  }

  /** The symbol of a one-symbol (binary) context. */
  updateBin(): void {
    const s = this.foundState;
    const freq = this.heap[s + 1]!;
    this.heap[s + 1] = freq + (freq < 128 ? 1 : 0);
    this.prevSuccess = 1;
    this.runLength++;
    this.nextContext();
  }

  /** Moves to the found state's successor context, or updates the model when it is not a real one yet. */
  private nextContext(): void {
    const c = this.successor(this.foundState);
    if (this.orderFall === 0 && c > this.text) this.minContext = this.maxContext = c;
    else this.updateModel();
  }
}
