import type { Readable } from 'node:stream';

export interface StoredBlob {
  sha256: string;
  size: number;
  /** The first HEAD_BYTES of the content, for format identification without a second read. */
  head: Buffer;
}

/** Content streamed in and hashed, held privately for the request that sent it until commit or abandon. */
export interface StagedBlob extends StoredBlob {
  /** Where the driver keeps the staged copy; opaque to callers. */
  readonly staged: string;
}

export const HEAD_BYTES = 64 * 1024;

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
  }
}

/**
 * Content-addressed samples. Writes are two-phase so that a refused request can never remove what another
 * request stored: `stage` keeps the bytes under a name private to the request, `commit` moves them into
 * place when the upload is recorded, `abandon` drops only the request's own copy.
 */
export interface BlobStore {
  /** Streams content in, hashing as it goes; memory stays bounded whatever the size. */
  stage(content: Readable, maxBytes: number): Promise<StagedBlob>;
  commit(blob: StagedBlob): Promise<void>;
  abandon(blob: StagedBlob): Promise<void>;
  /** Removes staged copies no running request owns (those of interrupted uploads); returns how many. */
  sweep(): Promise<number>;
  has(sha256: string): Promise<boolean>;
  /** A path on this machine holding the content (a cache entry for remote drivers). */
  localPath(sha256: string): Promise<string>;
  /** Throws when content can no longer be written (readiness). */
  check(): Promise<void>;
}
