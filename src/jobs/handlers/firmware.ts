import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '../../blobs/index.js';
import type { FirmwareJobPayload } from '../../contracts/index.js';
import type { ExtractionReport } from '../../engine/index.js';
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
      );
      const executables: FoundBinary[] = [];
      for (const f of report.files) {
        const blob = await blobs.stage(createReadStream(join(outputDir, f.path)), request.maxBytes);
        await blobs.commit(blob);
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
