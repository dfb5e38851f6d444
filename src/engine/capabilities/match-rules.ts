// The pure matcher: frozen features + compiled rules → where each rule matched. Scopes are walked
// innermost first; a match adds `match:` keys to its instance, so wider rules (and later rules of the same
// scope, which the rule set orders after their dependencies) see it. Keys are ids: an instance's set is
// built only when one of its keys anchors a rule of its scope (most instructions and blocks anchor none).
import type { FrozenFeatures } from '../../contracts/understanding.js';
import { FeatureKeys, FeatureSet } from './feature-set.js';
import type { RuleNode, Scope } from './rule.js';
import { ANY_BYTES, ANY_STRING, matchKeys, type RuleSet } from './rule-set.js';

export interface RuleMatches {
  /** Rule name → addresses of the scope instances it matched (file scope: 0). */
  matches: Map<string, number[]>;
  /** Rule trees evaluated, and how many a matcher without the index would have evaluated. */
  evaluations: number;
  naiveEvaluations: number;
}

const within = (n: number, b: { min: number; max: number }) => n >= b.min && n <= b.max;
const NONE: readonly number[] = [];

/** `[key id, address]` pairs, flattened, as the frozen document keeps them. */
type Pairs = number[];

class Matcher {
  readonly matches = new Map<string, number[]>();
  evaluations = 0;
  naiveEvaluations = 0;
  /** Per scope, per key id: the rules it anchors (filled as ids are met). */
  private readonly anchored = new Map<Scope, (readonly number[] | undefined)[]>();

  constructor(
    private readonly rules: RuleSet,
    private readonly keys: FeatureKeys,
  ) {}

  /** Rules of `scope` that key `id` anchors; strings and byte runs anchor the scope's ANY_* rules too. */
  candidates(scope: Scope, id: number): readonly number[] {
    let byId = this.anchored.get(scope);
    if (!byId) this.anchored.set(scope, (byId = []));
    let c = byId[id];
    if (c === undefined) {
      const index = this.rules.byScope[scope].index;
      const any =
        this.keys.stringOf(id) !== null
          ? index.get(ANY_STRING)
          : this.keys.bytesOf(id) !== null
            ? index.get(ANY_BYTES)
            : undefined;
      const own = index.get(this.keys.key(id));
      c = own && any ? [...own, ...any] : (own ?? any ?? NONE);
      byId[id] = c;
    }
    return c;
  }

  /**
   * Matches one instance of `scope` whose features are `pairs`; returns the ids of the `match:` keys its
   * matches add at `address`. The set is built only when a key anchors a rule of the scope.
   */
  instance(scope: Scope, pairs: Pairs, address: number, blocks = 0): number[] {
    const sr = this.rules.byScope[scope];
    this.naiveEvaluations += sr.rules.length;
    if (sr.rules.length === 0 || !this.wanted(scope, pairs)) return [];
    const set = new FeatureSet();
    for (let j = 0; j + 1 < pairs.length; j += 2) set.add(pairs[j]!, pairs[j + 1]!);
    set.blocks = blocks;
    return this.run(scope, set, address);
  }

  private wanted(scope: Scope, pairs: Pairs): boolean {
    if (this.rules.byScope[scope].always.length > 0) return true;
    for (let j = 0; j < pairs.length; j += 2) if (this.candidates(scope, pairs[j]!).length > 0) return true;
    return false;
  }

  /** Evaluates the scope's candidate rules on one instance, adding each match's keys to the set. */
  private run(scope: Scope, set: FeatureSet, address: number): number[] {
    const sr = this.rules.byScope[scope];
    const added: number[] = [];
    const candidate = new Uint8Array(sr.rules.length);
    for (const i of sr.always) candidate[i] = 1;
    for (const id of set.at.keys()) for (const i of this.candidates(scope, id)) candidate[i] = 1;
    for (let i = 0; i < sr.rules.length; i++) {
      if (!candidate[i]) continue;
      const rule = sr.rules[i]!;
      this.evaluations++;
      if (!this.evaluate(rule.root, set)) continue;
      const at = this.matches.get(rule.name);
      if (at) at.push(address);
      else this.matches.set(rule.name, [address]);
      for (const key of matchKeys(rule)) {
        const id = this.keys.id(key);
        set.add(id, address);
        added.push(id);
        for (const j of this.candidates(scope, id)) candidate[j] = 1;
      }
    }
    return added;
  }

  private evaluate(node: RuleNode, set: FeatureSet): boolean {
    switch (node.kind) {
      case 'feature': {
        const id = this.keys.find(node.key);
        return id !== undefined && set.has(id);
      }
      case 'substring':
        return this.someKey(set, (id) => this.keys.stringOf(id)?.includes(node.value) ?? false);
      case 'regex':
        return this.someKey(set, (id) => {
          const s = this.keys.stringOf(id);
          return s !== null && node.re.test(s);
        });
      case 'bytes':
        return this.someKey(set, (id) => this.keys.bytesOf(id)?.startsWith(node.hex) ?? false);
      case 'and':
        return node.children.every((c) => this.evaluate(c, set));
      case 'or':
        return node.children.some((c) => this.evaluate(c, set));
      case 'not':
        return !this.evaluate(node.child, set);
      case 'some': {
        let n = 0;
        for (const c of node.children) if (this.evaluate(c, set)) n++;
        return within(n, node.bounds);
      }
      case 'count': {
        const id = this.keys.find(node.key);
        return within(id === undefined ? 0 : set.count(id), node.bounds);
      }
      case 'count-blocks':
        return within(set.blocks, node.bounds);
    }
  }

  private someKey(set: FeatureSet, test: (id: number) => boolean): boolean {
    for (const id of set.at.keys()) if (test(id)) return true;
    return false;
  }
}

/** A block's instructions as `[key id, address]` pairs, from `[address delta, n, …n key ids]`. */
function instructionPairs(block: FrozenFeatures['functions'][number]['b'][number], keys: FeatureKeys): Pairs[] {
  const out: Pairs[] = [];
  let address = block.a;
  for (let j = 0; j < block.i.length;) {
    address += block.i[j]!;
    const n = block.i[j + 1]!;
    const pairs: Pairs = [];
    for (let k = j + 2; k < j + 2 + n; k++) {
      keys.key(block.i[k]!); // refuses ids out of range
      pairs.push(block.i[k]!, address);
    }
    out.push(pairs);
    j += 2 + n;
  }
  return out;
}

export function matchRules(rules: RuleSet, features: FrozenFeatures): RuleMatches {
  const keys = new FeatureKeys(features.keys);
  const m = new Matcher(rules, keys);
  const push = (to: Pairs, ids: number[], address: number) => {
    for (const id of ids) to.push(id, address);
  };
  // File rules see the file's features and every narrower match (capa: `match`), not function features.
  const file: Pairs = [...features.file];
  for (let j = 0; j < file.length; j += 2) keys.key(file[j]!);
  for (const fn of features.functions) {
    // Every (key, address) of the function, its blocks and instructions, plus what matches add.
    const fnPairs: Pairs = [...fn.f];
    for (const bb of fn.b) {
      const bbPairs: Pairs = [...bb.f];
      for (const pairs of instructionPairs(bb, keys)) {
        for (const x of pairs) bbPairs.push(x);
        if (pairs.length > 0) push(bbPairs, m.instance('instruction', pairs, pairs[1]!), pairs[1]!);
      }
      push(bbPairs, m.instance('basic block', bbPairs, bb.a), bb.a);
      for (const x of bbPairs) fnPairs.push(x);
    }
    push(fnPairs, m.instance('function', fnPairs, fn.a, fn.b.length), fn.a);
    for (let j = 0; j < fnPairs.length; j += 2) if (keys.isMatch(fnPairs[j]!)) file.push(fnPairs[j]!, fnPairs[j + 1]!);
  }
  m.instance('file', file, 0);
  return { matches: m.matches, evaluations: m.evaluations, naiveEvaluations: m.naiveEvaluations };
}
