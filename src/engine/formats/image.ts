// BinaryImage: what every container parser (ELF, PE, Mach-O, raw) produces and every later stage
// (disassembly, function recovery, strings) consumes. Plain data; addresses are virtual addresses as
// numbers (all supported formats keep them below 2^53).
import type { BinaryIdentity, SectionRecord } from '../../contracts/result.js';

/** A section as the result document reports it (read = loaded into memory for ELF). */
export type SectionInfo = SectionRecord;

export interface SegmentInfo {
  vaddr: number;
  memSize: number;
  fileOffset: number;
  fileSize: number;
  read: boolean;
  write: boolean;
  exec: boolean;
}

export type SymbolSource = 'symtab' | 'dynsym' | 'export' | 'nlist' | 'debug' | 'client';

export interface SymbolInfo {
  /** Raw (possibly mangled) name. */
  name: string;
  vaddr: number;
  /** Size in bytes when the format records it, else 0. */
  size: number;
  kind: 'function' | 'object' | 'other';
  binding: 'global' | 'local' | 'weak';
  source: SymbolSource;
  /** ARM: the symbol addresses Thumb code (the address has the low bit cleared). */
  thumb?: boolean;
}

export interface ImportInfo {
  /** Imported symbol name (or `ordinal_<n>` for a PE import by ordinal). */
  name: string;
  /** Library it comes from where the format says so (PE DLL, Mach-O dylib), else null (ELF). */
  library: string | null;
  /** Address of the pointer slot the loader fills (GOT entry, IAT entry, Mach-O lazy/non-lazy pointer). */
  slot: number;
  /** Addresses of stubs that jump through the slot (PLT entries, Mach-O __stubs, jmp-thunks). */
  stubs: number[];
}

export interface ExportInfo {
  name: string;
  vaddr: number;
  ordinal?: number;
}

export type EntryKind = 'entry' | 'init' | 'fini' | 'tls-callback' | 'export' | 'constructor';

export interface EntryPoint {
  vaddr: number;
  kind: EntryKind;
  thumb?: boolean;
}

/** A function range from unwind/exception tables (.eh_frame FDE, PE .pdata, .ARM.exidx). */
export interface UnwindRange {
  start: number;
  /** One past the last byte; equal to `start` when the table records no end (.ARM.exidx). */
  end: number;
}

/** A pointer the loader writes (relocation) or the file holds, pointing at `target`; a source of code addresses. */
export interface PointerRef {
  at: number;
  target: number;
}

export interface SecurityFeatures {
  nx: boolean;
  pie: boolean;
  relro: 'none' | 'partial' | 'full' | null;
  canary: boolean;
  fortify: boolean;
  /** PE DllCharacteristics. */
  aslr: boolean | null;
  dep: boolean | null;
  cfg: boolean | null;
  /** PE: SEH enabled (not NO_SEH). */
  seh: boolean | null;
  highEntropyVa: boolean | null;
}

/** Mitigations nobody has shown: booleans false ("not shown"), PE/ELF-only fields null ("not applicable"). */
export const UNKNOWN_SECURITY: Readonly<SecurityFeatures> = {
  nx: false,
  pie: false,
  relro: null,
  canary: false,
  fortify: false,
  aslr: null,
  dep: null,
  cfg: null,
  seh: null,
  highEntropyVa: null,
};

export interface DebugInfo {
  dwarf: boolean;
  /** Section names of the DWARF data found (e.g. .debug_info). */
  dwarfSections: string[];
  buildId: string | null;
  pdbPath: string | null;
  pdbGuid: string | null;
  /** Mach-O LC_UUID. */
  uuid: string | null;
}

export interface BinaryImage {
  identity: BinaryIdentity;
  bytes: Uint8Array;
  sections: SectionInfo[];
  segments: SegmentInfo[];
  symbols: SymbolInfo[];
  imports: ImportInfo[];
  exports: ExportInfo[];
  /** Needed libraries: ELF DT_NEEDED, PE import DLLs, Mach-O LC_LOAD_DYLIB. */
  libraries: string[];
  entryPoints: EntryPoint[];
  unwind: UnwindRange[];
  /** Mach-O LC_FUNCTION_STARTS: function start addresses the linker recorded. */
  functionStarts?: number[];
  pointers: PointerRef[];
  security: SecurityFeatures;
  debug: DebugInfo;
  /** Authenticode / code-signature blob present. */
  signed: boolean;
  /** Bytes after the last byte the format accounts for. */
  overlay: { offset: number; size: number } | null;
  /** Recoverable damage met while parsing (the parser throws only when nothing usable remains). */
  diagnostics: string[];
}

/** Each import's name by the addresses code reaches it through: its slot and its stubs. */
export function importsByAddress(image: Pick<BinaryImage, 'imports'>): Map<number, string> {
  const at = new Map<number, string>();
  for (const imp of image.imports) {
    at.set(imp.slot, imp.name);
    for (const s of imp.stubs) at.set(s, imp.name);
  }
  return at;
}

/** File offset of a virtual address, or -1 when no file-backed section/segment maps it. */
export function fileOffsetOf(image: Pick<BinaryImage, 'segments' | 'sections'>, vaddr: number): number {
  for (const s of image.sections) {
    // Sections not loaded into memory (.comment, .symtab) sit at address 0: they map no address.
    if (!s.read && !s.write && !s.exec) continue;
    if (s.fileSize > 0 && vaddr >= s.vaddr && vaddr < s.vaddr + s.fileSize) return s.fileOffset + (vaddr - s.vaddr);
  }
  for (const s of image.segments) {
    if (s.fileSize > 0 && vaddr >= s.vaddr && vaddr < s.vaddr + s.fileSize) return s.fileOffset + (vaddr - s.vaddr);
  }
  return -1;
}
