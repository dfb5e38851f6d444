// Each function's blocks as later stages walk them: entry block first (recovery lists them by address),
// with successors as indices into that list. Features, the lifter and the decompiler share this view.
import type { FunctionGraph } from './types.js';

export interface FunctionBlocks {
  /** Global block indices, the entry first. */
  blocks: number[];
  /** Per local block, the local indices control can flow to (each once). */
  succ: number[][];
}

/** Every function's blocks, in the order of `graph.functions`. */
export function functionBlocks(graph: FunctionGraph): FunctionBlocks[] {
  /** Global block index → index within its function. */
  const localOf = new Int32Array(graph.blocks.start.length);
  const out: FunctionBlocks[] = graph.functions.map((f) => {
    const blocks = [...Array(f.blockCount).keys()].map((b) => f.firstBlock + b);
    const entry = blocks.findIndex((gb) => graph.blocks.start[gb] === f.start);
    if (entry > 0) blocks.unshift(...blocks.splice(entry, 1));
    blocks.forEach((gb, i) => (localOf[gb] = i));
    return { blocks, succ: blocks.map(() => []) };
  });
  const { from, to } = graph.edges;
  for (let e = 0; e < from.length; e++) {
    const gb = from[e]!;
    const fi = graph.blocks.func[gb]!;
    const f = graph.functions[fi];
    if (!f) continue;
    const dstGlobal = findBlock(graph, f.firstBlock, f.blockCount, to[e]!);
    if (dstGlobal < 0) continue;
    const succ = out[fi]!.succ[localOf[gb]!];
    const dst = localOf[dstGlobal]!;
    if (succ && !succ.includes(dst)) succ.push(dst);
  }
  return out;
}

/** The function's block starting at `addr` (a function's blocks are in address order), or -1. */
export function findBlock(graph: FunctionGraph, first: number, count: number, addr: number): number {
  let lo = first;
  let hi = first + count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = graph.blocks.start[mid]!;
    if (start === addr) return mid;
    if (start < addr) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
