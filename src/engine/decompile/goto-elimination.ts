// Goto elimination on the structured tree (Erosa and Hendren's transformations): each goto the structurer
// left moves outward, out of the constructs around it, and inward, into the one holding its label, until
// it and its label share a list; there it becomes an `if` (forward) or a loop (backward). A flag per label,
// `to_<label>`, says "on the way to the label" across the constructs crossed: set where the goto was,
// tested where control must skip code or leave a loop, cleared at the label (so it is false everywhere
// else, and no other reset is needed). Where a new loop would capture a `break` or `continue`, those become
// gotos first, eliminated the same way. A goto that cannot be moved (it would enclose a constant or an
// initialised array, or enter a switch's default or a loop with a condition) stays a goto.
import { children, isDeclaration, negate, type CStmt, type Origins } from './c-tree.js';

type List = CStmt[];

/** Where a statement is: its list and index, for each level from the function's body down. */
type Path = { list: List; index: number }[];

/**
 * A goto as it stands: its statement (a bare goto, or `if (cond) goto L;`), its condition (null: always) and
 * what the condition came from, which every test of it made on the way keeps.
 */
interface Site {
  stmt: CStmt;
  jump: Extract<CStmt, { k: 'goto' }>;
  cond: string | null;
  at: Origins;
}

/** Transformations per goto at most (each moves it one level): bounds the work on deep trees. */
const MAX_STEPS = 400;

const flagOf = (label: string) => `to_${label}`;
const setFlag = (flag: string): CStmt => ({ k: 'line', text: `${flag} = true;`, at: [], assigns: flag });

/**
 * Replaces in `body` every goto that structured statements can replace (the rest stay gotos); returns the
 * flags the replacements use, for the function to declare (false at the start).
 */
export function eliminateGotos(body: List): string[] {
  const tree = new Tree(body);
  const flags = new Set<string>();
  let labels = 0;
  const fresh = () => ++labels;
  // In program order; gotos the moves make (for breaks a new loop would capture) join at the end.
  const queue = tree.gotos();
  for (let i = 0; i < queue.length; i++) {
    const site = siteOf(tree, queue[i]!);
    if (site) new Mover(tree, site, flags, fresh, (g) => queue.push(g)).run();
  }
  for (const label of flags) {
    const at = tree.pathOf(tree.label(label))?.at(-1);
    at?.list.splice(at.index + 1, 0, { k: 'line', text: `${flagOf(label)} = false;`, at: [], assigns: flagOf(label) });
  }
  return [...flags].map(flagOf);
}

/** A goto still in the tree as a site: `if (c) goto L;` alone in its arm is the conditional form. */
function siteOf(tree: Tree, jump: Site['jump']): Site | null {
  const path = tree.pathOf(jump);
  if (!path) return null;
  const { list } = path.at(-1)!;
  const up = path.at(-2);
  const parent = up?.list[up.index];
  if (parent?.k === 'if' && parent.then === list && list.length === 1 && !parent.else.length)
    return { stmt: parent, jump, cond: parent.cond, at: parent.at };
  return { stmt: jump, jump, cond: null, at: [] };
}

/**
 * The function's statements and where each one is. The moves tell it which lists they changed; a path is
 * checked as it is read, and a stale one (a change it was not told of) rebuilds the whole index.
 */
class Tree {
  private readonly container = new Map<CStmt, List>();
  private readonly owner = new Map<List, CStmt>();
  private readonly labels = new Map<string, CStmt>();
  /** Labels some goto jumps to or jumped to (code a goto skips is dead without them). */
  readonly targets = new Set<string>();

  constructor(readonly body: List) {
    this.rebuild();
  }

  /** Every goto, in program order. */
  gotos(): Site['jump'][] {
    const out: Site['jump'][] = [];
    for (const s of this.container.keys()) if (s.k === 'goto') out.push(s);
    return out;
  }

  label(name: string): CStmt | undefined {
    return this.labels.get(name);
  }

  /** `list` changed: its statements, and the lists they hold, are known where they now are. */
  touched(list: List): void {
    for (const s of list) {
      this.note(s, list);
      for (const c of children(s)) {
        this.owner.set(c, s);
        for (const m of c) this.note(m, c);
      }
    }
  }

  pathOf(s: CStmt | undefined): Path | null {
    if (!s) return null;
    const path = this.walk(s);
    if (path) return path;
    this.rebuild();
    return this.walk(s);
  }

  private walk(s: CStmt): Path | null {
    const path: Path = [];
    for (let x = s; ;) {
      const list = this.container.get(x);
      const index = list ? list.indexOf(x) : -1;
      if (!list || index < 0) return null;
      path.push({ list, index });
      if (list === this.body) return path.reverse();
      const up = this.owner.get(list);
      if (!up || !children(up).includes(list)) return null;
      x = up;
    }
  }

  private note(s: CStmt, list: List): void {
    this.container.set(s, list);
    if (s.k === 'label') this.labels.set(s.name, s);
    else if (s.k === 'goto') this.targets.add(s.name);
  }

  private rebuild(): void {
    this.container.clear();
    this.owner.clear();
    const index = (list: List): void => {
      for (const s of list) {
        this.note(s, list);
        for (const c of children(s)) {
          this.owner.set(c, s);
          index(c);
        }
      }
    };
    index(this.body);
  }
}

/** Statements of `list` at any depth that `hit` picks. */
const some = (list: readonly CStmt[], hit: (s: CStmt) => boolean): boolean =>
  list.some((s) => hit(s) || children(s).some((l) => some(l, hit)));

/** A `break` or `continue` that leaves the statements it is in, and where it stands. */
interface FreeJump {
  list: List;
  index: number;
  k: 'break' | 'continue';
}

/** The `break`s and `continue`s of `list[from..to)` that leave it (a new loop around it would capture them). */
function freeJumps(list: List, from = 0, to = list.length, inLoop = false, inSwitch = false): FreeJump[] {
  const found: FreeJump[] = [];
  for (let i = from; i < to; i++) {
    const s = list[i]!;
    if ((s.k === 'continue' && !inLoop) || (s.k === 'break' && !inLoop && !inSwitch))
      found.push({ list, index: i, k: s.k });
    for (const c of children(s))
      found.push(...freeJumps(c, 0, c.length, inLoop || s.k === 'loop', inSwitch || s.k === 'switch'));
  }
  return found;
}

/**
 * `list` with its top-level declarations apart, for the rest to be enclosed in a block while later code
 * still sees them: `T x = e;` is declared before (`T x;`) and assigned in place (`x = e;`). Null when one
 * cannot be split so (a constant, an array with an initialiser).
 */
function hoisted(list: List): { decls: List; rest: List } | null {
  const decls: List = [];
  const rest: List = [];
  for (const s of list) {
    if (s.k !== 'line' || !isDeclaration(s.text)) {
      rest.push(s);
      continue;
    }
    const m = /^((?:[A-Za-z_]\w*[\s*]+)+)([A-Za-z_]\w*)\s*=\s*([\s\S]+);$/.exec(s.text);
    if (!m) {
      if (!/^[^=]*;$/.test(s.text)) return null;
      decls.push(s);
    } else if (/\bconst\b/.test(m[1]!)) return null;
    else {
      decls.push({ k: 'line', text: `${m[1]!}${m[2]!};`, at: [] });
      rest.push({ k: 'line', text: `${m[2]!} = ${m[3]!};`, at: s.at, assigns: m[2]! });
    }
  }
  return { decls, rest };
}

/** One goto, moved step by step to its label. */
class Mover {
  private readonly label: string;
  private readonly flag: string;

  constructor(
    private readonly tree: Tree,
    private site: Site,
    private readonly flags: Set<string>,
    /** A number no label of the function has yet. */
    private readonly fresh: () => number,
    /** Takes a goto the moves made, to be eliminated in its turn. */
    private readonly made: (jump: Site['jump']) => void,
  ) {
    this.label = site.jump.name;
    this.flag = flagOf(this.label);
  }

  /** Whether the goto is gone. */
  run(): boolean {
    for (let step = 0; step < MAX_STEPS; step++) {
      const gp = this.tree.pathOf(this.site.stmt);
      const lp = this.tree.pathOf(this.tree.label(this.label));
      if (!gp || !lp) return false;
      const done = this.step(gp, lp);
      // A move changes the goto's list and the one around it, and on the label's path the goto's list and
      // the next (exitsAsGotos tells of its own).
      const k = lp.findIndex((a) => a.list === gp.at(-1)!.list);
      for (const at of [gp.at(-1), gp.at(-2), lp[k], lp[k + 1]]) if (at) this.tree.touched(at.list);
      if (done !== null) return done;
    }
    return false;
  }

  /** One move: true when the goto is gone, false when it stays, null when it moved and goes on. */
  private step(gp: Path, lp: Path): boolean | null {
    if (this.shortcut(gp, lp)) return true;
    const { list, index } = gp.at(-1)!;
    const k = lp.findIndex((a) => a.list === list);
    if (k < 0) {
      const out = this.outward(gp, lp);
      return out === 'moved' ? null : out === 'done';
    }
    const at = lp[k]!.index;
    if (at < index && k + 2 === lp.length && this.extract(list, at, index, lp.at(-1)!)) return true;
    // A loop made around the code from the label to the goto would capture its breaks and continues.
    const free = at < index ? freeJumps(list, at, index) : [];
    if (free.length) return this.exitsAsGotos(gp, free) ? null : false;
    if (k === lp.length - 1) return at > index ? this.forward(list, index, at) : this.backward(list, at, index);
    const lifted = at < index ? this.lift(list, at, index) : null;
    if (at < index && !lifted) return false;
    const moved = lifted
      ? this.inward(lifted.body, 0, 1, lp[k + 1]!.list)
      : this.inward(list, index, at, lp[k + 1]!.list);
    return moved === 'moved' ? null : moved === 'done';
  }

  /**
   * A goto to the start of the body of the innermost loop around it is `continue`; one to just after the
   * innermost loop or switch around it is `break`.
   */
  private shortcut(gp: Path, lp: Path): boolean {
    const only = (list: List, from: number, to: number) => list.slice(from, to).every((s) => s.k === 'label');
    const at = lp.at(-1)!;
    for (let i = gp.length - 2, canBreak = true; i >= 0; i--) {
      const { list, index } = gp[i]!;
      const s = list[index]!;
      if (s.k !== 'loop' && s.k !== 'switch') continue;
      let jump: CStmt | null = null;
      if (canBreak && at.list === list && at.index > index && only(list, index + 1, at.index)) jump = { k: 'break' };
      else if (
        s.k === 'loop' &&
        s.cond === null &&
        !s.post &&
        s.step === undefined &&
        at.list === s.body &&
        only(s.body, 0, at.index)
      )
        jump = { k: 'continue' };
      if (jump) this.replaceJump(gp, jump);
      // Inside a switch `continue` still reaches the loop around it; `break` only this one.
      if (jump || s.k === 'loop') return jump !== null;
      canBreak = false;
    }
    return false;
  }

  /** The goto replaced by `jump`, under its condition. */
  private replaceJump(gp: Path, jump: CStmt): void {
    const { stmt } = this.site;
    if (stmt.k === 'if') stmt.then = [jump];
    else {
      const { list, index } = gp.at(-1)!;
      list[index] = jump;
    }
  }

  /**
   * The `break`s and `continue`s `found` in the goto's list, which leave the constructs around it, as
   * gotos to where they lead (labelled for them when no label is there); false when a `continue` has no
   * plain loop to go round.
   */
  private exitsAsGotos(gp: Path, found: FreeJump[]): boolean {
    const around = gp.slice(0, -1).reverse();
    const loop = around.find((a) => a.list[a.index]!.k === 'loop');
    const breakable = around.find((a) => ['loop', 'switch'].includes(a.list[a.index]!.k));
    const head = loop?.list[loop.index];
    const plain = head?.k === 'loop' && head.cond === null && !head.post && head.step === undefined;
    if (found.some((f) => (f.k === 'continue' ? !plain : !breakable))) return false;
    // Named first, labelled last: a label put into a list moves what comes after it.
    const label = (list: List, index: number, name: string) => {
      const s = list[index];
      return s?.k === 'label'
        ? { name: s.name, add: null }
        : { name, add: () => list.splice(index, 0, { k: 'label', name }) };
    };
    const again = plain ? label(head.body, 0, `again_${this.fresh()}`) : null;
    const next = breakable ? label(breakable.list, breakable.index + 1, `next_${this.fresh()}`) : null;
    for (const f of found) {
      const jump: Site['jump'] = { k: 'goto', name: (f.k === 'continue' ? again : next)!.name };
      f.list[f.index] = jump;
      this.tree.touched(f.list);
      this.made(jump);
    }
    if (found.some((f) => f.k === 'continue')) again?.add?.();
    if (found.some((f) => f.k === 'break')) next?.add?.();
    if (head?.k === 'loop') this.tree.touched(head.body);
    if (breakable) this.tree.touched(breakable.list);
    return true;
  }

  /** The flag's test as a goto site of its own. */
  private check(): CStmt {
    this.flags.add(this.label);
    const jump: Site['jump'] = { k: 'goto', name: this.label };
    const stmt: CStmt = { k: 'if', cond: this.flag, at: [], then: [jump], else: [] };
    this.site = { stmt, jump, cond: this.flag, at: [] };
    return stmt;
  }

  /** Whether the site's condition is the flag itself (it stands where the flag is already set). */
  private get flagged(): boolean {
    return this.site.cond === this.flag;
  }

  /** Labels in `list` a goto jumps to (code a goto skips is dead without them). */
  private targeted(list: List): boolean {
    return some(list, (s) => s.k === 'label' && this.tree.targets.has(s.name));
  }

  /**
   * The goto's statement replaced by code that sets the flag when it would jump, and runs `skipped` (the
   * code it jumps over) when it does not.
   */
  private jumpOver(skipped: List): List {
    const { cond, at } = this.site;
    const unflagged = (): CStmt => ({ k: 'if', cond: negate(this.flag), at: [], then: skipped, else: [] });
    if (this.flagged) return skipped.length ? [unflagged()] : [];
    if (cond === null) {
      this.flags.add(this.label);
      const set = setFlag(this.flag);
      if (!this.targeted(skipped)) return [set];
      return [set, unflagged()];
    }
    this.flags.add(this.label);
    return [{ k: 'if', cond, at, then: [setFlag(this.flag)], else: skipped }];
  }

  /** Out of the construct around the goto's list: 'moved' one level, 'done' (no goto left), or 'stuck'. */
  private outward(gp: Path, lp: Path): 'moved' | 'done' | 'stuck' {
    const { list, index } = gp.at(-1)!;
    const up = gp.at(-2);
    if (!up) return 'stuck';
    const parent = up.list[up.index]!;
    const rest = list.splice(index + 1);
    list.pop();
    if (parent.k === 'loop' || parent.k === 'switch') {
      // `break` leaves the construct the list belongs to; what follows the goto stays for other paths.
      const leave: CStmt = { k: 'break' };
      const { cond, at } = this.site;
      if (this.flagged) list.push({ k: 'if', cond: this.flag, at: [], then: [leave], else: [] }, ...rest);
      else {
        this.flags.add(this.label);
        const fire = [setFlag(this.flag), leave];
        if (cond === null) list.push(...fire, ...(this.targeted(rest) ? rest : []));
        else list.push({ k: 'if', cond, at, then: fire, else: [] }, ...rest);
      }
    } else if (parent.k === 'if' || parent.k === 'scope') {
      // An if's arm that ends in the goto, with the label after the if in its list: the code between
      // belongs to the other arm, and the goto falls through to the label.
      const lab = lp.findIndex((a) => a.list === up.list);
      if (
        parent.k === 'if' &&
        this.site.cond === null &&
        !rest.length &&
        lab === lp.length - 1 &&
        lp[lab]!.index > up.index
      ) {
        const between = hoisted(up.list.slice(up.index + 1, lp[lab]!.index));
        if (between) {
          up.list.splice(up.index + 1, lp[lab]!.index - up.index - 1, ...between.decls);
          (parent.then === list ? parent.else : parent.then).push(...between.rest);
          return 'done';
        }
      }
      list.push(...this.jumpOver(rest));
    } else return 'stuck';
    // After the labels there (their flags are cleared before the test: a flight to one of them that
    // carries this one ends there, and this test takes it on).
    let after = up.index + 1;
    while (up.list[after]?.k === 'label') after++;
    // Another goto to the label left the same construct before: its test leads on from here.
    if (this.isCheck(up.list[after])) return 'done';
    up.list.splice(after, 0, this.check());
    return 'moved';
  }

  /**
   * Into the statement at `at` (after the goto at `index` in `list`) through its list `inner`, which holds
   * the label: the code between is skipped on the flag, the statement entered on it.
   */
  private inward(list: List, index: number, at: number, inner: List): 'moved' | 'done' | 'stuck' {
    const target = list[at]!;
    const skipped = hoisted(list.slice(index + 1, at));
    if (!skipped) return 'stuck';
    const flag = this.flag;
    if (target.k === 'if') {
      // An arm the flag already leads into (extract's) is entered as it stands.
      if (target.cond !== flag || target.then !== inner)
        target.cond = target.then === inner ? `${flag} || (${target.cond})` : `${negate(flag)} && (${target.cond})`;
    } else if (target.k === 'loop') {
      if (target.cond !== null || target.post || target.init !== undefined) return 'stuck';
    } else if (target.k === 'switch') {
      const value = target.cases.find((c) => c.body === inner)?.labels?.[0];
      if (value === undefined) return 'stuck';
      target.value = `${flag} ? ${value} : (${target.value})`;
    } else if (target.k !== 'scope') return 'stuck';
    list.splice(index, at - index, ...skipped.decls, ...this.jumpOver(skipped.rest));
    if (this.isCheck(inner[0])) return 'done';
    inner.unshift(this.check());
    return 'moved';
  }

  /** A test of this label's flag (left by a goto to it moved before this one). */
  private isCheck(s: CStmt | undefined): boolean {
    const jump = s?.k === 'if' && s.cond === this.flag && !s.else.length && s.then.length === 1 ? s.then[0]! : null;
    return jump?.k === 'goto' || jump?.k === 'break' || jump?.k === 'continue';
  }

  /** The goto and its label in one list, the goto first: the code between runs only when it does not jump. */
  private forward(list: List, index: number, at: number): boolean {
    const skipped = hoisted(list.slice(index + 1, at));
    if (!skipped) return false;
    const { cond, at: from } = this.site;
    const guarded =
      cond === null
        ? this.jumpOver(skipped.rest)
        : skipped.rest.length
          ? [{ k: 'if', cond: negate(cond), at: from, then: skipped.rest, else: [] } as CStmt]
          : [];
    list.splice(index, at - index, ...skipped.decls, ...guarded);
    return true;
  }

  /** The label first: the code from it to the goto is a loop that goes round while the goto would jump. */
  private backward(list: List, at: number, index: number): boolean {
    const body = hoisted(list.slice(at, index));
    if (!body) return false;
    const { cond, at: from } = this.site;
    const exit: List =
      cond === null ? [] : [{ k: 'if', cond: negate(cond), at: from, then: [{ k: 'break' }], else: [] }];
    const loop: CStmt = { k: 'loop', cond: null, at: [], post: false, body: [...body.rest, ...exit] };
    list.splice(at, index - at + 1, ...body.decls, loop);
    return true;
  }

  /**
   * The flag's test right after an if (or block) it left, whose arm holds the label at its top level:
   * the arm's code from the label on moves out into `if (flag) { … }` in the test's place, and the arm
   * sets the flag where it reached the label. A jump from one arm into the other, without a loop.
   */
  private extract(list: List, at: number, index: number, label: Path[number]): boolean {
    const holder = list[at]!;
    if (!this.flagged || (holder.k !== 'if' && holder.k !== 'scope')) return false;
    if (!list.slice(at + 1, index).every((s) => s.k === 'label')) return false;
    // What the arm declares before the label, the code after it may read: declared before the if.
    const before = hoisted(label.list.slice(0, label.index));
    if (!before) return false;
    const tail = label.list.splice(0);
    label.list.push(...before.rest, setFlag(this.flag));
    list.splice(index, 1, { k: 'if', cond: this.flag, at: [], then: tail.slice(label.index), else: [] });
    list.splice(at, 0, ...before.decls);
    return true;
  }

  /**
   * The label inside a statement before the goto: the code from that statement to the goto becomes a loop
   * that starts with the flag's test, so the goto is before its label and moves inward.
   */
  private lift(list: List, at: number, index: number): Extract<CStmt, { k: 'loop' }> | null {
    const body = hoisted(list.slice(at, index));
    if (!body) return null;
    const { cond, at: from } = this.site;
    const again: List = this.flagged
      ? [{ k: 'if', cond: negate(this.flag), at: [], then: [{ k: 'break' }], else: [] }]
      : cond === null
        ? [setFlag(this.flag)]
        : [{ k: 'if', cond: negate(cond), at: from, then: [{ k: 'break' }], else: [] }, setFlag(this.flag)];
    const loop: Extract<CStmt, { k: 'loop' }> = {
      k: 'loop',
      cond: null,
      at: [],
      post: false,
      body: [this.check(), ...body.rest, ...again],
    };
    list.splice(at, index - at + 1, ...body.decls, loop);
    return loop;
  }
}
