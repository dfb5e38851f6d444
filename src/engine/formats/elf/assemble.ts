// Final shaping of the parser's lists: sorted, de-duplicated, and the overlay past everything the headers
// account for. Deterministic order matters: the same bytes must give a byte-identical result document.
import type { EntryPoint, PointerRef, UnwindRange } from '../image.js';
import type { ElfContext } from './context.js';

/** Ranges that start in code, sorted by start; of several with one start the first found is kept. */
export function arrangeUnwind(ctx: ElfContext, ranges: UnwindRange[]): UnwindRange[] {
  const kept = ranges.filter((r) => !ctx.map.hasExec || ctx.map.isExec(r.start));
  kept.sort((a, b) => a.start - b.start || a.end - b.end);
  return kept.filter((r, i) => i === 0 || kept[i - 1]!.start !== r.start);
}

/** Relocation pointers first (the loader's word is final), then file-held ones not already covered. */
export function mergePointers(relocated: PointerRef[], held: PointerRef[]): PointerRef[] {
  const all = relocated.concat(held);
  const seen = new Set<number>();
  const out: PointerRef[] = [];
  for (const p of all) {
    if (seen.has(p.at)) continue;
    seen.add(p.at);
    out.push(p);
  }
  return out.sort((a, b) => a.at - b.at);
}

export function uniqueEntries(entries: EntryPoint[]): EntryPoint[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = `${e.kind}:${e.vaddr}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Bytes past the ELF header, both header tables, every segment's and every section's file data. */
export function overlayOf(ctx: ElfContext): { offset: number; size: number } | null {
  const { header: h, view } = ctx;
  const length = view.length;
  const table = (off: number, n: number, size: number): number => (off > 0 && n > 0 ? off + n * size : 0);
  let end = h.is64 ? 64 : 52;
  end = Math.max(
    end,
    table(h.phoff, ctx.segments.length, h.phentsize),
    table(h.shoff, ctx.sections.length, h.shentsize),
  );
  for (const p of ctx.segments) if (p.fileBytes > 0) end = Math.max(end, p.offset + p.fileBytes);
  for (const s of ctx.sections) if (s.fileBytes > 0) end = Math.max(end, s.offset + s.fileBytes);
  end = Math.min(end, length);
  return end < length ? { offset: end, size: length - end } : null;
}
