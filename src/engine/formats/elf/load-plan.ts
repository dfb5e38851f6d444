// What a program loader needs of an ELF executable: its loadable segments, entry point, program header
// table (the auxiliary vector hands it to the C library, which finds its TLS template there) and the
// interpreter a dynamically linked one names. Read from the same bounded header tables as the parser.
import type { SegmentInfo } from '../image.js';
import { Diagnostics } from './diagnostics.js';
import { readHeaders, type ProgramHeader } from './headers.js';
import { ET_DYN, PF_R, PF_W, PF_X, PT_INTERP, PT_LOAD } from './constants.js';

/** An interpreter path is a short absolute path. */
const MAX_INTERP = 256;

export interface ElfLoadPlan {
  /** Position-independent (ET_DYN): loaded at a base the loader picks, every address relative to it. */
  relocatable: boolean;
  entry: number;
  segments: SegmentInfo[];
  /** Address of the program header table once loaded (AT_PHDR), its entry size and count; 0 when unmapped. */
  phdr: number;
  phent: number;
  phnum: number;
  /** PT_INTERP: the dynamic loader it asks for, or null for a static executable. */
  interpreter: string | null;
}

export function elfLoadPlan(bytes: Uint8Array): ElfLoadPlan {
  const { view, header, segments } = readHeaders(bytes, new Diagnostics());
  const loads = loadSegments(segments).filter((s) => s.memSize > 0);
  const table = loads.find((s) => header.phoff >= s.fileOffset && header.phoff < s.fileOffset + s.fileSize);
  const interp = segments.find((s) => s.type === PT_INTERP && s.fileBytes > 1);
  return {
    relocatable: header.type === ET_DYN,
    entry: header.entry,
    segments: loads,
    phdr: table ? table.vaddr + (header.phoff - table.fileOffset) : 0,
    phent: header.phentsize,
    phnum: segments.length,
    interpreter: interp ? view.name(interp.offset, interp.offset + Math.min(interp.fileBytes, MAX_INTERP)) : null,
  };
}

/** The PT_LOAD segments of a program header table, as an image describes them. */
export function loadSegments(segments: readonly ProgramHeader[]): SegmentInfo[] {
  return segments
    .filter((p) => p.type === PT_LOAD)
    .map((p) => ({
      vaddr: p.vaddr,
      memSize: p.memsz,
      fileOffset: p.offset,
      fileSize: p.fileBytes,
      read: (p.flags & PF_R) !== 0,
      write: (p.flags & PF_W) !== 0,
      exec: (p.flags & PF_X) !== 0,
    }));
}
