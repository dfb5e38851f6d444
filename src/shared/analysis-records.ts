// What recovery found in one binary, as one shape from the engine to the store: functions with their blocks,
// calls, strings and data references. The engine returns these in its result (contracts/result.ts), the job
// hands them to the store unchanged, and the store maps them to its rows; so they live in shared/, the one
// layer both the contracts and the store may import.

/** Where a function's name came from. */
export type NameOrigin = 'symbol' | 'debug' | 'export' | 'client' | 'generated';

export type EdgeKindName = 'fallthrough' | 'jump' | 'branch_taken' | 'branch_not_taken' | 'switch';

export interface BlockRecord {
  start: number;
  end: number;
  instructions: number;
  edges: { to: number; kind: EdgeKindName }[];
}

export interface FunctionRecord {
  vaddr: number;
  size: number;
  /** Display name: demangled symbol, or `sub_<hex>` when the binary names none. */
  name: string;
  /** The raw symbol (mangled), or the display name when there is none. */
  mangledName: string;
  nameOrigin: NameOrigin;
  /** How recovery found the start (symbol, unwind, call, gap …). */
  found: string;
  thumb: boolean;
  noReturn: boolean;
  blocks: BlockRecord[];
}

export interface CallRecord {
  /** Index of the calling function in `functions`. */
  caller: number;
  site: number;
  /** Target address (a function, an import stub or slot), or -1 when computed at run time. */
  target: number;
  kind: 'direct' | 'indirect' | 'tail' | 'import';
  /** Index of the called function, when the target is one. */
  callee: number | null;
  /** Import or function name of the target, when known. */
  calleeName: string | null;
}

export interface StringRecord {
  vaddr: number;
  value: string;
  encoding: 'ascii' | 'utf8' | 'utf16le';
  section: string;
  /** Instructions that reference it, with the index of their function. */
  refs: { site: number; func: number }[];
}

export interface ReferenceRecord {
  site: number;
  func: number;
  target: number;
}
