// The analysis result document: what the engine returns and the store keeps per analysis.
// Plain JSON, deterministic for the same bytes and options; only `vectors` is typed arrays (stored in the
// similarity index, not in the document).
import type { CallRecord, FunctionRecord, ReferenceRecord, StringRecord } from '../shared/analysis-records.js';
import type { PackedVectors } from '../shared/simhash.js';
import type { CapabilityReport, FrozenFeatures, LibraryRecord } from './understanding.js';

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
  /** PE optional header Subsystem, named (Windows GUI, Windows CUI, EFI Application …). */
  subsystem?: string;
}

export interface FileHashes {
  md5: string;
  sha1: string;
  sha256: string;
  /** CRC-32 (IEEE), 8 lowercase hex digits. */
  crc32: string;
  /** TLSH "T1" + 70 hex digits, or "TNULL" under 50 bytes or for too uniform content. */
  tlsh: string;
  /** ssdeep "blocksize:hash1:hash2"; nullable as in the published details schema. */
  ssdeep: string | null;
}

export interface SectionRecord {
  name: string;
  vaddr: number;
  size: number;
  fileOffset: number;
  fileSize: number;
  read: boolean;
  write: boolean;
  exec: boolean;
}

export interface ImportRecord {
  name: string;
  library: string | null;
  slot: number;
  stubs: number[];
}

export interface AnalysisResult {
  identity: BinaryIdentity;
  hashes: FileHashes;
  size: number;
  /** Shannon entropy of the whole file, bits per byte (0..8). */
  entropy: number;
  modelName: string | null;
  /** Source language the binary was built from (go, rust, swift, objc, c++, c), or unknown. */
  language: string;
  functionCount: number;
  sections: SectionRecord[];
  imports: ImportRecord[];
  exports: { name: string; vaddr: number }[];
  libraries: string[];
  security: Record<string, boolean | string | null>;
  debugInfo: { dwarf: boolean; buildId: string | null; pdbPath: string | null; pdbGuid: string | null };
  stripped: boolean;
  functions: FunctionRecord[];
  calls: CallRecord[];
  strings: StringRecord[];
  /** Data references from instructions (strings included), for cross-references. */
  refs: ReferenceRecord[];
  instructionCount: number;
  /** Each function's int8 vector and LSH buckets (index-aligned with `functions`), for the similarity index. */
  vectors: PackedVectors | null;
  /** Capability rule matches (analysis_config.generate_capabilities), else null. */
  capabilities: CapabilityReport | null;
  /** The features the rules matched against, kept apart from the document (large). */
  capabilityFeatures: FrozenFeatures | null;
  /** Libraries identified in the binary (analysis_config.generate_sbom or generate_cves), else null. */
  sbom: LibraryRecord[] | null;
  /** Recoverable damage met on the way (parser diagnostics, truncated recovery). */
  diagnostics: string[];
}
