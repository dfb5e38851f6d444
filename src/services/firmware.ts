// Firmware unpacking: an uploaded image becomes a binary and a task whose job unpacks it (jobs/handlers/
// firmware.ts); the task's view is its extraction as a tree, the executables found (child binaries, with
// their analyses) and every other file, downloadable by its hash.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Static } from '@sinclair/typebox';
import type { BlobStore } from '../blobs/index.js';
import { FIRMWARE_JOB_KIND, type FirmwareJobPayload, type FirmwareTask } from '../contracts/index.js';
import type { ChunkRecord, ExtractionReport, FileRecord } from '../engine/index.js';
import { errors } from '../shared/errors.js';
import type { FirmwareTaskRow, Store } from '../store/index.js';
import { canView, type Caller } from './access.js';
import type { StreamedUpload, UploadsService } from './uploads.js';

type TaskView = Static<typeof FirmwareTask>;
type TreeChunk = TaskView['tree'][number];

/** One attempt and two retries: an unpacking is deterministic, a retry is for a crash of its process. */
const ATTEMPTS = 3;

/** Who sees a task (and its image): as an analysis — its owner, the owner's team, everyone when public. */
export const canViewTask = (caller: Caller, t: FirmwareTaskRow) =>
  canView(caller, { user_id: t.user_id, analysis_scope: t.scope, owner_team_id: t.owner_team_id });

export class FirmwareService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly uploads: UploadsService,
  ) {}

  async create(caller: Caller, file: StreamedUpload, password: string | null) {
    const recorded = await this.uploads.record(caller, file, 'BINARY');
    const taskId = randomUUID();
    const payload: FirmwareJobPayload = { taskId };
    const { binaryId } = await this.store.firmwareTasks.create(
      {
        id: taskId,
        userId: caller.id,
        sha256: recorded.sha_256_hash,
        filename: recorded.filename,
        scope: 'PRIVATE',
        password: password || null,
      },
      { kind: FIRMWARE_JOB_KIND, payload, maxAttempts: ATTEMPTS },
    );
    return { task_id: taskId, binary_id: binaryId, sha_256_hash: recorded.sha_256_hash, status: 'PENDING' as const };
  }

  private async visibleTask(caller: Caller, taskId: string): Promise<FirmwareTaskRow> {
    const t = await this.store.firmwareTasks.get(taskId);
    if (!t || !canViewTask(caller, t))
      throw errors
        .resourceNotFound()
        .withDetail(`firmware task ${taskId.slice(0, 64)} does not exist or is not visible to you`);
    return t;
  }

  async task(caller: Caller, taskId: string): Promise<TaskView> {
    const t = await this.visibleTask(caller, taskId);
    const image = (await this.store.binaryRelations.relative(t.binary_id))!;
    const sample = await this.store.samples.get(image.sha256);
    const report = t.report ? (JSON.parse(t.report) as ExtractionReport) : null;
    const children = await this.store.binaryRelations.children(t.binary_id);
    const byLocation = new Map(children.map((c) => [c.location, c]));
    const visibleAnalyses = new Set(
      (await this.store.analyses.getMany(children.flatMap((c) => (c.analysis_id === null ? [] : [c.analysis_id]))))
        .filter((a) => canView(caller, a))
        .map((a) => a.id),
    );
    const files = report?.files ?? [];
    // A report made before files had their name has each one's chunk directory: the path under it.
    const dirs = new Map(report?.chunks.map((c) => [c.id, `${c.dir}/`]));
    const nameOf = (f: FileRecord) => {
      const dir = dirs.get(f.chunk);
      return f.name ?? (dir && f.path.startsWith(dir) ? f.path.slice(dir.length) : f.path);
    };
    const fileView = (f: FileRecord) => ({
      path: f.path,
      name: nameOf(f),
      size: f.size,
      sha256: f.sha256,
      type: f.type,
      location: f.location,
    });
    return {
      task_id: t.id,
      status: t.status as TaskView['status'],
      error: t.error,
      progress: t.progress ? (JSON.parse(t.progress) as TaskView['progress']) : null,
      firmware: { binary_id: t.binary_id, name: t.filename, sha256: image.sha256, size: sample?.size ?? 0 },
      tree: report ? tree(report) : [],
      binaries: files.flatMap((f) => {
        const child = f.executable ? byLocation.get(f.location) : undefined;
        if (!child) return [];
        const analysis =
          child.analysis_id !== null && visibleAnalyses.has(child.analysis_id) ? child.analysis_id : null;
        return [{ ...fileView(f), binary_id: child.binary_id, analysis_id: analysis }];
      }),
      files: files
        .filter((f) => !f.executable)
        .map((f) => ({ ...fileView(f), download: `/v2/firmware/${t.id}/files/${f.sha256}` })),
      links: report?.links ?? [],
      unknown: report?.unknown ?? [],
      problems: report?.problems ?? [],
      bytes_written: report?.bytesWritten ?? 0,
      stopped: report?.stopped ?? null,
    };
  }

  /** The bytes of a file the task extracted, by its SHA-256. */
  async file(caller: Caller, taskId: string, sha256: string): Promise<Buffer> {
    const t = await this.visibleTask(caller, taskId);
    const report = t.report ? (JSON.parse(t.report) as ExtractionReport) : null;
    const hash = sha256.toLowerCase();
    if (!report?.files.some((f) => f.sha256 === hash))
      throw errors.resourceNotFound().withDetail(`firmware task ${t.id} extracted no file with SHA-256 ${hash}`);
    return readFile(await this.blobs.localPath(hash));
  }
}

/** The report's flat records as a tree: the image's chunks, each with its files, each with its chunks. */
function tree(report: ExtractionReport): TreeChunk[] {
  const chunksIn = groupBy(report.chunks, (c) => c.in);
  const filesOf = groupBy(report.files, (f) => f.chunk);
  const node = (c: ChunkRecord): TreeChunk => ({
    offset: c.offset,
    size: c.size,
    format: c.format,
    description: c.description,
    entropy: c.entropy ?? null,
    files: (filesOf.get(c.id) ?? []).map((f) => ({ path: f.path, chunks: (chunksIn.get(f.path) ?? []).map(node) })),
  });
  return (chunksIn.get(null) ?? []).map(node);
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
