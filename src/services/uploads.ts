import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../blobs/index.js';
import { identify } from '../engine/formats/identify.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import type { Caller } from './access.js';

export interface StreamedUpload {
  blob: StoredBlob;
  filename: string;
}

export class UploadsService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    readonly maxBytes: number,
  ) {}

  /** Streams the file into the blob store; over the size limit it is discarded and refused. */
  async stream(file: Readable, filename: string): Promise<StreamedUpload> {
    try {
      return { blob: await this.blobs.put(file, this.maxBytes), filename };
    } catch (err) {
      if (err instanceof BlobTooLargeError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw errors.uploadTooLarge(this.maxBytes);
      }
      throw err;
    }
  }

  /** Drops a streamed blob the request turned out not to want, unless a recorded sample shares it. */
  async discard(up: StreamedUpload): Promise<void> {
    if (!(await this.store.samples.get(up.blob.sha256))) await this.blobs.delete(up.blob.sha256);
  }

  /** Identifies the sample from its first 64 KiB and records the caller's upload of it. */
  async record(caller: Caller, up: StreamedUpload, fileType: string) {
    const identity = identify(up.blob.head, up.blob.size);
    await this.store.samples.recordUpload(
      { sha256: up.blob.sha256, size: up.blob.size, identity: JSON.stringify(identity) },
      { user_id: caller.id, file_type: fileType, filename: up.filename },
    );
    return { sha_256_hash: up.blob.sha256, file_type: fileType as 'BINARY', filename: up.filename };
  }
}
