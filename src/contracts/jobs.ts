// What the API's services put on the job queue and the workers take off it.
import type { FileHashes } from './result.js';

export const ANALYSIS_JOB_KIND = 'analysis';
/** The sample run in the emulator (create request `sandbox_config`); the payload is null: the row says what. */
export const DYNAMIC_EXECUTION_JOB_KIND = 'dynamic-execution';
/** A firmware image unpacked (POST /v2/firmware); the payload names the task. */
export const FIRMWARE_JOB_KIND = 'firmware';
export interface FirmwareJobPayload {
  taskId: string;
}

/**
 * An analysis job carries only what its analysis row does not: the sample, the binary and symbol config
 * are read from the row (analyses.sha256, analyses.config) when the job runs.
 */
export interface AnalysisJobPayload {
  /** The create request's `debug_hash` when it names a sample the submitter uploaded, else null. */
  debugSha256: string | null;
}

/** The create request's `binary_config`, for raw blobs whose bytes cannot tell ISA or platform. */
export type BinaryConfigInput = {
  isa?: 'x86' | 'x86_64' | 'arm' | null;
  platform?: 'linux' | 'windows' | 'android' | null;
  file_format?: 'pe' | 'elf' | 'blob' | null;
} | null;

/** Function boundaries a disassembler plugin sent (create request `symbols`), in its address space. */
export type ClientBoundaries = {
  baseAddress: number;
  functions: { start: number; end: number; name: string }[];
} | null;

/** Block text of one function, rendered by a worker thread from the stored sample (API → pool). */
export interface BlockTextRequest {
  /** Local path of the sample's bytes. */
  path: string;
  binaryConfig: BinaryConfigInput;
  symbols: ClientBoundaries;
  thumb: boolean;
  blocks: { start: number; end: number }[];
  /** Names of call targets by address. */
  names: Record<number, string>;
}

/** Renders block text off the API's event loop. */
export type BlockTextRenderer = (request: BlockTextRequest) => Promise<string[][]>;

/** Digests and entropy of a stored file, computed by a worker thread (API → pool). */
export type FileDescriber = (path: string) => Promise<{ hashes: FileHashes; entropy: number }>;

/** Byte ranges of a stored file to measure (its sections), by offset and length. */
export interface SectionEntropyRequest {
  path: string;
  ranges: { offset: number; size: number }[];
}

/** Shannon entropy of each range, in order, computed by a worker thread (API → pool). */
export type SectionEntropyMeter = (request: SectionEntropyRequest) => Promise<number[]>;
