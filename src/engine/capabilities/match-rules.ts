// The pure matcher: extracted features + compiled rules → where each rule matched. Scopes are walked
// innermost first; a match adds `match:` keys to its instance, so wider rules (and later rules of the same
// scope, which the rule set orders after their dependencies) see it.
import { FeatureSet, type ExtractedFeatures, type FeatureList } from './feature-set.js';
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

function evaluate(node: RuleNode, set: FeatureSet): boolean {
  switch (node.kind) {
    case 'feature':
      return set.has(node.key);
    case 'substring':
      for (const s of set.strings()) if (s.includes(node.value)) return true;
      return false;
    case 'regex':
      for (const s of set.strings()) if (node.re.test(s)) return true;
      return false;
    case 'bytes':
      for (const run of set.byteRuns()) if (run.startsWith(node.hex)) return true;
      return false;
    case 'and':
      return node.children.every((c) => evaluate(c, set));
    case 'or':
      return node.children.some((c) => evaluate(c, set));
    case 'not':
      return !evaluate(node.child, set);
    case 'some': {
      let n = 0;
      for (const c of node.children) if (evaluate(c, set)) n++;
      return within(n, node.bounds);
    }
    case 'count':
      return within(set.count(node.key), node.bounds);
    case 'count-blocks':
      return within(set.blocks, node.bounds);
  }
}

class Matcher {
  readonly matches = new Map<string, number[]>();
  evaluations = 0;
  naiveEvaluations = 0;

  constructor(private readonly rules: RuleSet) {}

  /** Evaluates the scope's candidate rules on one instance, adding each match's keys to the set. */
  run(scope: Scope, set: FeatureSet, address: number): void {
    const sr = this.rules.byScope[scope];
    if (sr.rules.length === 0) return;
    this.naiveEvaluations += sr.rules.length;
    const candidate = new Uint8Array(sr.rules.length);
    for (const i of sr.always) candidate[i] = 1;
    const mark = (key: string): void => {
      for (const i of sr.index.get(key) ?? []) candidate[i] = 1;
    };
    for (const key of set.keys.keys()) mark(key);
    if (sr.index.has(ANY_STRING) && !set.strings()[Symbol.iterator]().next().done) mark(ANY_STRING);
    if (sr.index.has(ANY_BYTES) && !set.byteRuns()[Symbol.iterator]().next().done) mark(ANY_BYTES);
    for (let i = 0; i < sr.rules.length; i++) {
      if (!candidate[i]) continue;
      const rule = sr.rules[i]!;
      this.evaluations++;
      if (!evaluate(rule.root, set)) continue;
      const at = this.matches.get(rule.name);
      if (at) at.push(address);
      else this.matches.set(rule.name, [address]);
      for (const key of matchKeys(rule)) {
        set.add(key, address);
        mark(key);
      }
    }
  }
}

const setOf = (list: FeatureList): FeatureSet => {
  const s = new FeatureSet();
  s.addList(list);
  return s;
};

export function matchRules(rules: RuleSet, features: ExtractedFeatures): RuleMatches {
  const m = new Matcher(rules);
  const file = setOf(features.file);
  for (const fn of features.functions) {
    const fnSet = setOf(fn.features);
    fnSet.blocks = fn.blocks.length;
    for (const bb of fn.blocks) {
      const bbSet = setOf(bb.features);
      for (const insn of bb.instructions) {
        const insnSet = setOf(insn.features);
        m.run('instruction', insnSet, insn.address);
        bbSet.merge(insnSet);
      }
      m.run('basic block', bbSet, bb.address);
      fnSet.merge(bbSet);
    }
    m.run('function', fnSet, fn.address);
    // File rules see function matches (capa: `match` of narrower rules), not function features.
    for (const [key, at] of fnSet.keys) if (key.startsWith('match:')) for (const a of at) file.add(key, a);
  }
  m.run('file', file, 0);
  return { matches: m.matches, evaluations: m.evaluations, naiveEvaluations: m.naiveEvaluations };
}
