// The ELF header, program headers, section headers and section names. Everything later stages read is
// found through these tables, so this is where counts and offsets are first held against the file.
import { FormatError } from '../errors.js';
import type { Diagnostics } from './diagnostics.js';
import { SHT_NOBITS, SHT_NULL } from './constants.js';
import { ElfView } from './view.js';

export interface ElfHeader {
  is64: boolean;
  little: boolean;
  osabi: number;
  type: number;
  machine: number;
  flags: number;
  entry: number;
  ehsize: number;
  phoff: number;
  phentsize: number;
  phnum: number;
  shoff: number;
  shentsize: number;
  shnum: number;
  shstrndx: number;
}

export interface ProgramHeader {
  type: number;
  flags: number;
  offset: number;
  vaddr: number;
  filesz: number;
  memsz: number;
  /** Bytes of the segment actually present in the file (filesz clipped to the file's end). */
  fileBytes: number;
}

export interface SectionHeader {
  index: number;
  name: string;
  /** sh_name: offset of the name in the section name table. */
  nameOffset: number;
  type: number;
  flags: number;
  addr: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  addralign: number;
  entsize: number;
  /** Bytes of the section present in the file: 0 for SHT_NOBITS, else size clipped to the file's end. */
  fileBytes: number;
}

export interface ElfHeaders {
  view: ElfView;
  header: ElfHeader;
  segments: ProgramHeader[];
  sections: SectionHeader[];
}

const MAGIC = [0x7f, 0x45, 0x4c, 0x46];
/** e_phnum / e_shnum / e_shstrndx escape values of extended numbering (gABI "Sections", "Program Header"). */
const PN_XNUM = 0xffff;
const SHN_XINDEX = 0xffff;
/**
 * Extended numbering lets a header claim 2^32 sections; real files (even huge C++ objects built with
 * -ffunction-sections) stay under a million, and each entry is 40-64 bytes of file anyway.
 */
const MAX_SECTIONS = 1 << 20;
const MAX_SEGMENTS = 1 << 16;
/** Section names are short; 256 bytes is generous. */
const MAX_SECTION_NAME = 256;

export function readElfHeader(bytes: Uint8Array): { view: ElfView; header: ElfHeader } {
  if (bytes.length < 16 || !MAGIC.every((b, i) => bytes[i] === b)) {
    throw new FormatError('elf', bytes.length < 4 ? 'truncated' : 'bad-magic', 'not an ELF file (no \\x7fELF magic)');
  }
  const cls = bytes[4];
  const data = bytes[5];
  if (cls !== 1 && cls !== 2) throw new FormatError('elf', 'bad-header', `ELF class ${cls} is neither 32 nor 64-bit`);
  if (data !== 1 && data !== 2) throw new FormatError('elf', 'bad-header', `ELF data encoding ${data} is invalid`);
  const is64 = cls === 2;
  const view = new ElfView(bytes, data === 1, is64);
  const ehsize = is64 ? 64 : 52;
  if (bytes.length < ehsize) {
    throw new FormatError('elf', 'truncated', `ELF header truncated: ${bytes.length} of ${ehsize} bytes`);
  }
  // Offsets of the class-dependent fields: the 64-bit header widens e_entry, e_phoff and e_shoff.
  const w = is64 ? 8 : 4;
  const after = 24 + 3 * w;
  return {
    view,
    header: {
      is64,
      little: data === 1,
      osabi: bytes[7] ?? 0,
      type: view.u16(16),
      machine: view.u16(18),
      entry: view.addr(24),
      phoff: view.addr(24 + w),
      shoff: view.addr(24 + 2 * w),
      flags: view.u32(after),
      ehsize: view.u16(after + 4),
      phentsize: view.u16(after + 6),
      phnum: view.u16(after + 8),
      shentsize: view.u16(after + 10),
      shnum: view.u16(after + 12),
      shstrndx: view.u16(after + 14),
    },
  };
}

/** How many `entsize`-byte entries of a table at `offset` fit in the file, at most `wanted`. */
function fitting(view: ElfView, offset: number, entsize: number, wanted: number): number {
  if (!view.has(offset, 0) || entsize <= 0) return 0;
  return Math.min(wanted, Math.floor((view.length - offset) / entsize));
}

/**
 * How many entries of a program or section header table to read: none when it is absent or its entries
 * are smaller than the class's, else those inside the file (at most `max`); what is left out is diagnosed.
 */
function tableLength(
  view: ElfView,
  diag: Diagnostics,
  what: 'program' | 'section',
  offset: number,
  entsize: number,
  minSize: number,
  count: number,
  max: number,
): number {
  if (count === 0 || offset === 0) return 0;
  if (entsize < minSize) {
    diag.add(`${what} header entry size ${entsize} is below ${minSize}: ${what} headers ignored`);
    return 0;
  }
  const n = fitting(view, offset, entsize, Math.min(count, max));
  if (n < count) diag.add(`${what} header table holds ${n} of ${count} entries inside the file`);
  return n;
}

function clippedBytes(view: ElfView, offset: number, size: number): number {
  if (!view.has(offset, 0) || !Number.isSafeInteger(size) || size <= 0) return 0;
  return Math.min(size, view.length - offset);
}

function readSegments(view: ElfView, h: ElfHeader, count: number, diag: Diagnostics): ProgramHeader[] {
  const n = tableLength(view, diag, 'program', h.phoff, h.phentsize, h.is64 ? 56 : 32, count, MAX_SEGMENTS);
  const out: ProgramHeader[] = [];
  for (let i = 0; i < n; i++) {
    const at = h.phoff + i * h.phentsize;
    const p: ProgramHeader = h.is64
      ? {
          type: view.u32(at),
          flags: view.u32(at + 4),
          offset: view.u64(at + 8),
          vaddr: view.u64(at + 16),
          filesz: view.u64(at + 32),
          memsz: view.u64(at + 40),
          fileBytes: 0,
        }
      : {
          type: view.u32(at),
          offset: view.u32(at + 4),
          vaddr: view.u32(at + 8),
          filesz: view.u32(at + 16),
          memsz: view.u32(at + 20),
          flags: view.u32(at + 24),
          fileBytes: 0,
        };
    p.fileBytes = clippedBytes(view, p.offset, p.filesz);
    if (p.fileBytes < p.filesz) diag.add(`segment ${i} runs past the end of the file`);
    out.push(p);
  }
  return out;
}

function readSectionTable(view: ElfView, h: ElfHeader, count: number, diag: Diagnostics): SectionHeader[] {
  const n = tableLength(view, diag, 'section', h.shoff, h.shentsize, h.is64 ? 64 : 40, count, MAX_SECTIONS);
  const out: SectionHeader[] = [];
  for (let i = 0; i < n; i++) {
    const at = h.shoff + i * h.shentsize;
    // Elf32_Shdr and Elf64_Shdr list the same fields in the same order; flags, addresses, offsets and sizes
    // are class-sized words. Object literals evaluate in source order, so the cursor walks the record.
    let p = at;
    const u32 = () => view.u32((p += 4) - 4);
    const word = () => view.addr((p += view.wordSize) - view.wordSize);
    const s: SectionHeader = {
      index: i,
      name: '',
      nameOffset: u32(),
      type: u32(),
      flags: word(),
      addr: word(),
      offset: word(),
      size: word(),
      link: u32(),
      info: u32(),
      addralign: word(),
      entsize: word(),
      fileBytes: 0,
    };
    if (s.type !== SHT_NOBITS && s.type !== SHT_NULL) {
      s.fileBytes = clippedBytes(view, s.offset, s.size);
      if (s.fileBytes < s.size) diag.add(`section ${i} data runs past the end of the file`);
    }
    out.push(s);
  }
  return out;
}

function nameSections(view: ElfView, sections: SectionHeader[], strndx: number, diag: Diagnostics): void {
  const table = sections[strndx];
  if (strndx === 0 || !table || table.fileBytes === 0) {
    // e_shstrndx 0 (SHN_UNDEF) is legal and means "no names"; anything else unusable is damage.
    if (sections.length > 0 && strndx !== 0)
      diag.add(`section name table index ${strndx} is invalid: sections are unnamed`);
    return;
  }
  const end = table.offset + table.fileBytes;
  for (const s of sections) {
    const at = table.offset + s.nameOffset;
    s.name = view.name(at, Math.min(end, at + MAX_SECTION_NAME));
  }
}

/** Parse the header tables; throws FormatError only when the ELF header itself is unusable. */
export function readHeaders(bytes: Uint8Array, diag: Diagnostics): ElfHeaders {
  const { view, header } = readElfHeader(bytes);
  let phnum = header.phnum;
  let shnum = header.shnum;
  let shstrndx = header.shstrndx;
  // Extended numbering keeps the real counts in section header 0 when they overflow 16 bits.
  const minSh = header.is64 ? 64 : 40;
  if (header.shoff !== 0 && header.shentsize >= minSh && view.has(header.shoff, minSh)) {
    const at = header.shoff;
    const size0 = header.is64 ? view.u64(at + 32) : view.u32(at + 20);
    const link0 = view.u32(at + (header.is64 ? 40 : 24));
    const info0 = view.u32(at + (header.is64 ? 44 : 28));
    if (shnum === 0 && size0 > 0) shnum = size0;
    if (shstrndx === SHN_XINDEX) shstrndx = link0;
    if (phnum === PN_XNUM && info0 > 0) phnum = info0;
  }
  const segments = readSegments(view, header, phnum, diag);
  const sections = readSectionTable(view, header, shnum, diag);
  nameSections(view, sections, shstrndx, diag);
  return { view, header: { ...header, phnum, shnum, shstrndx }, segments, sections };
}
