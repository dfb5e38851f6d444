// ARM EHABI unwind index (.ARM.exidx / PT_ARM_EXIDX): sorted 8-byte entries whose first word is a prel31
// offset to a function start. The table records no ends: an entry covers code up to the next entry, which
// is a function's end only when every function has an entry (code built without unwind tables has none,
// and then one entry spans many functions). So starts are reported with an unknown end (end = start).
import type { UnwindRange } from '../image.js';
import { EM_ARM, PT_ARM_EXIDX, SHT_PROC_UNWIND } from './constants.js';
import type { ElfContext } from './context.js';
import type { Budget } from './symbols.js';

const TWO_32 = 0x1_0000_0000;

export function parseArmExidx(ctx: ElfContext, budget: Budget): UnwindRange[] {
  if (ctx.header.machine !== EM_ARM) return [];
  const sec = ctx.sections.find((s) => s.type === SHT_PROC_UNWIND && s.fileBytes > 0);
  const seg = ctx.segments.find((p) => p.type === PT_ARM_EXIDX && p.fileBytes > 0);
  const where = sec
    ? { offset: sec.offset, size: sec.fileBytes, vaddr: sec.addr }
    : seg
      ? { offset: seg.offset, size: seg.fileBytes, vaddr: seg.vaddr }
      : null;
  if (!where) return [];
  const { view, map } = ctx;
  const count = Math.min(Math.floor(where.size / 8), budget.left);
  budget.left -= count;
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    const word = view.u32(where.offset + i * 8);
    if (word >= 0x80000000) continue;
    const rel = word >= 0x40000000 ? word - 0x80000000 : word;
    const target = (((where.vaddr + i * 8 + rel) % TWO_32) + TWO_32) % TWO_32;
    // Function starts carry no Thumb bit here, but clearing it costs nothing if a tool set one.
    const start = target - (target % 2);
    if (map.isExec(start)) starts.push(start);
  }
  starts.sort((a, b) => a - b);
  const out: UnwindRange[] = [];
  for (let i = 0; i < starts.length; i++) {
    if (i > 0 && starts[i - 1] === starts[i]) continue;
    out.push({ start: starts[i]!, end: starts[i]! });
  }
  return out;
}
