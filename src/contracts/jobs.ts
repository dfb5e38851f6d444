// What the API's services put on the job queue and the workers take off it.

export const ANALYSIS_JOB_KIND = 'analysis';

export interface AnalysisJobPayload {
  sha256: string;
  /** The create request's `binary_config`, for raw blobs whose bytes cannot tell ISA or platform. */
  binaryConfig: {
    isa?: 'x86' | 'x86_64' | 'arm' | null;
    platform?: 'linux' | 'windows' | 'android' | null;
    file_format?: 'pe' | 'elf' | 'blob' | null;
  } | null;
  /** Function boundaries a disassembler plugin sent (create request `symbols`), in its address space. */
  symbols: { baseAddress: number; functions: { start: number; end: number; name: string }[] } | null;
}
