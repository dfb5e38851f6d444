// Rules compiled for matching: checked (`match` targets exist, no cycles), ordered so a rule comes after
// every rule it matches, and indexed by the features that must be present for it to match — capa's 2024
// optimisation: an instance is only evaluated against rules one of whose anchor features it has.
import { valueKey } from './feature-key.js';
import { SCOPES, scopeRank, type Rule, type RuleNode, type Scope } from './rule.js';

/** Pseudo-keys for leaves that have no exact key: any string (substring, regex), any byte run. */
export const ANY_STRING = '*string';
export const ANY_BYTES = '*bytes';

export interface ScopeRules {
  /** In dependency order. */
  rules: Rule[];
  /** Anchor key → indexes into `rules`. */
  index: Map<string, number[]>;
  /** Rules with no anchor (a `not`, an `optional` or a zero count at the top): evaluated everywhere. */
  always: number[];
  /**
   * Every key the scope's rules look up, and ANY_STRING / ANY_BYTES when one reads strings or byte runs:
   * an instance's other features cannot change a match, so the matcher leaves them out of its sets.
   */
  reads: Set<string>;
}

export interface RuleSet {
  byScope: Record<Scope, ScopeRules>;
  /** Reported rules by name (library rules left out). */
  reported: Map<string, Rule>;
  /** Rules dropped while compiling, with why. */
  problems: { source: string; message: string }[];
  size: number;
}

const MATCH = 'match:';

/** Keys any one of which must be present for the node to match; null when none is required. */
export function anchors(node: RuleNode): Set<string> | null {
  switch (node.kind) {
    case 'feature':
      return new Set([node.key]);
    case 'substring':
    case 'regex':
      return new Set([ANY_STRING]);
    case 'bytes':
      return new Set([ANY_BYTES]);
    case 'count':
      return node.bounds.min > 0 ? new Set([node.key]) : null;
    case 'count-blocks':
    case 'not':
      return null;
    case 'and': {
      // Any one child's anchors will do; the smallest set is the most selective guess.
      let best: Set<string> | null = null;
      for (const c of node.children) {
        const a = anchors(c);
        if (a && (!best || a.size < best.size)) best = a;
      }
      return best;
    }
    case 'or':
    case 'some': {
      if (node.kind === 'some' && node.bounds.min === 0) return null;
      const all = new Set<string>();
      for (const c of node.children) {
        const a = anchors(c);
        if (!a) return null;
        for (const k of a) all.add(k);
      }
      return all;
    }
  }
}

function matchTargets(node: RuleNode, out: string[]): string[] {
  if (node.kind === 'feature' && node.key.startsWith(MATCH)) out.push(node.key.slice(MATCH.length));
  else if (node.kind === 'not') matchTargets(node.child, out);
  else if (node.kind === 'and' || node.kind === 'or' || node.kind === 'some')
    for (const c of node.children) matchTargets(c, out);
  return out;
}

/** The `match:` keys a rule's match adds: its name and each prefix of its namespace. */
export function matchKeys(rule: Rule): string[] {
  const keys = [valueKey('match', rule.name)];
  if (rule.namespace) {
    const parts = rule.namespace.split('/');
    for (let i = 1; i <= parts.length; i++) keys.push(valueKey('match', parts.slice(0, i).join('/')));
  }
  return keys;
}

/** The keys a rule tree looks up (ANY_STRING / ANY_BYTES for string and byte-run leaves). */
function addReads(node: RuleNode, out: Set<string>): void {
  switch (node.kind) {
    case 'feature':
    case 'count':
      out.add(node.key);
      return;
    case 'substring':
    case 'regex':
      out.add(ANY_STRING);
      return;
    case 'bytes':
      out.add(ANY_BYTES);
      return;
    case 'count-blocks':
      return;
    case 'not':
      addReads(node.child, out);
      return;
    case 'and':
    case 'or':
    case 'some':
      for (const c of node.children) addReads(c, out);
  }
}

export function compileRules(all: Rule[]): RuleSet {
  const problems: RuleSet['problems'] = [];
  const byName = new Map<string, Rule>();
  for (const r of all) {
    if (byName.has(r.name))
      problems.push({ source: r.source, message: `rule "${r.name}" defined twice; kept the first` });
    else byName.set(r.name, r);
  }
  // A `match` target is a rule name or a namespace (prefix); it depends on every rule it names.
  const provides = new Map<string, Rule[]>();
  for (const r of byName.values()) for (const k of matchKeys(r)) provides.set(k, [...(provides.get(k) ?? []), r]);
  const deps = new Map<Rule, Rule[]>();
  for (const r of byName.values()) {
    const d: Rule[] = [];
    for (const t of matchTargets(r.root, [])) {
      const targets = provides.get(valueKey('match', t));
      if (!targets)
        problems.push({ source: r.source, message: `rule "${r.name}": matches unknown rule or namespace "${t}"` });
      for (const x of targets ?? []) {
        if (scopeRank(x.scope) > scopeRank(r.scope))
          problems.push({
            source: r.source,
            message: `rule "${r.name}" (${r.scope}) matches "${x.name}" of the wider ${x.scope} scope`,
          });
        d.push(x);
      }
    }
    deps.set(r, d);
  }
  // Depth-first order; a rule on a cycle, or depending on a dropped rule, is dropped.
  const state = new Map<Rule, 'visiting' | 'done' | 'dropped'>();
  const order: Rule[] = [];
  const visit = (r: Rule): boolean => {
    const s = state.get(r);
    if (s === 'done') return true;
    if (s === 'dropped') return false;
    if (s === 'visiting') {
      problems.push({ source: r.source, message: `rule "${r.name}": its matches form a cycle` });
      state.set(r, 'dropped');
      return false;
    }
    state.set(r, 'visiting');
    const ok = deps.get(r)!.every((d) => visit(d) && scopeRank(d.scope) <= scopeRank(r.scope));
    if (state.get(r) === 'dropped' || !ok) {
      state.set(r, 'dropped');
      return false;
    }
    state.set(r, 'done');
    order.push(r);
    return true;
  };
  for (const r of byName.values()) visit(r);

  const byScope = Object.fromEntries(
    SCOPES.map((s) => [s, { rules: [], index: new Map(), always: [], reads: new Set() } as ScopeRules]),
  ) as Record<Scope, ScopeRules>;
  for (const r of order) {
    const sr = byScope[r.scope];
    const i = sr.rules.push(r) - 1;
    addReads(r.root, sr.reads);
    const a = anchors(r.root);
    if (!a) sr.always.push(i);
    else for (const k of a) sr.index.set(k, [...(sr.index.get(k) ?? []), i]);
  }
  const reported = new Map(order.filter((r) => !r.lib).map((r) => [r.name, r]));
  return { byScope, reported, problems, size: order.length };
}
