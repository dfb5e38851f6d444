import type { Readable } from 'node:stream';

export interface StoredBlob {
  sha256: string;
  size: number;
  /** The first HEAD_BYTES of the content, for format identification without a second read. */
  head: Buffer;
}

export const HEAD_BYTES = 64 * 1024;

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
  }
}

export interface BlobStore {
  /** Streams content in, hashing as it goes; memory stays bounded whatever the size. */
  put(content: Readable, maxBytes: number): Promise<StoredBlob>;
  has(sha256: string): Promise<boolean>;
  /** A path on this machine holding the content (a cache entry for remote drivers). */
  localPath(sha256: string): Promise<string>;
  delete(sha256: string): Promise<void>;
}
