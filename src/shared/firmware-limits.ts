/** Bounds of one firmware unpacking (BINLENS_FIRMWARE_*, config.ts): read by the job that runs it. */
export interface FirmwareLimits {
  wallMs: number;
  /** Bytes written: at least this, or `maxRatio` × the image when that is more (issue 14: max(1 GiB, 20×)). */
  maxBytes: number;
  maxRatio: number;
  maxFiles: number;
  /** Files within files, at most. */
  maxDepth: number;
}
