// Where the file's bytes go: sections and the header mapping as BinaryImage reports them, and the overlay.
import type { SectionInfo, SegmentInfo } from '../image.js';
import type { PeContext } from './context.js';
import { COFF_SYMBOL_SIZE, DIR } from './headers.js';
import type { PeHeaders } from './headers.js';

export function toSections(h: PeHeaders): SectionInfo[] {
  return h.sections.map((s) => ({
    name: s.name,
    vaddr: h.imageBase + s.rva,
    size: s.size,
    fileOffset: s.fileOffset,
    fileSize: s.fileSize,
    read: s.read,
    write: s.write,
    exec: s.exec,
  }));
}

/** PE has no program headers; the one mapping besides the sections is the headers at the image base. */
export function toSegments(h: PeHeaders, fileLength: number): SegmentInfo[] {
  if (h.sizeOfHeaders === 0) return [];
  return [
    {
      vaddr: h.imageBase,
      memSize: h.sizeOfHeaders,
      fileOffset: 0,
      fileSize: Math.min(h.sizeOfHeaders, fileLength),
      read: true,
      write: false,
      exec: false,
    },
  ];
}

/**
 * Bytes after everything the format accounts for: headers, section raw data and the COFF symbol + string
 * tables (mingw appends them after the sections). The certificate table is excluded when it is the file's
 * tail, the normal signed layout; when more bytes follow it, the overlay keeps it, since data smuggled after
 * a signature is exactly what an analyst wants to see.
 */
export function findOverlay(ctx: PeContext, h: PeHeaders): { offset: number; size: number } | null {
  const v = ctx.v;
  let end = Math.min(h.sizeOfHeaders, v.length);
  for (const s of h.sections) end = Math.max(end, s.rawEnd);
  if (h.symbolTable !== 0) {
    const strings = h.symbolTable + h.symbolCount * COFF_SYMBOL_SIZE;
    const size = v.u32(strings);
    if (v.has(strings, 4)) end = Math.max(end, Math.min(v.length, strings + Math.max(4, size)));
  }
  let stop = v.length;
  const cert = h.dirs[DIR.security]!;
  if (cert.size > 0 && cert.rva >= end && cert.rva <= v.length && cert.rva + cert.size >= v.length) stop = cert.rva;
  return stop > end ? { offset: end, size: stop - end } : null;
}
