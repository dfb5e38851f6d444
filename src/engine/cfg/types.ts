// What function recovery produces: functions plus flat, index-addressed arrays of blocks, edges, calls
// and data references (STYLE.md: data that outlives a stage is kept in flat arrays addressed by index).
import type { InsnTable } from './insn-columns.js';

/** Where a function start came from, strongest first. */
export type FunctionSource =
  | 'client' // boundaries sent by a disassembler plugin
  | 'symbol' // symtab / dynsym / COFF / nlist
  | 'export'
  | 'entry' // entry point, init/fini arrays, TLS callbacks
  | 'unwind' // .eh_frame FDE, .ARM.exidx, .pdata, LC_FUNCTION_STARTS
  | 'call' // target of a direct call
  | 'pointer' // relocated or stored code pointer
  | 'tail' // target of a tail jump
  | 'gap'; // found by scanning code no other function claims

export interface RecoveredFunction {
  start: number;
  /** One past the last byte of its furthest block. */
  end: number;
  /** Symbol name when one is known (raw, possibly mangled). */
  name: string | null;
  source: FunctionSource;
  thumb: boolean;
  /** Ends in no path that returns (exit, abort, longjmp, loops forever). */
  noReturn: boolean;
  /** Index range of its blocks in FunctionGraph.blocks. */
  firstBlock: number;
  blockCount: number;
}

export const enum EdgeKind {
  Fallthrough = 0,
  Jump = 1,
  BranchTaken = 2,
  BranchNotTaken = 3,
  Switch = 4,
}

export const enum CallKind {
  Direct = 0,
  Indirect = 1,
  Tail = 2,
  /** Through an import's stub or slot: `target` is the stub/slot address. */
  Import = 3,
}

export interface FunctionGraph {
  functions: RecoveredFunction[];
  /** Blocks; block b's instructions are `insns[firstInsn[b] ..]`, `insns[b]` of them. */
  blocks: { start: Float64Array; end: Float64Array; func: Int32Array; insns: Int32Array; firstInsn: Int32Array };
  /**
   * Every instruction of every function as recovery decoded it, function by function, in address order
   * within each: the one instruction walk later stages read (a block shared by two functions is in both).
   */
  insns: InsnTable;
  /** Intra-function control flow: from block index to a target address. */
  edges: { from: Int32Array; to: Float64Array; kind: Uint8Array };
  /** Call sites: the calling instruction's address, its function, and the target (-1 if unknown). */
  calls: { site: Float64Array; caller: Int32Array; target: Float64Array; kind: Uint8Array };
  /** Data and code-pointer references from instructions. */
  refs: { site: Float64Array; func: Int32Array; target: Float64Array };
  instructionCount: number;
}
