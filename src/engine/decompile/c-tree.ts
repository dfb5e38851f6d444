// The statements of a structured C function body, their rewriting into the forms people write (while,
// do-while, early exits instead of else, conditions inverted rather than empty branches) and their printing.
// Every rewrite keeps what the code does, and what each line came from; a label nothing jumps to is not printed.

/**
 * Addresses of the instructions a statement (a line, or a construct's header) expresses, in any order and
 * repeats allowed: they are gathered as statements are made and merged, and put in order once, as printed.
 */
export type Origins = readonly number[];

export type CStmt =
  /**
   * One or more lines of C; `ends` when control never passes beyond it (return, abort, a tail call);
   * `assigns`: the one variable it writes, with nothing else done, so it can go when nothing reads that.
   */
  | { k: 'line'; text: string; at: Origins; ends?: boolean; assigns?: string }
  /** `at`: what its condition computes and tests. */
  | { k: 'if'; cond: string; at: Origins; then: CStmt[]; else: CStmt[] }
  /** `for (;;)`, `while (cond)`, `do … while (cond)` (`post`) or `for (init; cond; step)`; `at`: its header's. */
  | { k: 'loop'; cond: string | null; at: Origins; post: boolean; body: CStmt[]; init?: string; step?: string }
  /** A braced compound (for the temporaries it declares). */
  | { k: 'scope'; body: CStmt[] }
  /** `switch (value)`: each case's labels (null: default) and body; a `break` in a body leaves the switch. */
  | { k: 'switch'; value: string; at: Origins; cases: { labels: number[] | null; body: CStmt[] }[] }
  | { k: 'label'; name: string }
  | { k: 'goto'; name: string }
  | { k: 'break' }
  | { k: 'continue' };

/** The statement lists nested in `s`. */
export function children(s: CStmt): CStmt[][] {
  switch (s.k) {
    case 'if':
      return [s.then, s.else];
    case 'loop':
    case 'scope':
      return [s.body];
    case 'switch':
      return s.cases.map((c) => c.body);
    default:
      return [];
  }
}

/** `s` with its nested lists replaced by `lists` (in children()'s order). */
function rebuild(s: CStmt, lists: CStmt[][]): CStmt {
  switch (s.k) {
    case 'if':
      return { ...s, then: lists[0]!, else: lists[1]! };
    case 'loop':
    case 'scope':
      return { ...s, body: lists[0]! };
    case 'switch':
      return { ...s, cases: s.cases.map((c, i) => ({ ...c, body: lists[i]! })) };
    default:
      return s;
  }
}

/** Control never reaches past the end of `list`. */
function ends(list: readonly CStmt[]): boolean {
  const last = list[list.length - 1];
  if (!last) return false;
  switch (last.k) {
    case 'line':
      return last.ends === true;
    case 'goto':
    case 'break':
    case 'continue':
      return true;
    case 'if':
      return ends(last.then) && ends(last.else);
    case 'scope':
      return ends(last.body);
    default:
      return false;
  }
}

/** The identifiers (and keywords) a piece of C text spells. */
export const identifiers = (text: string): string[] => text.match(/[A-Za-z_]\w*/g) ?? [];

/** A line that declares a variable (`uint32_t t = …;`), not a statement that starts with a keyword. */
export const isDeclaration = (text: string): boolean =>
  !/^(if|for|while|do|switch|return|goto|break|continue|case|default|else)\b/.test(text) &&
  /^[A-Za-z_][\w ]*\s\**[A-Za-z_]\w*\s*[=;[]/.test(text);

/** A single transfer of control, the statement an early exit is made of. */
export const isJump = (s: CStmt | undefined): boolean =>
  !!s && (s.k === 'goto' || s.k === 'break' || s.k === 'continue' || (s.k === 'line' && s.ends === true));

const FLIP: Record<string, string> = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };

/** The condition that holds when `cond` does not: one comparison flipped, a negation dropped, else `!(…)`. */
export function negate(cond: string): string {
  const c = unwrap(cond);
  if (/^!?[A-Za-z_]\w*$/.test(c)) return c.startsWith('!') ? c.slice(1) : `!${c}`;
  if (c.startsWith('!(') && closing(c, 1) === c.length - 1) return unwrap(c.slice(1));
  const ops = topLevelOperators(c);
  if (ops?.length === 1 && FLIP[ops[0]!.op])
    return `${c.slice(0, ops[0]!.at)}${FLIP[ops[0]!.op]}${c.slice(ops[0]!.at + ops[0]!.op.length)}`;
  return `!(${c})`;
}

/** `c` without parentheses around all of it. */
export function unwrap(c: string): string {
  while (c.startsWith('(') && closing(c, 0) === c.length - 1) c = c.slice(1, -1);
  return c;
}

/** Index of the parenthesis closing the one at `open` (-1 if none). */
function closing(c: string, open: number): number {
  let depth = 0;
  for (let i = open; i < c.length; i++) {
    if (c[i] === '(') depth++;
    else if (c[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The comparisons of `c` outside parentheses, with where they are; null when an operator that binds
 * looser than a comparison is there too.
 */
function topLevelOperators(c: string): { op: string; at: number }[] | null {
  const found: { op: string; at: number }[] = [];
  let depth = 0;
  for (let i = 0; i < c.length; i++) {
    const ch = c[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (depth !== 0) continue;
    const two = c.slice(i, i + 2);
    // Operators looser than a comparison: negating one comparison under them is not negating the whole.
    if (ch === '&' || ch === '|' || ch === '^' || ch === '?' || ch === ',') return null;
    if (two === '<<' || two === '>>' || two === '->') i++;
    else if (FLIP[two]) found.push({ op: two, at: i++ });
    else if (ch === '<' || ch === '>') found.push({ op: ch, at: i });
  }
  return found;
}

/** `list` without the assignments of variables nothing else reads (those only assigned, or read by such). */
export function dropUnread(list: CStmt[]): CStmt[] {
  const lines: Extract<CStmt, { k: 'line' }>[] = [];
  const read = new Set<string>();
  const visit = (l: readonly CStmt[]): void =>
    l.forEach((s) => {
      if (s.k === 'line') {
        if (s.assigns) lines.push(s);
        else identifiers(s.text).forEach((w) => read.add(w));
        return;
      }
      const cond = s.k === 'if' || s.k === 'loop' ? s.cond : s.k === 'switch' ? s.value : null;
      if (cond) identifiers(cond).forEach((w) => read.add(w));
      children(s).forEach(visit);
    });
  visit(list);
  // What a needed assignment reads is needed too.
  for (let changed = true; changed;) {
    changed = false;
    for (const s of lines)
      if (read.has(s.assigns!))
        for (const w of identifiers(s.text))
          if (!read.has(w)) {
            read.add(w);
            changed = true;
          }
  }
  const keep = (l: CStmt[]): CStmt[] =>
    l.flatMap((s): CStmt[] =>
      s.k === 'line' && s.assigns && !read.has(s.assigns) ? [] : [rebuild(s, children(s).map(keep))],
    );
  return keep(list);
}

/** `list` in the forms people write, doing the same, without the labels nothing jumps to. */
export function simplify(list: CStmt[]): CStmt[] {
  const targets = new Set<string>();
  const collect = (l: readonly CStmt[]): void =>
    l.forEach((s) => {
      if (s.k === 'goto') targets.add(s.name);
      children(s).forEach(collect);
    });
  collect(list);
  return rewrite(list, targets);
}

function rewrite(list: CStmt[], targets: Set<string>): CStmt[] {
  const out: CStmt[] = [];
  for (const s of list) {
    if (s.k === 'if') {
      const then = rewrite(s.then, targets);
      const other = rewrite(s.else, targets);
      if (!then.length && !other.length) {
        // A condition that carries statements (`(a) && (x = y, x < 3)`) still runs them.
        if (s.cond.includes(',')) out.push({ k: 'line', text: `(void)(${unwrap(s.cond)});`, at: s.at });
        continue;
      }
      if (!then.length) {
        out.push({ ...s, cond: negate(s.cond), then: other, else: [] });
      } else if (other.length && ends(then)) {
        // No else after a branch that leaves.
        out.push({ ...s, then, else: [] }, ...other);
      } else if (ends(other) && !ends(then)) {
        out.push({ ...s, cond: negate(s.cond), then: other, else: [] }, ...then);
      } else out.push({ ...s, then, else: other });
    } else if (s.k === 'loop') {
      const l = loop(rewrite(s.body, targets));
      const counted = l.k === 'loop' ? countedLoop(out[out.length - 1], l) : null;
      if (counted) out.splice(out.length - 1, 1, counted);
      else out.push(l);
    } else if (s.k === 'scope') {
      const body = rewrite(s.body, targets);
      if (body.length) out.push({ k: 'scope', body });
    } else if (s.k === 'switch')
      out.push(
        rebuild(
          s,
          children(s).map((l) => rewrite(l, targets)),
        ),
      );
    else if (s.k !== 'label' || targets.has(s.name)) out.push(s);
  }
  return earlyExit(out);
}

/**
 * `if (c) { X…leaves } J` at the end of a list (J one jump) becomes `if (!c) J; X…`: the exit first, the
 * work unindented — what a loop's exit test or a function's guard clause looks like in source.
 */
function earlyExit(list: CStmt[]): CStmt[] {
  const n = list.length;
  const last = list[n - 1];
  const prev = list[n - 2];
  if (n < 2 || !isJump(last) || prev?.k !== 'if' || prev.else.length || !ends(prev.then) || isJump(prev.then[0]))
    return list;
  return [...list.slice(0, n - 2), { ...prev, cond: negate(prev.cond), then: [last!] }, ...prev.then];
}

/** `for (;;)` as `while` when it starts with its exit test, as `do … while` when it ends with one. */
function loop(body: CStmt[]): CStmt {
  if (body[body.length - 1]?.k === 'continue') body = body.slice(0, -1);
  // `if (c) continue; break;` at the end: the loop goes on while c.
  const [prev, end] = body.slice(-2);
  if (
    end?.k === 'break' &&
    prev?.k === 'if' &&
    !prev.else.length &&
    prev.then.length === 1 &&
    prev.then[0]!.k === 'continue'
  )
    body = [...body.slice(0, -2), { ...prev, cond: negate(prev.cond), then: [end] }];
  const first = body[0];
  if (first?.k === 'if' && !first.else.length && first.then.length === 1 && first.then[0]!.k === 'break')
    return { k: 'loop', cond: negate(first.cond), at: first.at, post: false, body: body.slice(1) };
  const last = body[body.length - 1];
  if (
    last?.k === 'if' &&
    !last.else.length &&
    last.then.length === 1 &&
    last.then[0]!.k === 'break' &&
    !continues(body.slice(0, -1))
  )
    return { k: 'loop', cond: negate(last.cond), at: last.at, post: true, body: body.slice(0, -1) };
  return { k: 'loop', cond: null, at: [], post: false, body };
}

/**
 * `v = a; while (c) { …; v = b; }` as `for (v = a; c; v = b) { … }` — when c reads v and the body has no
 * `continue` (which in the for would run the step the while skips).
 */
function countedLoop(before: CStmt | undefined, l: Extract<CStmt, { k: 'loop' }>): CStmt | null {
  const last = l.body[l.body.length - 1];
  const single = (x: CStmt | undefined): x is Extract<CStmt, { k: 'line' }> =>
    x?.k === 'line' && !!x.assigns && !x.text.includes('\n') && x.text.endsWith(';');
  if (l.post || l.cond === null || l.init || !single(before) || !single(last) || before.assigns !== last.assigns)
    return null;
  if (!new RegExp(`\\b${before.assigns}\\b`).test(l.cond) || continues(l.body.slice(0, -1))) return null;
  return {
    ...l,
    init: before.text.slice(0, -1),
    step: last.text.slice(0, -1),
    at: [...l.at, ...before.at, ...last.at],
    body: l.body.slice(0, -1),
  };
}

/** A `continue` of the loop `list` is the body of (not of a loop inside it; a switch's is the loop's). */
function continues(list: readonly CStmt[]): boolean {
  return list.some((s) => s.k === 'continue' || (s.k !== 'loop' && children(s).some(continues)));
}

/** Printed C: its lines, and for each the addresses of the instructions it came from (ascending, unique). */
export interface PrintedC {
  lines: string[];
  at: number[][];
}

/** The statements as C text, indented two spaces a level. */
export function printC(list: readonly CStmt[], indent = 1): PrintedC {
  const lines: string[] = [];
  const at: number[][] = [];
  const put = (text: string, from: Origins = []): void => {
    lines.push(text);
    at.push(from.length ? [...new Set(from)].sort((a, b) => a - b) : []);
  };
  const emit = (l: readonly CStmt[], depth: number): void => {
    const pad = '  '.repeat(depth);
    for (const s of l)
      switch (s.k) {
        case 'line':
          for (const t of s.text.split('\n')) put(pad + t, s.at);
          break;
        case 'label':
          put(`${'  '.repeat(Math.max(0, depth - 1))}${s.name}:;`);
          break;
        case 'goto':
          put(`${pad}goto ${s.name};`);
          break;
        case 'break':
        case 'continue':
          put(`${pad}${s.k};`);
          break;
        case 'scope':
          put(`${pad}{`);
          emit(s.body, depth + 1);
          put(`${pad}}`);
          break;
        case 'if': {
          put(`${pad}if (${unwrap(s.cond)}) {`, s.at);
          emit(s.then, depth + 1);
          let rest = s.else;
          // else-if chains stay flat.
          for (let e = rest[0]; rest.length === 1 && e?.k === 'if'; e = rest[0]) {
            put(`${pad}} else if (${unwrap(e.cond)}) {`, e.at);
            emit(e.then, depth + 1);
            rest = e.else;
          }
          if (rest.length) {
            put(`${pad}} else {`);
            emit(rest, depth + 1);
          }
          put(`${pad}}`);
          break;
        }
        case 'switch':
          put(`${pad}switch (${unwrap(s.value)}) {`, s.at);
          for (const c of s.cases) {
            for (const l of c.labels ?? [null]) put(`${pad}${l === null ? 'default' : `case ${l}`}:`);
            emit(c.body, depth + 1);
          }
          put(`${pad}}`);
          break;
        case 'loop':
          // A do-while's condition is on its last line.
          if (s.post) put(`${pad}do {`);
          else if (s.init !== undefined) put(`${pad}for (${s.init}; ${unwrap(s.cond ?? '')}; ${s.step ?? ''}) {`, s.at);
          else put(`${pad}${s.cond === null ? 'for (;;)' : `while (${unwrap(s.cond)})`} {`, s.at);
          emit(s.body, depth + 1);
          if (s.post) put(`${pad}} while (${unwrap(s.cond ?? '1')});`, s.at);
          else put(`${pad}}`);
          break;
      }
  };
  emit(list, indent);
  return { lines, at };
}
