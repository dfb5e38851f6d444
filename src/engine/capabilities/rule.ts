// A capability rule as the matcher sees it: capa's YAML format parsed into a tree of nodes.

/** Static scopes, innermost first: a rule matches once per instance of its scope. */
export const SCOPES = ['instruction', 'basic block', 'function', 'file'] as const;
export type Scope = (typeof SCOPES)[number];

export const scopeRank = (s: Scope): number => SCOPES.indexOf(s);

/** Counted bounds, both inclusive; `max` is Infinity for "N or more". */
export interface Bounds {
  min: number;
  max: number;
}

export type RuleNode =
  /** A feature looked up by its canonical key (see feature-key.ts): api, number, mnemonic, match, … */
  | { kind: 'feature'; key: string }
  | { kind: 'substring'; value: string }
  | { kind: 'regex'; re: RegExp }
  /** A byte run as lower-case hex; matches referenced data that starts with it. */
  | { kind: 'bytes'; hex: string }
  | { kind: 'and' | 'or'; children: RuleNode[] }
  | { kind: 'not'; child: RuleNode }
  /** `N or more:` and `optional:` (0 or more) over the children that match. */
  | { kind: 'some'; bounds: Bounds; children: RuleNode[] }
  /** `count(feature): …` — distinct addresses where the feature occurs. */
  | { kind: 'count'; key: string; bounds: Bounds }
  /** `count(basic blocks): …` of a function. */
  | { kind: 'count-blocks'; bounds: Bounds };

export interface Rule {
  name: string;
  namespace: string | null;
  scope: Scope;
  /** Library rules support others through `match` and are not reported themselves. */
  lib: boolean;
  attack: string[];
  mbc: string[];
  description: string;
  examples: string[];
  /** Authoring references (file path) — where a rule came from, for error reports. */
  source: string;
  root: RuleNode;
}
