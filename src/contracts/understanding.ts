// What an analysis learns about a binary beyond its code: capabilities (rule matches) and the libraries
// it carries. Parts of the result document (see result.ts); plain data.

export type CapabilityScope = 'instruction' | 'basic block' | 'function' | 'file';

export interface CapabilityMatch {
  rule: string;
  namespace: string | null;
  scope: CapabilityScope;
  /** ATT&CK and MBC mappings as the rule writes them (`Execution::… [T1059]`). */
  attack: string[];
  mbc: string[];
  /** Start addresses of the functions the matches lie in (none for file-scope rules). */
  functions: number[];
  /** Addresses of the scope instances that matched (0 for the file). */
  addresses: number[];
}

export interface CapabilityReport {
  /** Rules loaded (library rules included) and the problems met loading them. */
  rules: number;
  matches: CapabilityMatch[];
  /** Rule evaluations made, and how many a matcher without the feature index would have made. */
  evaluations: number;
  naiveEvaluations: number;
}

export interface LibraryRecord {
  name: string;
  version: string | null;
  vendor: string;
  product: string;
  purl: string;
  cpe: string;
  linkage: 'static' | 'dynamic';
  evidence: string[];
}

/**
 * Capability features of every scope, compact (engine/capabilities/freeze.ts): keys interned, instruction
 * addresses delta-coded. Kept beside the result so rules re-match without decoding again.
 */
export interface FrozenFeatures {
  version: 1;
  keys: string[];
  /** `[key id, address]` pairs, flattened. */
  file: number[];
  functions: {
    a: number;
    f: number[];
    /** Blocks: address, `[key id, address]` pairs, and instructions as `[address delta, n, …n key ids]`. */
    b: { a: number; f: number[]; i: number[] }[];
  }[];
}
