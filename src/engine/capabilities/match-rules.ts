// The pure matcher: frozen features + compiled rules → where each rule matched. Scopes are walked
// innermost first; a match adds `match:` keys to its instance, so wider rules (and later rules of the same
// scope, which the rule set orders after their dependencies) see it. Keys are ids: an instance's set is
// built only when one of its keys anchors a rule of its scope (most instructions and blocks anchor none),
// and holds only the keys its scope's rules read.
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
  private readonly read = new Map<Scope, (boolean | undefined)[]>();

  constructor(
    private readonly rules: RuleSet,
    private readonly keys: FeatureKeys,
  ) {}

  /** Whether a rule of `scope` looks key `id` up (strings and byte runs: when one reads any). */
  reads(scope: Scope, id: number): boolean {
    return this.perKey(this.read, scope, id, () => {
      const reads = this.rules.byScope[scope].reads;
      const any = this.anyKey(id);
      return reads.has(this.keys.key(id)) || (any !== null && reads.has(any));
    });
  }

  /** Rules of `scope` that key `id` anchors; strings and byte runs anchor the scope's ANY_* rules too. */
  candidates(scope: Scope, id: number): readonly number[] {
    return this.perKey(this.anchored, scope, id, () => {
      const index = this.rules.byScope[scope].index;
      const anyKey = this.anyKey(id);
      const any = anyKey === null ? undefined : index.get(anyKey);
      const own = index.get(this.keys.key(id));
      return own && any ? [...own, ...any] : (own ?? any ?? NONE);
    });
  }

  /** The pseudo-key a string or byte-run key also stands for, else null. */
  private anyKey(id: number): string | null {
    return this.keys.stringOf(id) !== null ? ANY_STRING : this.keys.bytesOf(id) !== null ? ANY_BYTES : null;
  }

  /** A per-scope, per-key answer, computed the first time it is asked. */
  private perKey<T>(cache: Map<Scope, (T | undefined)[]>, scope: Scope, id: number, compute: () => T): T {
    let byId = cache.get(scope);
    if (!byId) cache.set(scope, (byId = []));
    let v = byId[id];
    if (v === undefined) byId[id] = v = compute();
    return v;
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

export function matchRules(rules: RuleSet, features: FrozenFeatures): RuleMatches {
  const keys = new FeatureKeys(features.keys);
  const m = new Matcher(rules, keys);
  // Each scope's set holds only what its rules read; narrower features and matches flow outwards: an
  // instruction's into its block and function, a block's into its function, and every match into the file.
  const offer = (to: Pairs, scope: Scope, id: number, address: number) => {
    if (m.reads(scope, id)) to.push(id, address);
  };
  const file: Pairs = [];
  for (let j = 0; j + 1 < features.file.length; j += 2)
    offer(file, 'file', keys.checked(features.file[j]!), features.file[j + 1]!);
  const toFile = (ids: number[], address: number) => {
    for (const id of ids) offer(file, 'file', id, address);
  };
  for (const fn of features.functions) {
    const fnPairs: Pairs = [];
    for (let j = 0; j + 1 < fn.f.length; j += 2) offer(fnPairs, 'function', keys.checked(fn.f[j]!), fn.f[j + 1]!);
    for (const bb of fn.b) {
      const bbPairs: Pairs = [];
      for (let j = 0; j + 1 < bb.f.length; j += 2) {
        const id = keys.checked(bb.f[j]!);
        offer(bbPairs, 'basic block', id, bb.f[j + 1]!);
        offer(fnPairs, 'function', id, bb.f[j + 1]!);
      }
      let address = bb.a;
      for (let j = 0; j < bb.i.length;) {
        address += bb.i[j]!;
        const end = j + 2 + bb.i[j + 1]!;
        const insnPairs: Pairs = [];
        for (let k = j + 2; k < end; k++) {
          const id = keys.checked(bb.i[k]!);
          offer(insnPairs, 'instruction', id, address);
          offer(bbPairs, 'basic block', id, address);
          offer(fnPairs, 'function', id, address);
        }
        const matched = m.instance('instruction', insnPairs, address);
        for (const id of matched) {
          offer(bbPairs, 'basic block', id, address);
          offer(fnPairs, 'function', id, address);
        }
        toFile(matched, address);
        j = end;
      }
      const matched = m.instance('basic block', bbPairs, bb.a);
      for (const id of matched) offer(fnPairs, 'function', id, bb.a);
      toFile(matched, bb.a);
    }
    toFile(m.instance('function', fnPairs, fn.a, fn.b.length), fn.a);
  }
  m.instance('file', file, 0);
  return { matches: m.matches, evaluations: m.evaluations, naiveEvaluations: m.naiveEvaluations };
}
