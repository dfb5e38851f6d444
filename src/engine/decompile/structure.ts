// Structuring: a function's blocks, joined by jumps, as nested C statements. Natural loops (from the
// dominator tree) become loops; a conditional branch becomes if/else whose arms meet again at the branch's
// immediate post-dominator; a jump to the innermost loop's head or exit becomes continue or break. Whatever
// fits none of these — irreducible flow, a loop's second exit, a join another construct already placed —
// is first a goto to the block's label; in reducible flow, goto elimination then replaces each of them.
import { immediateDominators, reversePostorder } from '../ir/dominators.js';
import { isDeclaration, isJump, negate, type CStmt, type Origins } from './c-tree.js';
import { eliminateGotos } from './goto-elimination.js';

/** How a block leaves, once its own statements have run; `at`: the instructions that decide where. */
export type BlockExit =
  /** To its one successor (none: the output aborts, as the machine would run off the code). */
  | { k: 'next' }
  | { k: 'branch'; cond: string; at: Origins; taken: number; fall: number }
  /** A computed jump: `pre` computes what `cases` test, each to one successor. */
  | { k: 'switch'; pre: CStmt[]; at: Origins; cases: { test: string; to: number }[] }
  /** A jump through a table read at `value`: each successor with the values that lead to it. */
  | { k: 'table'; value: string; at: Origins; cases: { values: number[]; to: number }[] }
  /** Its statements end it (return, tail call). */
  | { k: 'end' };

export interface FlowGraph {
  count: number;
  entry: number;
  /** Successors and predecessors reachable from the entry. */
  succ(b: number): readonly number[];
  pred(b: number): readonly number[];
  body(b: number): CStmt[];
  exit(b: number): BlockExit;
  label(b: number): string;
}

/** Regions nested deeper than this continue through a goto (bounds the recursion on huge functions). */
const MAX_DEPTH = 96;
/** Lines a short block may have to be written again where a goto would lead to it. */
const MAX_COPIED_LINES = 4;
/** Short blocks one copy may run through before it falls out, continues, breaks or returns. */
const MAX_COPY_CHAIN = 2;

interface Loop {
  header: number;
  body: Set<number>;
  follow: number | null;
}

/** Statements a condition may carry before its test (the comma operator's operands). */
const MAX_CONDITION_STEPS = 2;

/**
 * A block's statements as expressions to run before its test (and what they came from): each a one-line
 * statement (no declaration, label or control), at most MAX_CONDITION_STEPS; null when they cannot be.
 */
function prefix(body: CStmt[]): { steps: string[]; at: number[] } | null {
  if (body.length > MAX_CONDITION_STEPS) return null;
  const steps: string[] = [];
  const at: number[] = [];
  for (const s of body) {
    if (s.k !== 'line' || s.ends || s.text.includes('\n') || !s.text.endsWith(';')) return null;
    // Statements that are not expressions: declarations and control.
    const t = s.text;
    if (/^(if|for|while|do|switch|return|goto|break|continue)\b/.test(t) || isDeclaration(t)) return null;
    steps.push(t.slice(0, -1));
    at.push(...s.at);
  }
  return { steps, at };
}

/** A construct being written that `break` leaves: a loop, or a switch (whose header is -1). */
type Breakable = Loop & { switch?: true };

/**
 * The function's statements, and the flags goto elimination declared (false at the start). Flow that is
 * reducible comes out without a goto; irreducible flow (a cycle entered in two places) keeps the gotos
 * the structurer leaves, which read better than what flags would make of them.
 */
export function structure(g: FlowGraph): { body: CStmt[]; flags: string[]; irreducible: boolean } {
  const s = new Structurer(g);
  const body = s.run();
  const irreducible = !s.reducible();
  return { body, flags: irreducible ? [] : eliminateGotos(body), irreducible };
}

class Structurer {
  private readonly order: number[];
  private readonly idom: Int32Array;
  private readonly ipdom: Int32Array;
  private readonly loops = new Map<number, Loop>();
  /** Dominator-subtree size per block. */
  private readonly size: Int32Array;
  /** Dominator-tree children per block, in reverse postorder. */
  private readonly children: number[][];
  private readonly placed = new Set<number>();
  private readonly wanted = new Set<number>();
  private readonly open: Breakable[] = [];
  private readonly follows: number[] = [];
  private readonly reach = new Map<string, boolean>();
  private depth = 0;

  constructor(private readonly g: FlowGraph) {
    const n = g.count;
    this.order = reversePostorder(n, g.entry, (b) => g.succ(b));
    this.idom = immediateDominators(n, this.order, (b) => g.pred(b));
    // Post-dominators: dominators of the reversed graph, rooted at a virtual exit (node n) that every
    // block without successors leads to.
    const exits = this.order.filter((b) => !g.succ(b).length);
    const exitSet = new Set(exits);
    const porder = reversePostorder(n + 1, n, (b) => (b === n ? exits : g.pred(b)));
    this.ipdom = immediateDominators(n + 1, porder, (b) => (exitSet.has(b) ? [...g.succ(b), n] : g.succ(b)));
    this.size = new Int32Array(n).fill(1);
    this.children = Array.from({ length: n }, () => []);
    for (let i = this.order.length - 1; i > 0; i--) {
      const b = this.order[i]!;
      const d = this.idom[b]!;
      if (d >= 0) {
        this.size[d]! += this.size[b]!;
        this.children[d]!.unshift(b);
      }
    }
    this.findLoops();
  }

  run(): CStmt[] {
    const out = this.seq(this.g.entry, null);
    // Blocks reached only by goto, each a region of its own after the rest.
    for (let again = true; again;) {
      again = false;
      for (const b of this.order)
        if (this.wanted.has(b) && !this.placed.has(b)) {
          out.push(...this.seq(b, null));
          again = true;
        }
    }
    return out;
  }

  /** Every edge to a block no later in reverse postorder goes to a block that dominates its source. */
  reducible(): boolean {
    const rank = new Map(this.order.map((b, i) => [b, i]));
    return this.order.every((b) => this.g.succ(b).every((s) => rank.get(s)! > rank.get(b)! || this.dominates(s, b)));
  }

  private dominates(a: number, b: number): boolean {
    for (let d = b; d >= 0; d = this.idom[d]!) if (d === a) return true;
    return false;
  }

  /** Natural loops: a back edge's target dominates its source; the body is what reaches the source without it. */
  private findLoops(): void {
    const { g } = this;
    for (const b of this.order)
      for (const h of g.succ(b)) {
        if (!this.dominates(h, b)) continue;
        let loop = this.loops.get(h);
        if (!loop) this.loops.set(h, (loop = { header: h, body: new Set([h]), follow: null }));
        const stack = [b];
        while (stack.length) {
          const x = stack.pop()!;
          if (loop.body.has(x)) continue;
          loop.body.add(x);
          stack.push(...g.pred(x));
        }
      }
    const rank = new Map(this.order.map((b, i) => [b, i]));
    for (const loop of this.loops.values()) {
      const exits = new Set<number>();
      for (const x of loop.body) for (const s of g.succ(x)) if (!loop.body.has(s)) exits.add(s);
      // Where the loop's paths meet after it (each exit's own code then runs in the loop and breaks), else
      // its earliest exit; exits that reach neither stay gotos.
      let p = this.ipdom[loop.header]!;
      while (p >= 0 && p < g.count && loop.body.has(p)) p = this.ipdom[p]!;
      loop.follow = p >= 0 && p < g.count ? p : ([...exits].sort((a, b) => rank.get(a)! - rank.get(b)!)[0] ?? null);
    }
  }

  /** Whether some path leads from `from` to `to` (bounded by the graph; memoised). */
  private reaches(from: number, to: number): boolean {
    const key = `${from}>${to}`;
    let r = this.reach.get(key);
    if (r !== undefined) return r;
    const seen = new Set<number>([from]);
    const stack = [from];
    r = false;
    while (stack.length && !r) {
      const x = stack.pop()!;
      for (const s of this.g.succ(x)) {
        if (s === to) r = true;
        if (!seen.has(s)) {
          seen.add(s);
          stack.push(s);
        }
      }
    }
    this.reach.set(key, r);
    return r;
  }

  /** A block may be written inside `loop`: in its body, or on an exit path of its own that never comes back. */
  private belongs(loop: Loop, b: number): boolean {
    return loop.body.has(b) || (this.dominates(loop.header, b) && !this.reaches(b, loop.header));
  }

  /**
   * How control gets from where the output is to block `to`, when the code after the current construct is
   * `follow`: nothing (it falls out to it), continue, break, a goto — or a copy of `to` when it is a short
   * block that returns (the shared epilogue: its copy ends the path as a goto to it would) — or 'place':
   * write `to` here.
   */
  private transfer(to: number, follow: number | null): CStmt[] | 'place' {
    if (to === follow) return [];
    const loop = this.innerLoop();
    if (loop?.header === to) return [{ k: 'continue' }];
    if (this.open[this.open.length - 1]?.follow === to) return [{ k: 'break' }];
    if (
      this.placed.has(to) ||
      this.follows.includes(to) ||
      this.open.some((l) => l.header === to || l.follow === to) ||
      (loop && !this.belongs(loop, to)) ||
      this.depth >= MAX_DEPTH
    ) {
      const copy = this.copyOf(to, follow, 0);
      // Its own statements: later rewrites may change one copy, not the others.
      if (copy) return structuredClone(copy);
      this.wanted.add(to);
      return [{ k: 'goto', name: this.g.label(to) }];
    }
    return 'place';
  }

  /**
   * Block `b`'s statements (shared, for the caller to copy) again when it is short (assignments aside, which the epilogue's stack-pointer
   * bookkeeping is and the output drops when nothing reads them) and ends without a goto from here: it
   * returns, or goes on (through a branch too) to where the current construct continues, its loop's head
   * or exit, or another such block (`depth` of them at most); else null.
   */
  private copyOf(b: number, follow: number | null, depth: number): CStmt[] | null {
    const body = this.g.body(b);
    if (this.loops.has(b) || body.length > 3 * MAX_COPIED_LINES || depth > MAX_COPY_CHAIN) return null;
    const lines = body.reduce(
      (n, s) => n + (s.k !== 'line' ? MAX_COPIED_LINES + 1 : s.assigns ? 0 : s.text.split('\n').length),
      0,
    );
    if (lines > MAX_COPIED_LINES) return null;
    const exit = this.g.exit(b);
    if (exit.k === 'end') return body;
    const on = (to: number) => this.leadsOn(to, follow, depth + 1);
    if (exit.k === 'next' || (exit.k === 'branch' && exit.taken === exit.fall)) {
      const s = exit.k === 'branch' ? exit.taken : this.g.succ(b)[0];
      const rest = s === undefined ? null : on(s);
      return rest && [...body, ...rest];
    }
    if (exit.k !== 'branch') return null;
    const [then, other] = [on(exit.taken), on(exit.fall)];
    return then && other ? [...body, { k: 'if', cond: exit.cond, at: exit.at, then, else: other }] : null;
  }

  /** How a copy goes on to `to` without a goto: falling out, continue, break or a copy of `to`; else null. */
  private leadsOn(to: number, follow: number | null, depth: number): CStmt[] | null {
    if (to === follow) return [];
    if (this.innerLoop()?.header === to) return [{ k: 'continue' }];
    if (this.open[this.open.length - 1]?.follow === to) return [{ k: 'break' }];
    return this.copyOf(to, follow, depth);
  }

  /** A short block that returns (the join of a branch with one such arm is the other). */
  private copyable(b: number): boolean {
    return this.g.exit(b).k === 'end' && this.copyOf(b, null, 0) !== null;
  }

  /** The innermost loop being written (a switch inside it keeps its `continue`). */
  private innerLoop(): Loop | undefined {
    for (let i = this.open.length - 1; i >= 0; i--) if (!this.open[i]!.switch) return this.open[i];
    return undefined;
  }

  /** Blocks from `b` on, in sequence, until control leaves or reaches `follow`. */
  private seq(b: number, follow: number | null): CStmt[] {
    if (follow !== null) this.follows.push(follow);
    this.depth++;
    const out: CStmt[] = [];
    for (let cur = b; ;) {
      let next: number | null;
      const loop = this.loops.get(cur);
      if (loop && !this.open.includes(loop)) {
        this.open.push(loop);
        const body = this.seq(cur, null);
        this.open.pop();
        out.push({ k: 'loop', cond: null, at: [], post: false, body });
        next = loop.follow;
      } else next = this.block(cur, out);
      if (next === null) break;
      const t = this.transfer(next, follow);
      if (t === 'place') {
        cur = next;
        continue;
      }
      out.push(...t);
      break;
    }
    this.depth--;
    if (follow !== null) this.follows.pop();
    return out;
  }

  /** Writes block `b` and how it leaves; returns the block control continues at after it, if any. */
  private block(b: number, out: CStmt[]): number | null {
    const { g } = this;
    this.placed.add(b);
    out.push({ k: 'label', name: g.label(b) }, ...g.body(b));
    const exit = this.shortCircuit(g.exit(b));
    if (exit.k === 'end') return null;
    if (exit.k === 'next' || (exit.k === 'branch' && exit.taken === exit.fall)) {
      const s = exit.k === 'branch' ? exit.taken : g.succ(b)[0];
      if (s === undefined) {
        out.push({ k: 'line', text: 'abort();', at: [], ends: true });
        return null;
      }
      return s;
    }
    const loop = this.innerLoop();
    const breaks = loop && this.open[this.open.length - 1] === loop;
    if (exit.k === 'branch' && loop) {
      // A branch to the loop's head or exit is `if (c) continue;` or `if (c) break;`, and the code goes on.
      const jump = (to: number): CStmt | null =>
        to === loop.header ? { k: 'continue' } : to === loop.follow && breaks ? { k: 'break' } : null;
      const [taken, fall] = [jump(exit.taken), jump(exit.fall)];
      if (taken) {
        out.push({ k: 'if', cond: exit.cond, at: exit.at, then: [taken], else: [] });
        return exit.fall;
      }
      if (fall) {
        out.push({ k: 'if', cond: negate(exit.cond), at: exit.at, then: [fall], else: [] });
        return exit.taken;
      }
      // One way stays in the loop, the other leaves it: `if (c) { …; break; }` and the loop goes on.
      const leaves = (to: number, other: number) => !loop.body.has(to) && loop.body.has(other);
      for (const [to, other, cond] of [
        [exit.taken, exit.fall, exit.cond],
        [exit.fall, exit.taken, negate(exit.cond)],
      ] as const)
        if (leaves(to, other)) {
          const t = this.transfer(to, null);
          out.push({ k: 'if', cond, at: exit.at, then: t === 'place' ? this.seq(to, null) : t, else: [] });
          return other;
        }
    }
    const join = this.join(b, exit);
    const arm = (to: number): CStmt[] => {
      const t = this.transfer(to, join);
      return t === 'place' ? this.seq(to, join) : t;
    };
    if (exit.k === 'branch') {
      out.push({ k: 'if', cond: exit.cond, at: exit.at, then: arm(exit.taken), else: arm(exit.fall) });
      return join;
    }
    if (exit.k === 'table') {
      // Inside the switch `break` goes to the join, and a case that falls out must say so (C falls through).
      this.open.push({ header: -1, body: new Set(), follow: join, switch: true });
      const cases = exit.cases.map((c) => {
        const body = arm(c.to);
        return { labels: c.values, body: isJump(body[body.length - 1]) ? body : [...body, { k: 'break' } as CStmt] };
      });
      this.open.pop();
      out.push({
        k: 'switch',
        value: exit.value,
        at: exit.at,
        cases: [...cases, { labels: null, body: [{ k: 'line', text: 'abort();', at: [], ends: true }] }],
      });
      return join;
    }
    let chain: CStmt[] = [{ k: 'line', text: 'abort();', at: [], ends: true }];
    for (const c of [...exit.cases].reverse())
      chain = [{ k: 'if', cond: c.test, at: exit.at, then: arm(c.to), else: chain }];
    out.push({ k: 'scope', body: [...exit.pre, ...chain] });
    return join;
  }

  /**
   * A branch whose arm is a block that only branches again (after at most a few one-line statements),
   * reached from nowhere else (and not where an enclosing construct continues), shares a target with it:
   * the two conditions as one with && or ||, the second evaluated only when the first does not decide, as
   * the machine does — the inner block's statements with it, before its test (`(a) || (x = f(y), x < 3)`).
   * Absorbed so, the inner block is written nowhere else.
   */
  private shortCircuit(exit: BlockExit): BlockExit {
    const { g } = this;
    for (let guard = 0; exit.k === 'branch' && guard < 64; guard++) {
      // Not a block an enclosing construct continues at (its code after the construct would jump to it).
      const continued = (x: number) => this.follows.includes(x) || this.open.some((l) => l.follow === x);
      const inner = (x: number) => {
        const pre = g.pred(x).length === 1 && !this.loops.has(x) && !continued(x) ? prefix(g.body(x)) : null;
        const e = pre === null ? null : g.exit(x);
        // The merged test states the inner block's statements and test as well as this one.
        return e?.k === 'branch' && e.taken !== e.fall ? { ...e, steps: pre!.steps, at: [...e.at, ...pre!.at] } : null;
      };
      const { cond, taken, fall } = exit;
      // Statements move into a condition only to save a goto: not when the shared target is where a loop
      // goes on or ends (continue and break reach it without one).
      const loop = this.innerLoop();
      const jumps = (to: number) => to === loop?.header || this.open.some((l) => l.follow === to);
      const [t0, f0] = [inner(taken), inner(fall)];
      const t = t0 && (!t0.steps.length || !jumps(fall)) ? t0 : null;
      const f = f0 && (!f0.steps.length || !jumps(taken)) ? f0 : null;
      const test = (steps: string[], c: string) => (steps.length ? `${steps.join(', ')}, ${c}` : c);
      let next: BlockExit | null = null;
      if (f && (f.taken === taken || f.fall === taken)) {
        const also = test(f.steps, f.taken === taken ? f.cond : negate(f.cond));
        next = {
          k: 'branch',
          cond: `(${cond}) || (${also})`,
          at: [...exit.at, ...f.at],
          taken,
          fall: f.taken === taken ? f.fall : f.taken,
        };
      } else if (t && (t.fall === fall || t.taken === fall)) {
        const also = test(t.steps, t.fall === fall ? t.cond : negate(t.cond));
        next = {
          k: 'branch',
          cond: `(${cond}) && (${also})`,
          at: [...exit.at, ...t.at],
          taken: t.fall === fall ? t.taken : t.fall,
          fall,
        };
      }
      if (!next) break;
      exit = next;
    }
    return exit;
  }

  /**
   * Where the arms of `b`'s branch meet: its immediate post-dominator; when they part for good (one
   * returns), the arm the other leads to, a block both reach, the arm other blocks reach too, else the one
   * heading the larger part of the function.
   */
  private join(b: number, exit: Extract<BlockExit, { k: 'branch' | 'switch' | 'table' }>): number | null {
    const p = this.ipdom[b]!;
    if (p >= 0 && p < this.g.count) return p;
    if (exit.k === 'branch') {
      // An if without else: one arm leads on to the other.
      const [t, f] = [exit.taken, exit.fall];
      if (this.reaches(t, f) !== this.reaches(f, t)) return this.reaches(t, f) ? f : t;
    }
    // A block b dominates that more than one arm reaches: where their paths meet before returning apart.
    const arms = exit.k === 'branch' ? [exit.taken, exit.fall] : exit.cases.map((c) => c.to);
    const meet = this.children[b]!.find((c) => !arms.includes(c) && arms.filter((a) => this.reaches(a, c)).length > 1);
    if (meet !== undefined) return meet;
    if (exit.k !== 'branch') return null;
    // A short arm that returns is written where it is needed (copyOf): the code goes on with the other.
    if (this.copyable(exit.taken) !== this.copyable(exit.fall))
      return this.copyable(exit.taken) ? exit.fall : exit.taken;
    const shared = (s: number) => this.idom[s] !== b;
    if (shared(exit.taken) !== shared(exit.fall)) return shared(exit.taken) ? exit.taken : exit.fall;
    return this.size[exit.taken]! > this.size[exit.fall]! ? exit.taken : exit.fall;
  }
}
