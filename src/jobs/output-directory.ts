// The firmware unpacker's writes on disk: paths the engine's ExtractionOutput has already confined, under
// the task's own directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { OutputWriter } from '../engine/index.js';

/**
 * The file system under `root`, for paths the engine's output has already confined; a path that still
 * resolves outside is refused (defence in depth), and files are created exclusively (never through a link).
 */
export function directoryWriter(root: string): OutputWriter {
  const inside = (path: string) => {
    const full = resolve(root, path);
    if (!full.startsWith(root + sep)) throw new Error(`refusing to write outside the output directory: ${path}`);
    return full;
  };
  return {
    mkdir: (path) => mkdirSync(inside(path), { recursive: true }),
    writeFile: (path, data) => writeFileSync(inside(path), data, { flag: 'wx' }),
  };
}
