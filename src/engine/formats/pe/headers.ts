// DOS stub → PE signature → COFF header → optional header (PE32 / PE32+) → data directories → section table.
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';

export const COFF_SYMBOL_SIZE = 18;
const SECTION_HEADER_SIZE = 40;
const PE32_PLUS_MAGIC = 0x20b;
const PE32_MAGIC = 0x10b;
const SCN_CNT_CODE = 0x20;
const SCN_MEM_EXECUTE = 0x20000000;
const SCN_MEM_READ = 0x40000000;
const SCN_MEM_WRITE = 0x80000000;
/** The loader rounds PointerToRawData down to 512 whatever FileAlignment says (pefile does the same). */
const RAW_POINTER_GRANULE = 0x200;

export const DIR = {
  export: 0,
  import: 1,
  exception: 3,
  security: 4,
  baseReloc: 5,
  debug: 6,
  tls: 9,
  loadConfig: 10,
  iat: 12,
  delayImport: 13,
} as const;

export interface DataDirectory {
  rva: number;
  size: number;
}

export interface PeSection {
  name: string;
  rva: number;
  /** Size in memory (VirtualSize, or SizeOfRawData when VirtualSize is 0 as in old linkers' output). */
  size: number;
  /** Raw data as the loader maps it: aligned pointer, clipped to VirtualSize and to the file. */
  fileOffset: number;
  fileSize: number;
  /** End of the raw data as the header declares it (for the overlay), clipped to the file. */
  rawEnd: number;
  characteristics: number;
  read: boolean;
  write: boolean;
  exec: boolean;
}

export interface PeHeaders {
  machine: number;
  is64: boolean;
  characteristics: number;
  imageBase: number;
  entryRva: number;
  sizeOfImage: number;
  sizeOfHeaders: number;
  dllCharacteristics: number;
  /** COFF symbol table (a file offset; the string table follows the records) and record count; 0/0 when absent. */
  symbolTable: number;
  symbolCount: number;
  /** Always 16 entries; entries beyond NumberOfRvaAndSizes or the optional header read as empty. */
  dirs: DataDirectory[];
  sections: PeSection[];
}

/** Reads the headers; null when there is no PE signature or optional header to speak of. */
export function readHeaders(ctx: PeContext): PeHeaders | null {
  const v = ctx.v;
  const pe = v.u32(0x3c);
  if (!v.has(pe, 24) || v.u32(pe) !== 0x00004550) return null;
  const coff = pe + 4;
  const sectionCount = v.u16(coff + 2);
  const symbolTable = v.u32(coff + 8);
  const symbolCount = v.u32(coff + 12);
  const optionalSize = v.u16(coff + 16);
  const opt = coff + 20;
  const magic = v.u16(opt);
  if (magic !== PE32_MAGIC && magic !== PE32_PLUS_MAGIC) return null;
  const is64 = magic === PE32_PLUS_MAGIC;

  const countAt = is64 ? 108 : 92;
  const dirsAt = is64 ? 112 : 96;
  const declared = v.u32(opt + countAt);
  if (declared > 16) ctx.warn(`NumberOfRvaAndSizes ${declared}: only the 16 defined directories read`);
  const dirs: DataDirectory[] = [];
  for (let i = 0; i < 16; i++) {
    const at = dirsAt + i * 8;
    const present = i < declared && at + 8 <= optionalSize && v.has(opt + at, 8);
    dirs.push(present ? { rva: v.u32(opt + at), size: v.u32(opt + at + 4) } : { rva: 0, size: 0 });
  }

  let imageBase = is64 ? v.u64(opt + 24) : v.u32(opt + 28);
  const sizeOfImage = v.u32(opt + 56);
  // Addresses are numbers: above 2^53 they would round and ranges collapse. No loader maps an image there
  // (user space ends at 2^47) and any RVA (< 2^32) must still add exactly; the loader would relocate such an
  // image, and so do we: to 0, leaving addresses = RVAs.
  if (imageBase + sizeOfImage + 2 ** 32 > Number.MAX_SAFE_INTEGER) {
    ctx.warn(`ImageBase 0x${imageBase.toString(16)} is beyond any address space: addresses reported as RVAs`);
    imageBase = 0;
  }
  const headers: PeHeaders = {
    machine: v.u16(coff),
    is64,
    characteristics: v.u16(coff + 18),
    imageBase,
    entryRva: v.u32(opt + 16),
    sizeOfImage,
    sizeOfHeaders: v.u32(opt + 60),
    dllCharacteristics: v.u16(opt + 70),
    // Kept even with no symbols: strip leaves a string table of long section names (".eh_frame") there.
    symbolTable,
    symbolCount: symbolTable !== 0 ? symbolCount : 0,
    dirs,
    sections: [],
  };
  headers.sections = readSections(ctx, headers, opt + optionalSize, sectionCount, v.u32(opt + 36));
  return headers;
}

function readSections(
  ctx: PeContext,
  h: PeHeaders,
  table: number,
  declared: number,
  fileAlignment: number,
): PeSection[] {
  const v = ctx.v;
  let count = declared;
  if (count > LIMITS.sections) {
    ctx.warn(`NumberOfSections ${declared}: capped at ${LIMITS.sections}`);
    count = LIMITS.sections;
  }
  const fit = Math.max(0, Math.floor((v.length - table) / SECTION_HEADER_SIZE));
  if (count > fit) {
    ctx.warn(`section table truncated: ${fit} of ${declared} headers in the file`);
    count = fit;
  }
  // Long names ("/123") index the COFF string table that follows the symbol records.
  const strings = h.symbolTable > 0 ? h.symbolTable + h.symbolCount * COFF_SYMBOL_SIZE : -1;
  const sections: PeSection[] = [];
  for (let i = 0; i < count; i++) {
    const at = table + i * SECTION_HEADER_SIZE;
    let name = v.fixedString(at, 8);
    if (/^\/\d{1,7}$/.test(name) && strings >= 0) name = ctx.name(strings + Number(name.slice(1))) || name;
    const vsize = v.u32(at + 8);
    const rawSize = v.u32(at + 16);
    const rawPointer = v.u32(at + 20);
    const characteristics = v.u32(at + 36);
    const aligned =
      fileAlignment >= RAW_POINTER_GRANULE
        ? Math.floor(rawPointer / RAW_POINTER_GRANULE) * RAW_POINTER_GRANULE
        : rawPointer;
    const size = vsize !== 0 ? vsize : rawSize;
    const inFile = rawSize === 0 || aligned >= v.length ? 0 : Math.min(rawSize, v.length - aligned);
    if (rawSize !== 0 && inFile < rawSize) ctx.warn(`section ${i} (${name}): raw data runs past the end of the file`);
    const fileSize = Math.min(inFile, size);
    sections.push({
      name,
      rva: v.u32(at + 12),
      size,
      fileOffset: fileSize > 0 ? aligned : 0,
      fileSize,
      rawEnd: inFile > 0 ? aligned + inFile : 0,
      characteristics,
      read: (characteristics & SCN_MEM_READ) !== 0,
      write: (characteristics & SCN_MEM_WRITE) !== 0,
      // Code sections are code even when a packer drops the execute bit (pre-NX loaders ran them anyway).
      exec: (characteristics & (SCN_MEM_EXECUTE | SCN_CNT_CODE)) !== 0,
    });
  }
  return sections;
}
