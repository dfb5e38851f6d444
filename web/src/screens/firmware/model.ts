// The firmware task as the screen reads it: the answer of GET /v2/firmware/get-binaries/{task_id}, and its
// extraction as one tree whose levels mix the chunks found and the ranges nothing recognised, by offset.
import type { components, paths } from '../../api/schema';

export type FirmwareTask = NonNullable<
  paths['/v2/firmware/get-binaries/{task_id}']['get']['responses'][200]['content']['application/json']['data']
>;
type Chunk = components['schemas']['def-0'];
export type Executable = FirmwareTask['binaries'][number];
type OtherFile = FirmwareTask['files'][number];

export interface ChunkNode {
  kind: 'chunk';
  key: string;
  offset: number;
  size: number;
  format: string;
  description: string | null;
  /** Null in the report of a task unpacked before the server recorded it. */
  entropy: number | null;
  children: FileNode[];
}
export interface UnknownNode {
  kind: 'unknown';
  key: string;
  offset: number;
  size: number;
  entropy: number;
}
export interface FileNode {
  kind: 'file';
  key: string;
  name: string;
  path: string;
  /** Absent only if the tree names a file the lists do not (the tree is still shown as the server gave it). */
  info?: Executable | OtherFile;
  children: (ChunkNode | UnknownNode)[];
}
export type TreeNode = ChunkNode | UnknownNode | FileNode;

/** Still unpacking: the screen polls until it is not. */
export const isRunning = (t: Pick<FirmwareTask, 'status'>): boolean => t.status === 'PENDING' || t.status === 'RUNNING';

/** Where a file the task extracted is served (executables included), by its SHA-256. */
export const filePath = (task: string, sha256: string) => `/v2/firmware/${encodeURIComponent(task)}/files/${sha256}`;

/** An executable has the binary and analysis the image's children list; any other file a download. */
export const isExecutable = (f: Executable | OtherFile): f is Executable => 'binary_id' in f;

export function extractionTree(task: FirmwareTask): TreeNode[] {
  const info = new Map<string, Executable | OtherFile>([...task.binaries, ...task.files].map((f) => [f.path, f]));

  // Chunks and unrecognised ranges of one container (the image, or a file), in the order they lie in it.
  const level = (chunks: Chunk[], container: string | null, parent: string): (ChunkNode | UnknownNode)[] => {
    const unknown = task.unknown
      .filter((u) => u.in === container)
      .map((u): UnknownNode => ({
        kind: 'unknown',
        key: `${parent}?${u.offset}`,
        offset: u.offset,
        size: u.size,
        entropy: u.entropy,
      }));
    return [...chunks.map((c) => chunk(c, parent)), ...unknown].sort((a, b) => a.offset - b.offset);
  };
  const file = (path: string, chunks: Chunk[]): FileNode => {
    const found = info.get(path);
    return {
      kind: 'file',
      key: path,
      // Its name in its container reads better than its path under the task's offset-named directories.
      name: found?.name ?? path,
      path,
      info: found,
      children: level(chunks, path, path),
    };
  };
  const chunk = (c: Chunk, parent: string): ChunkNode => ({
    kind: 'chunk',
    key: `${parent}@${c.offset}`,
    offset: c.offset,
    size: c.size,
    format: c.format,
    description: c.description,
    entropy: c.entropy,
    children: c.files.map((f) => file(f.path, f.chunks)),
  });
  return level(task.tree, null, '');
}
