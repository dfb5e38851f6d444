import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobStore, type StagedBlob } from '../blobs/index.js';
import { identify } from '../engine/formats/identify.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import type { Caller } from './access.js';

export interface StreamedUpload {
  blob: StagedBlob;
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
      return { blob: await this.blobs.stage(file, this.maxBytes), filename };
    } catch (err) {
      if (err instanceof BlobTooLargeError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw errors.uploadTooLarge(this.maxBytes);
      }
      throw err;
    }
  }

  /** Drops this request's staged copy; what other requests stored is never touched. */
  async discard(up: StreamedUpload): Promise<void> {
    await this.blobs.abandon(up.blob);
  }

  /**
   * Identifies the sample from its first 64 KiB and records the caller's upload of it. The blob is in place
   * before the record that names it, so a recorded sample always has its content.
   */
  async record(caller: Caller, up: StreamedUpload, fileType: string) {
    await this.blobs.commit(up.blob);
    const identity = identify(up.blob.head, up.blob.size);
    await this.store.samples.recordUpload(
      { sha256: up.blob.sha256, size: up.blob.size, identity: JSON.stringify(identity) },
      { user_id: caller.id, file_type: fileType, filename: up.filename },
    );
    return { sha_256_hash: up.blob.sha256, file_type: fileType as 'BINARY', filename: up.filename };
  }
}
