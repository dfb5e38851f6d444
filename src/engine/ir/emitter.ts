// One instruction's statements, gathered and then written in an order that keeps the IR's rule: no
// statement of an instruction reads a value another statement of the same instruction already overwrote.
// Lifters for ISAs whose instructions write several registers at once (AArch64 and ARM loads and stores
// with writeback, pairs and register lists; flag-setting ALU operations; MIPS multiplies) describe the
// instruction as if every write happened at once, and the emitter orders them: stores first (they read the
// registers before any write), then register writes, each one after every other write that still reads
// its old value, a cycle broken through the scratch register; the control transfer last. A predicated
// instruction (ARM conditional execution) has every write guarded: `r = select(cond, new, old)`.
import { forEachRegRead, load, reg, type Expr, type Stmt } from './ir.js';

interface Write {
  r: number;
  e: Expr;
}

export class InsnEmitter {
  at = 0;
  /** Statements that must precede the rest (an atomic operation's read of memory into the scratch register). */
  private readonly early: Stmt[] = [];
  private readonly stores: Extract<Stmt, { k: 'store' }>[] = [];
  private readonly writes: Write[] = [];
  private readonly transfers: Stmt[] = [];
  private guard: Expr | null = null;

  /** `temp`: the register file's scratch register for breaking cycles (lifters use the one after it). */
  constructor(private readonly temp: number) {}

  begin(at: number): void {
    this.at = at;
    this.early.length = 0;
    this.stores.length = 0;
    this.writes.length = 0;
    this.transfers.length = 0;
    this.guard = null;
  }

  /** Register `r` ← `e` (every write reads the values from before the instruction). */
  set(r: number, e: Expr): void {
    this.writes.push({ r, e });
  }

  store(addr: Expr, v: Expr): void {
    this.stores.push({ k: 'store', addr, v, w: v.w, at: this.at });
  }

  /** A statement that runs before the instruction's stores and writes. */
  first(s: Stmt): void {
    this.early.push(s);
  }

  /** A call, jump, branch, return or effect, after the writes. */
  transfer(s: Stmt): void {
    this.transfers.push(s);
  }

  /** The instruction's writes and stores happen only when `c` is non-zero (read before any write). */
  predicate(c: Expr): void {
    this.guard = c;
  }

  /** Some write gathered so far targets a register `e` reads. */
  overwrites(e: Expr): boolean {
    return this.writes.some((w) => reads(e, w.r));
  }

  /** Appends the instruction's statements to `out`. */
  commit(out: Stmt[], widths: readonly number[]): void {
    for (const s of this.early) out.push(s);
    const g = this.guard;
    for (const s of this.stores) {
      if (g) s.v = { k: 'select', c: g, a: s.v, b: load(s.addr, s.w), w: s.w };
      out.push(s);
    }
    const pending = g
      ? this.writes.map(({ r, e }) => ({ r, e: { k: 'select', c: g, a: e, b: reg(r, widths[r]!), w: e.w } as Expr }))
      : this.writes;
    this.assign(pending, out);
    for (const s of this.transfers) out.push(s);
  }

  private assign(pending: Write[], out: Stmt[]): void {
    if (pending.length === 1) {
      out.push({ k: 'set', r: pending[0]!.r, ver: -1, e: pending[0]!.e, at: this.at });
      return;
    }
    let left = pending.slice();
    while (left.length) {
      const i = left.findIndex((w, k) => !left.some((o, j) => j !== k && reads(o.e, w.r)));
      if (i >= 0) {
        out.push({ k: 'set', r: left[i]!.r, ver: -1, e: left[i]!.e, at: this.at });
        left.splice(i, 1);
        continue;
      }
      // A cycle (a conditional flag-setting operation: the flags and its result read each other): the
      // first write's value waits in the scratch register.
      const w = left[0]!;
      out.push({ k: 'set', r: this.temp, ver: -1, e: w.e, at: this.at });
      left = [...left.slice(1), { r: w.r, e: reg(this.temp, w.e.w) }];
    }
  }
}

function reads(e: Expr, r: number): boolean {
  let found = false;
  forEachRegRead(e, (x) => (found ||= x.r === r));
  return found;
}
