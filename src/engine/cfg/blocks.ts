import { Flow } from '../disasm/instruction.js';
import type { Exploration, Insn } from './explore.js';
import { EdgeKind } from './types.js';

export interface Block {
  start: number;
  end: number;
  insns: number;
  edges: { to: number; kind: EdgeKind }[];
}

const endsBlock = (i: Insn) => i.flow !== Flow.Sequential && i.flow !== Flow.Call && i.flow !== Flow.IndirectCall;

/** Cuts an exploration's instructions into basic blocks: at leaders, after transfers and at gaps. */
export function formBlocks(x: Exploration): Block[] {
  const blocks: Block[] = [];
  const list = x.insns;
  let i = 0;
  while (i < list.length) {
    const first = list[i]!;
    const block: Block = { start: first.addr, end: first.addr + first.len, insns: 1, edges: [] };
    let last = first; // the instruction that decides the block's successors (not its delay slot)
    let j = i + 1;
    for (; j < list.length; j++) {
      const insn = list[j]!;
      const prev = list[j - 1]!;
      if (prev.addr + prev.len !== insn.addr) break;
      if (insn.inDelaySlot) {
        block.end = insn.addr + insn.len;
        block.insns++;
        continue;
      }
      if (endsBlock(last) || x.leaders.has(insn.addr)) break;
      block.end = insn.addr + insn.len;
      block.insns++;
      last = insn;
    }
    const nextIsAdjacent = j < list.length && list[j]!.addr === block.end;
    const targets = x.succ.get(last.addr) ?? [];
    switch (last.flow) {
      case Flow.Branch:
        for (const t of targets) block.edges.push({ to: t, kind: EdgeKind.BranchTaken });
        block.edges.push({ to: block.end, kind: EdgeKind.BranchNotTaken });
        break;
      case Flow.Jump:
        for (const t of targets) block.edges.push({ to: t, kind: EdgeKind.Jump });
        break;
      case Flow.IndirectJump:
        for (const t of targets) block.edges.push({ to: t, kind: EdgeKind.Switch });
        break;
      default:
        if (!endsBlock(last) && nextIsAdjacent) block.edges.push({ to: block.end, kind: EdgeKind.Fallthrough });
    }
    blocks.push(block);
    i = j;
  }
  return blocks;
}
