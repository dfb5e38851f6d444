// Every write of an extraction goes through `place`: it turns the container's untrusted name into a path
// confined to the task's output directory, enforces the byte and file budgets, creates only regular files
// and directories (links, devices, FIFOs and sockets are recorded, never made), and records every refusal
// as a problem. The writing itself is injected (the job's file system; memory in tests).
import type { Entry } from './format.js';

/** What actually creates things: relative paths only, already confined. */
export interface OutputWriter {
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
}

export interface OutputLimits {
  /** Bytes written in all (default max(1 GiB, 20 × the image)). */
  maxBytes: number;
  /** Files written in all. */
  maxFiles: number;
}

/** An entry that is recorded rather than created. */
export interface LinkRecord {
  path: string;
  kind: Exclude<Entry['kind'], 'file' | 'dir'>;
  target: string | null;
}

export interface Problem {
  /** Where: a path in the output, or an offset path in the image. */
  where: string;
  message: string;
}

/** Path components, and bytes in one: as Linux allows. */
const MAX_COMPONENTS = 128;
const MAX_NAME_BYTES = 255;
const EMPTY = 'the name is empty';

export class ExtractionOutput {
  bytes = 0;
  files = 0;
  readonly links: LinkRecord[] = [];
  readonly problems: Problem[] = [];
  private readonly made = new Map<string, 'file' | 'dir'>();
  private budgetNoted = false;

  constructor(
    private readonly writer: OutputWriter,
    readonly limits: OutputLimits,
  ) {}

  /** Bytes the budget has left: what a decompressor may produce. */
  remaining(): number {
    return Math.max(0, this.limits.maxBytes - this.bytes);
  }

  problem(where: string, message: string): void {
    this.problems.push({ where, message });
  }

  /**
   * Places `entry` under `dir` (a path this class produced, or ''): returns the relative path of a file
   * written, or null when the entry is not a file or was refused (the refusal is a problem).
   */
  place(dir: string, entry: Entry): string | null {
    const confined = confine(entry.path);
    const where = `${dir}${dir ? '/' : ''}${entry.path}`.slice(0, 512);
    if ('refused' in confined) {
      // The root itself ('.', '/'), as archives of file systems list it, is the chunk's directory.
      if (entry.kind === 'dir' && confined.refused === EMPTY) return null;
      this.problem(where, `not written: ${confined.refused}`);
      return null;
    }
    const parts = dir ? [...dir.split('/'), ...confined.parts] : confined.parts;
    if (parts.length > MAX_COMPONENTS) {
      this.problem(where, `not written: more than ${MAX_COMPONENTS} directories deep`);
      return null;
    }
    if (entry.kind === 'dir') {
      this.directories(parts, where);
      return null;
    }
    if (entry.kind !== 'file') {
      this.links.push({ path: parts.join('/'), kind: entry.kind, target: entry.target ?? null });
      return null;
    }
    const data = entry.data ?? new Uint8Array(0);
    if (this.files >= this.limits.maxFiles || this.bytes + data.length > this.limits.maxBytes) {
      if (!this.budgetNoted)
        this.problem(
          where,
          `not written, nor anything after it: the extraction's budget (${this.limits.maxFiles} files, ` +
            `${this.limits.maxBytes} bytes) is spent`,
        );
      this.budgetNoted = true;
      return null;
    }
    if (!this.directories(parts.slice(0, -1), where)) return null;
    const path = this.unused(parts.join('/'));
    try {
      this.writer.writeFile(path, data);
    } catch (err) {
      // The disk's refusal (full, a name it cannot hold) is this file's problem; the others are still written.
      this.problem(where, `not written: ${(err as Error).message}`);
      return null;
    }
    this.made.set(path, 'file');
    this.files++;
    this.bytes += data.length;
    return path;
  }

  /** Makes each directory of `parts` that is not there yet; false (a problem) when a file is in the way. */
  private directories(parts: string[], where: string): boolean {
    for (let i = 1; i <= parts.length; i++) {
      const path = parts.slice(0, i).join('/');
      const made = this.made.get(path);
      if (made === 'dir') continue;
      if (made === 'file') {
        this.problem(where, `not written: ${path} is a file, not a directory`);
        return false;
      }
      try {
        this.writer.mkdir(path);
      } catch (err) {
        this.problem(where, `not written: ${(err as Error).message}`);
        return false;
      }
      this.made.set(path, 'dir');
    }
    return true;
  }

  /** The path, or — when a container names two entries alike — the first free `path.N`. */
  private unused(path: string): string {
    if (!this.made.has(path)) return path;
    for (let n = 1; ; n++) {
      const next = `${path}.${n}`;
      if (!this.made.has(next)) {
        this.problem(path, `a second entry of this name is written as ${next}`);
        return next;
      }
    }
  }
}

/**
 * The name as safe path components: separators '/' and '\', leading '/' and '.' dropped (archives of root
 * file systems name `/bin/sh` and `./bin/sh`); `..`, NUL and over-long names refused.
 */
export function confine(name: string): { parts: string[] } | { refused: string } {
  if (name.includes('\0')) return { refused: 'the name holds a NUL byte' };
  const parts = name.split(/[/\\]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { refused: `the name ${JSON.stringify(name.slice(0, 200))} climbs out with ..` };
  if (parts.length === 0) return { refused: EMPTY };
  if (parts.some((p) => Buffer.byteLength(p) > MAX_NAME_BYTES)) return { refused: 'a name is over 255 bytes' };
  return { parts };
}
