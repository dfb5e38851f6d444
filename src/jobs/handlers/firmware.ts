import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { BlobStore } from '../../blobs/index.js';
import type { FirmwareJobPayload } from '../../contracts/index.js';
import { FIRMWARE_FORMATS } from '../../engine/firmware/formats/index.js';
import { fileType, type ExtractionReport } from '../../engine/firmware/unpack.js';
import type { FirmwareLimits } from '../../shared/index.js';
import type { JobRow, Store } from '../../store/index.js';
import { adoptChildren, type FoundBinary } from '../child-binaries.js';
import type { UnpackProgress, UnpackRequest } from '../firmware-process.js';
import { runForked } from '../forked-task.js';
import { PermanentJobError } from '../failures.js';
import type { JobHandler } from '../runner.js';

/** JavaScript heap of the unpacking process: files in memory along one path of the tree, within the budget. */
const HEAP_MB = 4096;
/** Past the task's own wall-time bound: the process's start, the report, its end. */
const GRACE_MS = 30_000;

/**
 * Unpacks a firmware image (POST /v2/firmware) in a process of its own into a temporary directory, keeps
 * every file it wrote in the blob store (where the file route serves them), makes each executable a child
 * binary of the image — analysed with its model — and stores the report with the task's status.
 */
/**
 * When the unpacking process dies or passes its deadline (a reader's fault hostile bytes found), what it had
 * written is kept: each file on disk, its hash and type filled in as it goes into the blob store.
 */
async function writtenSoFar(outputDir: string, err: Error): Promise<ExtractionReport> {
  const entries = await readdir(outputDir, { recursive: true, withFileTypes: true });
  const paths = entries.filter((e) => e.isFile()).map((e) => relative(outputDir, join(e.parentPath, e.name)));
  const files = paths
    .sort()
    .map((path) => ({ path, chunk: -1, size: 0, sha256: '', type: '', executable: false, location: path }));
  const stopped = `the unpacker stopped before the end (${err.message}); the ${files.length} files it had written are kept`;
  return {
    chunks: [],
    files,
    links: [],
    unknown: [],
    problems: [{ where: 'image', message: stopped }],
    bytesWritten: 0,
    stopped,
  };
}

export const firmwareJobHandler = (store: Store, blobs: BlobStore, limits: FirmwareLimits): JobHandler => ({
  async run(job: JobRow) {
    const { taskId } = JSON.parse(job.payload) as FirmwareJobPayload;
    const task = await store.firmwareTasks.get(taskId);
    if (!task) return;
    const image = await store.binaryRelations.relative(task.binary_id);
    const sample = image && (await store.samples.get(image.sha256));
    if (!image || !sample || !(await blobs.has(image.sha256)))
      throw new PermanentJobError(`firmware image of task ${taskId} is missing from the blob store`);
    await store.firmwareTasks.update(taskId, { status: 'RUNNING' });
    const outputDir = await mkdtemp(join(tmpdir(), 'binlens-firmware-'));
    try {
      const request: UnpackRequest = {
        path: await blobs.localPath(image.sha256),
        outputDir,
        password: task.password,
        maxBytes: Math.max(limits.maxBytes, limits.maxRatio * sample.size),
        maxFiles: limits.maxFiles,
        maxDepth: limits.maxDepth,
        wallMs: limits.wallMs,
      };
      const report = await runForked<ExtractionReport, UnpackProgress>(
        'firmware-process',
        { ...request },
        {
          heapMb: HEAP_MB,
          deadlineMs: limits.wallMs + GRACE_MS,
          onProgress: (p) => void store.firmwareTasks.update(taskId, { progress: JSON.stringify(p) }),
        },
      ).catch((err: Error) => writtenSoFar(outputDir, err));
      const executables: FoundBinary[] = [];
      for (const f of report.files) {
        const blob = await blobs.stage(createReadStream(join(outputDir, f.path)), request.maxBytes);
        await blobs.commit(blob);
        if (f.chunk < 0) {
          Object.assign(f, { size: blob.size, sha256: blob.sha256, ...fileType(blob.head, FIRMWARE_FORMATS) });
          report.bytesWritten += blob.size;
        }
        if (f.executable)
          executables.push({
            sha256: blob.sha256,
            size: blob.size,
            head: blob.head,
            name: f.path,
            location: f.location,
          });
      }
      const finder = {
        binaryId: task.binary_id,
        userId: task.user_id,
        scope: task.scope,
        origin: 'firmware' as const,
        maxAttempts: job.max_attempts,
      };
      await adoptChildren(store, finder, executables);
      await store.firmwareTasks.update(taskId, {
        status: 'COMPLETED',
        report: JSON.stringify(report),
        progress: JSON.stringify({ files: report.files.length, bytes: report.bytesWritten }),
        password: null,
      });
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  },

  async failed(job: JobRow, err: Error, retrying: boolean) {
    if (retrying) return;
    const { taskId } = JSON.parse(job.payload) as FirmwareJobPayload;
    await store.firmwareTasks.update(taskId, { status: 'ERROR', error: err.message.slice(0, 2000), password: null });
  },
});
