import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, HEAD_BYTES, type BlobStore, type StagedBlob } from './blob-store.js';

const SHA256 = /^[0-9a-f]{64}$/;
/** `<host>.<pid>.<uuid>`: the staging folder of one store instance. */
const STAGING_DIR = /^(.+)\.(\d+)\.[0-9a-f-]{36}$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Blobs under `<root>/ab/cd/<sha256>`. Uploads stream into `<root>/tmp/<host>.<pid>.<uuid>/`, a folder of this
 * instance's own, and are renamed into place on commit. A folder belongs to a crashed process when that
 * process is gone (same host) or its mtime, refreshed by `heartbeat`, is older than `staleMs` (another host
 * sharing the data directory); `sweep` removes such folders, so a `kill -9` mid-upload leaves nothing behind.
 */
export class FsBlobStore implements BlobStore {
  private readonly tmpRoot: string;
  private readonly own: string;

  constructor(
    private readonly root: string,
    private readonly staleMs = 10 * 60_000,
  ) {
    this.tmpRoot = join(root, 'tmp');
    this.own = `${hostname()}.${process.pid}.${randomUUID()}`;
  }

  private pathOf(sha256: string): string {
    // The hash is the only path component a caller influences: accept nothing but 64 hex digits.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256.slice(0, 80)}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  private async stagingDir(): Promise<string> {
    const dir = join(this.tmpRoot, this.own);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async stage(content: Readable, maxBytes: number): Promise<StagedBlob> {
    const staged = join(await this.stagingDir(), randomUUID());
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
    const out = createWriteStream(staged);
    try {
      await pipeline(content, meter, out);
    } catch (err) {
      // The file may still be opening when the pipeline fails: removed before then, it would reappear.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(staged, { force: true });
      throw err;
    }
    return { sha256: hash.digest('hex'), size, head: Buffer.concat(headChunks), staged };
  }

  /** Same content under the same name: renaming over an existing blob replaces it with identical bytes. */
  async commit(blob: StagedBlob): Promise<void> {
    const dest = this.pathOf(blob.sha256);
    await mkdir(join(dest, '..'), { recursive: true });
    await rename(blob.staged, dest);
  }

  async abandon(blob: StagedBlob): Promise<void> {
    await rm(blob.staged, { force: true });
  }

  /** Marks this instance's staging folder as in use, for hosts that cannot see whether our process lives. */
  async heartbeat(): Promise<void> {
    const now = new Date();
    await utimes(join(this.tmpRoot, this.own), now, now).catch(() => {});
  }

  async sweep(): Promise<number> {
    const entries = await readdir(this.tmpRoot, { withFileTypes: true }).catch(() => []);
    let removed = 0;
    for (const e of entries) {
      if (e.name === this.own) continue;
      const path = join(this.tmpRoot, e.name);
      const m = STAGING_DIR.exec(e.name);
      // Loose files are partial uploads of the layout before staging folders: no running request owns them.
      let dead = !e.isDirectory() || !m;
      if (!dead) {
        const [, host, pid] = m!;
        // Another host's process (or an earlier instance in this one) is judged by its heartbeat alone.
        dead =
          host === hostname() && Number(pid) !== process.pid
            ? !processAlive(Number(pid))
            : await stat(path).then(
                (s) => Date.now() - s.mtimeMs > this.staleMs,
                () => false,
              );
      }
      if (dead) {
        await rm(path, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
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

  async check(): Promise<void> {
    const probe = join(await this.stagingDir(), `ready-${randomUUID()}`);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  }
}
