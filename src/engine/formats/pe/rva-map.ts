// RVA → file offset and RVA → section, by binary search over the sections sorted by RVA: the loader requires
// ascending, non-overlapping sections, so for any file it accepts the search is exact; for hostile overlaps
// it picks one candidate and never loops.
import type { PeHeaders, PeSection } from './headers.js';

export class RvaMap {
  private readonly sorted: PeSection[];

  constructor(
    private readonly h: PeHeaders,
    private readonly fileLength: number,
  ) {
    this.sorted = [...h.sections].sort((a, b) => a.rva - b.rva);
  }

  get imageBase(): number {
    return this.h.imageBase;
  }

  /** The section whose memory range holds `rva`, if any. */
  section(rva: number): PeSection | undefined {
    const s = this.sorted;
    let lo = 0;
    let hi = s.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]!.rva <= rva) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const hit = found >= 0 ? s[found] : undefined;
    return hit && rva < hit.rva + hit.size ? hit : undefined;
  }

  /** File offset of [rva, rva+size) when all of it is file-backed, else -1. */
  offset(rva: number, size = 1): number {
    if (!Number.isSafeInteger(rva) || rva < 0 || size < 0) return -1;
    const s = this.section(rva);
    if (s) return rva + size <= s.rva + s.fileSize ? s.fileOffset + (rva - s.rva) : -1;
    // The headers are mapped at RVA 0 as they are in the file; packers put import tables there.
    const first = this.sorted[0]?.rva ?? Infinity;
    if (rva + size <= Math.min(this.h.sizeOfHeaders, first, this.fileLength)) return rva;
    return -1;
  }

  /** File offset of a virtual address (image base + RVA), else -1. */
  offsetOfVa(va: number, size = 1): number {
    return this.offset(va - this.h.imageBase, size);
  }

  isExecRva(rva: number): boolean {
    return this.section(rva)?.exec ?? false;
  }
}
