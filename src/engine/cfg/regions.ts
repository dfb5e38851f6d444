import type { BinaryImage } from '../formats/image.js';

/** A contiguous run of executable bytes and what recovery has claimed in it. */
export interface CodeRegion {
  name: string;
  start: number;
  end: number;
  bytes: Uint8Array;
  /** Per byte: 1 once a function (or its literal pool, or its recorded extent) claims it, else 0. */
  owner: Uint8Array;
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
      stubs: STUB_SECTIONS.test(name),
    });
  };
  for (const s of image.sections) if (s.exec && s.fileSize > 0) add(s.name, s.vaddr, s.fileOffset, s.fileSize);
  if (out.length === 0) {
    for (const s of image.segments) if (s.exec && s.fileSize > 0) add('segment', s.vaddr, s.fileOffset, s.fileSize);
  }
  return out.sort((a, b) => a.start - b.start);
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
