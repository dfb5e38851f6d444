// The analysis result document: what the engine returns and the store keeps per analysis.
// Plain JSON, deterministic for the same bytes and options.

export type BinaryFormat = 'elf' | 'pe' | 'macho' | 'raw';
export type Architecture =
  'x86' | 'x86_64' | 'arm' | 'arm64' | 'mips' | 'mips64' | 'ppc' | 'ppc64' | 'riscv' | 'unknown';
export type Platform = 'linux' | 'windows' | 'android' | 'macos' | 'unknown';

export interface BinaryIdentity {
  format: BinaryFormat;
  architecture: Architecture;
  bits: 32 | 64 | null;
  endianness: 'little' | 'big' | null;
  platform: Platform;
  /** executable, shared_library, relocatable, core, dll, driver, bundle, raw … */
  binaryType: string;
  /** Dynamically linked (ELF PT_INTERP/PT_DYNAMIC, PE import table, Mach-O dylib loads). */
  dynamic: boolean;
  entryPoint: number | null;
  baseAddress: number | null;
  /** Debug information present (DWARF sections, PE debug directory with CodeView, Mach-O dSYM UUID). */
  debug: boolean;
}

export interface FileHashes {
  md5: string;
  sha1: string;
  sha256: string;
}

export interface AnalysisResult {
  identity: BinaryIdentity;
  hashes: FileHashes;
  size: number;
  /** Shannon entropy of the whole file, bits per byte (0..8). */
  entropy: number;
  modelName: string | null;
  functionCount: number;
}
