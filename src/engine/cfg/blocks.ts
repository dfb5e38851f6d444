import { Flow } from '../disasm/instruction.js';
import type { Exploration } from './explore.js';
import type { Column } from './growable.js';
import { IN_DELAY_SLOT, LEADER } from './insn-columns.js';
import { EdgeKind } from './types.js';

/** The graph's block and edge columns, appended to function by function (no object per block or edge). */
export interface BlockColumns {
  start: Column;
  end: Column;
  func: Column;
  insns: Column;
  /** Index of the block's first instruction in the graph's instruction store. */
  firstInsn: Column;
  edgeFrom: Column;
  edgeTo: Column;
  edgeKind: Column;
}

const endsBlock = (flow: number) => flow !== Flow.Sequential && flow !== Flow.Call && flow !== Flow.IndirectCall;

/**
 * Cuts function `fi`'s instructions into basic blocks (at leaders, after transfers and at gaps) and
 * appends them with their edges to `out`; `base` is where its instructions start in the graph's store.
 * Returns the end of the furthest block (`floor` when none).
 */
export function formBlocks(x: Exploration, fi: number, base: number, out: BlockColumns, floor: number): number {
  const { count, addr, len, flow, bits } = x.insns;
  const { from, to } = x.succ;
  let furthest = floor;
  let s = 0; // cursor into the successors, ascending by instruction address like the blocks
  let i = 0;
  while (i < count) {
    const start = addr[i]!;
    let end = start + len[i]!;
    let insns = 1;
    let last = i; // the instruction that decides the block's successors (not its delay slot)
    let j = i + 1;
    for (; j < count; j++) {
      if (addr[j - 1]! + len[j - 1]! !== addr[j]!) break;
      if (bits[j]! & IN_DELAY_SLOT) {
        end = addr[j]! + len[j]!;
        insns++;
        continue;
      }
      if (endsBlock(flow[last]!) || bits[j]! & LEADER) break;
      end = addr[j]! + len[j]!;
      insns++;
      last = j;
    }
    const b = out.start.length;
    out.start.push(start);
    out.end.push(end);
    out.func.push(fi);
    out.insns.push(insns);
    out.firstInsn.push(base + i);
    furthest = Math.max(furthest, end);
    const site = addr[last]!;
    while (s < from.length && from[s]! < site) s++;
    const f = flow[last]!;
    const kind = f === Flow.Branch ? EdgeKind.BranchTaken : f === Flow.Jump ? EdgeKind.Jump : EdgeKind.Switch;
    if (f === Flow.Branch || f === Flow.Jump || f === Flow.IndirectJump)
      for (; s < from.length && from[s] === site; s++) edge(out, b, to[s]!, kind);
    if (f === Flow.Branch) edge(out, b, end, EdgeKind.BranchNotTaken);
    else if (!endsBlock(f) && j < count && addr[j] === end) edge(out, b, end, EdgeKind.Fallthrough);
    i = j;
  }
  return furthest;
}

function edge(out: BlockColumns, from: number, to: number, kind: EdgeKind): void {
  out.edgeFrom.push(from);
  out.edgeTo.push(to);
  out.edgeKind.push(kind);
}
