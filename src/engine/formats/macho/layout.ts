// Where the slice's bytes go: sections and segments as BinaryImage reports them, the overlay, and a fast
// "is this address code" test.
import type { SectionInfo, SegmentInfo } from '../image.js';
import type { Commands } from './load-commands.js';

/** Sections are named "segment,section" (as ld and otool write them): __TEXT,__const ≠ __DATA,__const. */
export function toSections(cmds: Commands): SectionInfo[] {
  return cmds.sections.map((s) => ({
    name: `${s.segname},${s.sectname}`,
    vaddr: s.addr,
    size: s.size,
    fileOffset: s.offset,
    fileSize: s.fileSize,
    read: s.read,
    write: s.write,
    exec: s.exec,
  }));
}

export function toSegments(cmds: Commands, sliceLength: number): SegmentInfo[] {
  return cmds.segments.map((s) => {
    const fileSize = s.fileoff >= sliceLength ? 0 : Math.min(s.filesize, sliceLength - s.fileoff);
    return {
      vaddr: s.vmaddr,
      memSize: s.vmsize,
      fileOffset: fileSize > 0 ? s.fileoff : 0,
      fileSize,
      read: s.read,
      write: s.write,
      exec: s.exec,
    };
  });
}

/**
 * Bytes of the slice after everything the load commands account for (segments — __LINKEDIT normally covers
 * the symbol tables and the signature — plus each linkedit blob on its own, for files without __LINKEDIT).
 * Offsets are relative to the slice, as are all file offsets of a Mach-O image.
 */
export function findOverlay(cmds: Commands, sliceLength: number): { offset: number; size: number } | null {
  const h = cmds.header;
  let end = h.headerSize + h.sizeofcmds;
  for (const s of cmds.segments) if (s.filesize > 0) end = Math.max(end, s.fileoff + s.filesize);
  const st = cmds.symtab;
  if (st) end = Math.max(end, st.symoff + st.nsyms * (h.is64 ? 16 : 12), st.stroff + st.strsize);
  if (cmds.indirect) end = Math.max(end, cmds.indirect.offset + cmds.indirect.size * 4);
  for (const r of [cmds.functionStarts, cmds.codeSignature]) if (r) end = Math.max(end, r.offset + r.size);
  return end < sliceLength ? { offset: end, size: sliceLength - end } : null;
}

/** Binary search over the executable sections sorted by address. */
export function codeTest(cmds: Commands): (va: number) => boolean {
  const code = cmds.sections.filter((s) => s.exec && s.size > 0).sort((a, b) => a.addr - b.addr);
  return (va) => {
    let lo = 0;
    let hi = code.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = code[mid]!;
      if (va < s.addr) hi = mid - 1;
      else if (va >= s.addr + s.size) lo = mid + 1;
      else return true;
    }
    return false;
  };
}
