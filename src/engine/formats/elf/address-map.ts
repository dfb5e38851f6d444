// Virtual address → file offset, and "is this address code?", for the later stages. Relocations, init
// arrays and .eh_frame fields ask this millions of times, so lookups are a binary search over sorted
// ranges with a one-entry cache (consecutive lookups almost always hit the same segment).
import { PF_X, PT_LOAD, SHF_ALLOC, SHF_EXECINSTR } from './constants.js';
import type { ProgramHeader, SectionHeader } from './headers.js';

interface Range {
  start: number;
  end: number;
  /** File offset of `start`, or -1 for memory-only ranges. */
  offset: number;
}

/**
 * Overlapping ranges are legal (and hostile files stack thousands of them); a lookup looks back this many
 * ranges from the binary-search hit, which covers every real layout and keeps the worst case bounded.
 */
const LOOK_BACK = 8;

class RangeSet {
  private readonly ranges: Range[];
  private last: Range | null = null;

  constructor(ranges: Range[]) {
    this.ranges = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start || a.end - b.end);
  }

  get size(): number {
    return this.ranges.length;
  }

  /** A range holding all of [vaddr, vaddr + size), or null. */
  find(vaddr: number, size: number): Range | null {
    const end = vaddr + size;
    const hit = this.last;
    if (hit && vaddr >= hit.start && end <= hit.end) return hit;
    const rs = this.ranges;
    let lo = 0;
    let hi = rs.length - 1;
    let idx = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (rs[mid]!.start <= vaddr) {
        idx = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (let i = idx; i >= 0 && i > idx - LOOK_BACK; i--) {
      const r = rs[i]!;
      if (vaddr >= r.start && end <= r.end) {
        this.last = r;
        return r;
      }
    }
    return null;
  }
}

export class AddressMap {
  private readonly file: RangeSet;
  private readonly exec: RangeSet;

  constructor(segments: readonly ProgramHeader[], sections: readonly SectionHeader[]) {
    const loads = segments.filter((p) => p.type === PT_LOAD);
    // Segments are what the loader maps; sections stand in only when there are none (relocatable objects).
    const fileRanges: Range[] =
      loads.length > 0
        ? loads.map((p) => ({ start: p.vaddr, end: p.vaddr + p.fileBytes, offset: p.offset }))
        : sections
            .filter((s) => (s.flags & SHF_ALLOC) !== 0)
            .map((s) => ({ start: s.addr, end: s.addr + s.fileBytes, offset: s.offset }));
    this.file = new RangeSet(fileRanges.filter(safe));
    // "Executable" follows the sections when there are any (they separate .text from the read-only data
    // that shares its segment); stripped-of-sections files fall back to PF_X segments.
    const execSections = sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && (s.flags & SHF_ALLOC) !== 0);
    const execRanges: Range[] =
      execSections.length > 0
        ? execSections.map((s) => ({ start: s.addr, end: s.addr + s.size, offset: -1 }))
        : loads
            .filter((p) => (p.flags & PF_X) !== 0)
            .map((p) => ({ start: p.vaddr, end: p.vaddr + p.memsz, offset: -1 }));
    this.exec = new RangeSet(execRanges.filter(safe));
  }

  /** File offset of vaddr when all `size` bytes from it are in the file, else -1. */
  toOffset(vaddr: number, size = 1): number {
    if (!Number.isSafeInteger(vaddr) || vaddr < 0) return -1;
    const r = this.file.find(vaddr, size);
    return r ? r.offset + (vaddr - r.start) : -1;
  }

  /** Bytes of file-backed data from vaddr to the end of its range (0 when unmapped). */
  fileBytesFrom(vaddr: number): number {
    if (!Number.isSafeInteger(vaddr) || vaddr < 0) return 0;
    const r = this.file.find(vaddr, 1);
    return r ? r.end - vaddr : 0;
  }

  isExec(vaddr: number): boolean {
    return Number.isSafeInteger(vaddr) && vaddr >= 0 && this.exec.find(vaddr, 1) !== null;
  }

  /** End of the executable section (or segment) holding vaddr, or -1. */
  execEnd(vaddr: number): number {
    if (!Number.isSafeInteger(vaddr) || vaddr < 0) return -1;
    const r = this.exec.find(vaddr, 1);
    return r ? r.end : -1;
  }

  get hasExec(): boolean {
    return this.exec.size > 0;
  }
}

function safe(r: Range): boolean {
  return Number.isSafeInteger(r.start) && Number.isSafeInteger(r.end) && r.start >= 0;
}
