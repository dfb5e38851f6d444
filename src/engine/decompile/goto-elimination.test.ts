// Structuring and goto elimination against the flow graph they come from: random graphs are structured
// (structure → eliminateGotos → dropUnread → simplify, as a function's C is made) and the resulting
// statements are interpreted beside the graph, with the same outcome for each branch at each visit. Both
// must run the same blocks in the same order; a reducible graph must come out without a goto. Each line must
// carry the origins of exactly the statements and tests it spells, wherever the rewrites moved them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropUnread, printC, simplify, type CStmt } from './c-tree.js';
import { seededRandom } from '../../shared/seeded-random.js';
import { structure, type BlockExit } from './structure.js';

type Block = { quiet: boolean } & (
  { k: 'next'; to: number } | { k: 'branch'; to: [number, number] } | { k: 'table'; to: number[] } | { k: 'ret' }
);

/** The outcome of a block's branch (or switch) at its `visit`-th test, the same on both sides. */
const outcome = (seed: number, block: number, visit: number, ways: number) =>
  Math.floor(seededRandom(seed * 7919 + block * 104729 + visit * 31)() * ways);

/** A random graph of 3 to 2 + `size` blocks, all reachable from block 0. */
function randomGraph(seed: number, size: number): Block[] {
  const next = seededRandom(seed);
  const n = 3 + Math.floor(next() * size);
  const pick = () => Math.floor(next() * n);
  const blocks: Block[] = [];
  for (let b = 0; b < n; b++) {
    const r = next();
    const quiet = next() < 0.25;
    if (r < 0.15) blocks.push({ k: 'ret', quiet });
    else if (r < 0.4) blocks.push({ k: 'next', to: pick(), quiet });
    else if (r < 0.9) blocks.push({ k: 'branch', to: [pick(), pick()], quiet });
    else blocks.push({ k: 'table', to: [pick(), pick(), pick()], quiet });
  }
  // Keep what block 0 reaches, renumbered in order of discovery.
  const order = [0];
  const index = new Map([[0, 0]]);
  for (let i = 0; i < order.length; i++)
    for (const s of succOf(blocks[order[i]!]!)) if (!index.has(s)) index.set(s, order.push(s) - 1);
  return order.map((b) => {
    const x = blocks[b]!;
    if (x.k === 'ret') return x;
    if (x.k === 'next') return { ...x, to: index.get(x.to)! };
    if (x.k === 'branch') return { ...x, to: [index.get(x.to[0])!, index.get(x.to[1])!] };
    return { ...x, to: x.to.map((t) => index.get(t)!) };
  });
}

const succOf = (b: Block): number[] => (b.k === 'ret' ? [] : b.k === 'next' ? [b.to] : b.to);

/** Reducible: every edge to a block on the depth-first stack goes to a block that dominates its source. */
function reducible(blocks: Block[]): boolean {
  const n = blocks.length;
  const dom = blocks.map((_, b) => (b === 0 ? new Set([0]) : new Set(blocks.keys())));
  for (let changed = true; changed;) {
    changed = false;
    for (let b = 1; b < n; b++) {
      const preds = blocks.flatMap((x, p) => (succOf(x).includes(b) ? [p] : []));
      const meet = new Set([...dom[preds[0]!]!].filter((d) => preds.every((p) => dom[p]!.has(d))));
      meet.add(b);
      if (meet.size !== dom[b]!.size) {
        dom[b] = meet;
        changed = true;
      }
    }
  }
  const state = new Uint8Array(n);
  const visit = (b: number): boolean => {
    state[b] = 1;
    for (const s of succOf(blocks[b]!)) {
      if (state[s] === 1 && !dom[b]!.has(s)) return false;
      if (state[s] === 0 && !visit(s)) return false;
    }
    state[b] = 2;
    return true;
  };
  return visit(0);
}

/** Block b's statements come from "instruction" b, its branch or table from TEST + b. */
const TEST = 1000;

/** The origins a printed line spells: its blocks' statements (`bN;`, `return N;`) and tests (`cN`, `vN`). */
function spelled(line: string): number[] {
  const found = [...line.matchAll(/\b(?:b|return )(\d+)\b/g)].map((m) => Number(m[1]));
  found.push(...[...line.matchAll(/\b[cv](\d+)\b/g)].map((m) => TEST + Number(m[1])));
  return [...new Set(found)].sort((a, b) => a - b);
}

/** The statements made of the graph, as a function's C is made. */
function structured(blocks: Block[]): CStmt[] {
  const pred = blocks.map((_, i) => blocks.flatMap((x, p) => (succOf(x).includes(i) ? [p] : [])));
  const { body } = structure({
    count: blocks.length,
    entry: 0,
    succ: (b) => succOf(blocks[b]!),
    pred: (b) => pred[b]!,
    body: (b) => {
      const x = blocks[b]!;
      const body: CStmt[] = x.quiet ? [] : [{ k: 'line', text: `b${b};`, at: [b] }];
      return x.k === 'ret' ? [...body, { k: 'line', text: `return ${b};`, at: [b], ends: true }] : body;
    },
    exit: (b): BlockExit => {
      const x = blocks[b]!;
      if (x.k === 'ret') return { k: 'end' };
      if (x.k === 'next') return { k: 'next' };
      if (x.k === 'branch') return { k: 'branch', cond: `c${b}`, at: [TEST + b], taken: x.to[0], fall: x.to[1] };
      // As jump tables are read: one case per distinct target, with every value that leads to it.
      const targets = [...new Set(x.to)];
      const cases = targets.map((to) => ({ values: x.to.flatMap((t, i) => (t === to ? [i] : [])), to }));
      return { k: 'table', value: `v${b}`, at: [TEST + b], cases };
    },
    label: (b) => `L${b}`,
  });
  return simplify(dropUnread(body));
}

const LIMIT = 120;
/** Blocks run (statements, on the C side) at most, when they do nothing visible. */
const STEPS = 5000;

/** The events (`bN` run, `return N`) of the graph run with the given outcomes, LIMIT at most. */
function runGraph(blocks: Block[], seed: number): string[] {
  const events: string[] = [];
  const visits = new Map<number, number>();
  for (let b = 0, steps = 0; events.length < LIMIT; steps++) {
    // A cycle of blocks that do nothing visible: what ran so far is the run.
    if (steps > STEPS) return events;
    const x = blocks[b]!;
    if (!x.quiet) events.push(`b${b}`);
    if (x.k === 'ret') {
      events.push(`return ${b}`);
      break;
    }
    if (x.k === 'next') {
      b = x.to;
      continue;
    }
    const v = visits.get(b) ?? 0;
    visits.set(b, v + 1);
    b = x.to[outcome(seed, b, v, x.to.length)]!;
  }
  return events.slice(0, LIMIT);
}

class Jump {
  constructor(
    readonly k: 'break' | 'continue' | 'goto' | 'end',
    readonly label = '',
  ) {}
}

/** Where a goto resumes inside a list: the statement's index and, for a nested label, the way in. */
type Resume = { index: number; child: number; inner?: Resume };

/** Runs the statements with the same outcomes: the events, LIMIT at most. */
function runC(tree: CStmt[], seed: number): string[] {
  const events: string[] = [];
  const vars = new Map<string, boolean>();
  const visits = new Map<string, number>();
  const event = (e: string) => {
    events.push(e);
    if (events.length >= LIMIT) throw new Jump('end');
  };
  /** An outcome of block N's test (`cN`: a truth, `vN`: a case value). */
  const test = (name: string, ways: number) => {
    const v = visits.get(name) ?? 0;
    visits.set(name, v + 1);
    return outcome(seed, Number(name.slice(1)), v, ways);
  };

  // Expressions: names, !, &&, ||, ?:, the comma, parentheses, true/false and numbers.
  const evaluate = (text: string): number => {
    const tokens = text.match(/[A-Za-z_]\w*|\d+|&&|\|\||[!(),?:]/g) ?? [];
    let at = 0;
    const peek = () => tokens[at];
    const take = (t?: string) => {
      const x = tokens[at++];
      if (t !== undefined && x !== t) throw new Error(`expected ${t} in ${text}`);
      return x!;
    };
    const primary = (): number => {
      const t = take();
      if (t === '!') return primary() ? 0 : 1;
      if (t === '(') {
        const v = comma();
        take(')');
        return v;
      }
      if (/^\d+$/.test(t)) return Number(t);
      if (t === 'true' || t === 'false') return t === 'true' ? 1 : 0;
      if (/^c\d+$/.test(t)) return 1 - test(t, 2);
      if (/^v\d+$/.test(t)) return test(t, 3);
      if (/^b\d+$/.test(t)) {
        event(t);
        return 0;
      }
      if (vars.has(t) || t.startsWith('to_')) return vars.get(t) ? 1 : 0;
      throw new Error(`unknown name ${t} in ${text}`);
    };
    const and = (): number => {
      let v = primary();
      while (peek() === '&&') {
        take();
        const skip = !v;
        if (skip) skipOperand();
        else v = primary();
      }
      return v;
    };
    const or = (): number => {
      let v = and();
      while (peek() === '||') {
        take();
        if (v) skipOperand();
        else v = and();
      }
      return v;
    };
    // A short-circuited operand: its tokens passed over, nothing evaluated.
    const skipOperand = () => {
      let depth = 0;
      while (at < tokens.length) {
        const t = peek()!;
        if (depth === 0 && (t === '&&' || t === '||' || t === ')' || t === ',' || t === '?' || t === ':')) return;
        if (t === '(') depth++;
        if (t === ')') depth--;
        take();
      }
    };
    const ternary = (): number => {
      const c = or();
      if (peek() !== '?') return c;
      take();
      const a = c ? ternary() : (skipOperand(), 0);
      take(':');
      const b = c ? (skipOperand(), 0) : ternary();
      return c ? a : b;
    };
    const comma = (): number => {
      let v = ternary();
      while (peek() === ',') {
        take();
        v = ternary();
      }
      return v;
    };
    const v = comma();
    if (at !== tokens.length) throw new Error(`unparsed ${tokens.slice(at).join(' ')} in ${text}`);
    return v;
  };

  let steps = 0;
  const line = (text: string) => {
    for (const t of text.split('\n')) {
      const m = /^(\w+) = (true|false);?$/.exec(t);
      if (m) vars.set(m[1]!, m[2] === 'true');
      else if (/^return \d+;$/.test(t)) {
        event(t.slice(0, -1));
        throw new Jump('end');
      } else if (t === 'abort();') throw new Error('abort() reached');
      else evaluate(t.replace(/;$/, '').replace('(void)', ''));
    }
  };

  /** Where `label` is in `list`, if anywhere. */
  const find = (list: CStmt[], label: string): Resume | null => {
    for (let index = 0; index < list.length; index++) {
      const s = list[index]!;
      if (s.k === 'label' && s.name === label) return { index, child: -1 };
      const lists =
        s.k === 'if'
          ? [s.then, s.else]
          : s.k === 'loop' || s.k === 'scope'
            ? [s.body]
            : s.k === 'switch'
              ? s.cases.map((c) => c.body)
              : [];
      for (let child = 0; child < lists.length; child++) {
        const inner = find(lists[child]!, label);
        if (inner) return { index, child, inner };
      }
    }
    return null;
  };

  const list = (l: CStmt[], resume?: Resume): void => {
    for (let i = resume?.index ?? 0; i < l.length; i++) {
      try {
        stmt(l[i]!, resume?.index === i && resume.child >= 0 ? resume : undefined);
        resume = undefined;
      } catch (e) {
        const to = e instanceof Jump && e.k === 'goto' ? find(l, e.label) : null;
        if (!to) throw e;
        resume = to;
        i = to.index - 1;
      }
    }
  };

  const loop = (s: Extract<CStmt, { k: 'loop' }>, resume?: Resume) => {
    if (!resume && s.init) line(`${s.init};`);
    for (let first = true; ; first = false) {
      if (++steps > 10 * STEPS) throw new Jump('end');
      const entered = first && resume !== undefined;
      if (!entered && !s.post && s.cond !== null && !evaluate(s.cond)) return;
      try {
        list(s.body, entered ? resume : undefined);
      } catch (e) {
        if (!(e instanceof Jump) || (e.k !== 'break' && e.k !== 'continue')) throw e;
        if (e.k === 'break') return;
      }
      if (s.step) line(`${s.step};`);
      if (s.post && !evaluate(s.cond ?? '1')) return;
    }
  };

  const stmt = (s: CStmt, resume?: Resume): void => {
    if (++steps > 10 * STEPS) throw new Jump('end');
    switch (s.k) {
      case 'line':
        return line(s.text);
      case 'label':
        return;
      case 'goto':
      case 'break':
      case 'continue':
        throw new Jump(s.k, s.k === 'goto' ? s.name : '');
      case 'scope':
        return list(s.body, resume?.inner);
      case 'if':
        if (resume) return list(resume.child === 0 ? s.then : s.else, resume.inner);
        return list(evaluate(s.cond) ? s.then : s.else);
      case 'loop':
        return loop(s, resume?.inner);
      case 'switch': {
        let from = resume ? resume.child : -1;
        if (from < 0) {
          const v = evaluate(s.value);
          from = s.cases.findIndex((c) => c.labels?.includes(v));
          if (from < 0) from = s.cases.findIndex((c) => c.labels === null);
        }
        try {
          for (let c = from; c < s.cases.length; c++) list(s.cases[c]!.body, c === from ? resume?.inner : undefined);
        } catch (e) {
          if (!(e instanceof Jump) || e.k !== 'break') throw e;
        }
      }
    }
  };

  try {
    list(tree);
  } catch (e) {
    if (!(e instanceof Jump) || e.k !== 'end') throw e;
  }
  return events;
}

test('goto elimination: random flow graphs run as their structured C does, and reducible ones have no goto', () => {
  let reducibleGraphs = 0;
  let flagged = 0;
  const sizes = [
    { size: 10, graphs: 2500 },
    { size: 30, graphs: 500 },
  ];
  for (const { size, graphs } of sizes)
    for (let seed = 1; seed <= graphs; seed++) {
      const blocks = randomGraph(seed, size);
      const tree = structured(blocks);
      const printed = printC(tree, 0);
      const text = printed.lines.join('\n');
      const where = `graph ${seed} of up to ${size + 2} blocks: ${JSON.stringify(blocks)}\n${text}`;
      printed.lines.forEach((line, i) => assert.deepEqual(printed.at[i], spelled(line), `line ${i + 1} of ${where}`));
      if (reducible(blocks)) {
        reducibleGraphs++;
        assert.doesNotMatch(text, /\bgoto\b/, where);
      }
      if (/\bto_\w+ = true/.test(text)) flagged++;
      for (let run = 0; run < 4; run++)
        assert.deepEqual(runC(tree, seed * 10 + run), runGraph(blocks, seed * 10 + run), `run ${run} of ${where}`);
    }
  // The sample holds both kinds, and graphs that need flags.
  assert.ok(reducibleGraphs > 1500 && reducibleGraphs < 2900, `${reducibleGraphs} reducible`);
  assert.ok(flagged > 300, `${flagged} with flags`);
});
