import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, HEAD_BYTES, type BlobStore, type StoredBlob } from './blob-store.js';

const SHA256 = /^[0-9a-f]{64}$/;

/** Blobs under `<root>/ab/cd/<sha256>`; writes go to `<root>/tmp` first and are renamed into place. */
export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    // The hash is the only path component a caller influences: accept nothing but 64 hex digits.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256.slice(0, 80)}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(content: Readable, maxBytes: number): Promise<StoredBlob> {
    const tmpDir = join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    const hash = createHash('sha256');
    const headChunks: Buffer[] = [];
    let headLen = 0;
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new BlobTooLargeError(maxBytes));
        hash.update(chunk);
        if (headLen < HEAD_BYTES) {
          const part = chunk.subarray(0, HEAD_BYTES - headLen);
          headChunks.push(Buffer.from(part));
          headLen += part.length;
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(content, meter, createWriteStream(tmp));
      const sha256 = hash.digest('hex');
      const dest = this.pathOf(sha256);
      await mkdir(join(dest, '..'), { recursive: true });
      await rename(tmp, dest);
      return { sha256, size, head: Buffer.concat(headChunks) };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async has(sha256: string): Promise<boolean> {
    if (!SHA256.test(sha256)) return false;
    return access(this.pathOf(sha256)).then(
      () => true,
      () => false,
    );
  }

  async localPath(sha256: string): Promise<string> {
    return this.pathOf(sha256);
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}
