import type { BinaryImage } from '../formats/image.js';

/** A contiguous run of executable bytes and what recovery has claimed in it. */
export interface CodeRegion {
  name: string;
  start: number;
  end: number;
  bytes: Uint8Array;
  /** Per byte: 1 once a function (or its literal pool, or its recorded extent) claims it, else 0. */
  owner: Uint8Array;
  /** Per byte: 1 where a function starts (recovery's seeds, marked before each walk). */
  starts: Uint8Array;
  /** Offsets where claims began since gap scanning last measured its unclaimed run (see scanGaps). */
  claims: number[];
  /** Per byte: the number of the last exploration that decoded an instruction there (its "seen" set). */
  visit: Uint32Array;
  /** Stubs (PLT and the like): calls into them are imports, never function starts. */
  stubs: boolean;
}

const STUB_SECTIONS = /^(\.plt|\.plt\.sec|\.plt\.got|\.iplt|__stubs|__stub_helper|\.MIPS\.stubs|\.pic\.stubs)$/;

/** Executable, file-backed sections (or segments when a file has no section headers). */
export function codeRegions(image: BinaryImage): CodeRegion[] {
  const out: CodeRegion[] = [];
  const add = (name: string, vaddr: number, fileOffset: number, size: number) => {
    const avail = Math.max(0, Math.min(size, image.bytes.length - fileOffset));
    if (avail <= 0 || fileOffset < 0) return;
    out.push({
      name,
      start: vaddr,
      end: vaddr + avail,
      bytes: image.bytes.subarray(fileOffset, fileOffset + avail),
      owner: new Uint8Array(avail),
      claims: [],
      starts: new Uint8Array(avail),
      visit: new Uint32Array(avail),
      stubs: STUB_SECTIONS.test(name),
    });
  };
  for (const s of image.sections) if (s.exec && s.fileSize > 0) add(s.name, s.vaddr, s.fileOffset, s.fileSize);
  if (out.length === 0) {
    for (const s of image.segments) if (s.exec && s.fileSize > 0) add('segment', s.vaddr, s.fileOffset, s.fileSize);
  }
  return disjoint(out.sort((a, b) => a.start - b.start));
}

/**
 * Regions as regionAt's binary search needs them: addresses exact (safe integers) and no two overlapping.
 * Only a damaged file has overlapping code sections; the first (lowest) keeps the shared addresses, and a
 * region inside another disappears.
 */
function disjoint(sorted: CodeRegion[]): CodeRegion[] {
  const out: CodeRegion[] = [];
  let end = 0;
  for (const r of sorted) {
    if (!Number.isSafeInteger(r.end) || r.start < 0 || r.end <= end) continue;
    const skip = Math.max(0, end - r.start);
    out.push(
      skip === 0 ? r : { ...r, start: r.start + skip, bytes: r.bytes.subarray(skip), owner: r.owner.subarray(skip) },
    );
    end = r.end;
  }
  return out;
}

/** The region holding `vaddr`, by binary search; undefined outside code. */
export function regionAt(regions: CodeRegion[], vaddr: number): CodeRegion | undefined {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = regions[mid]!;
    if (vaddr < r.start) hi = mid - 1;
    else if (vaddr >= r.end) lo = mid + 1;
    else return r;
  }
  return undefined;
}

/** Whether `vaddr` lies in a non-executable, file-backed section: where jump tables and strings live. */
export function inData(image: BinaryImage, vaddr: number): boolean {
  return image.sections.some((s) => !s.exec && s.fileSize > 0 && vaddr >= s.vaddr && vaddr < s.vaddr + s.fileSize);
}
