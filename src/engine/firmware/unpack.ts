// Recursive unpacking of a firmware image: its chunks found (scan.ts), each chunk's entries placed through
// the one confined output (output.ts), every file written scanned in turn, to a bounded depth. The report
// says what contains what (chunks in files, files in chunks, with offsets, chunks with their entropy), what
// each file is, the ranges nothing recognised (with their entropy) and every problem met; extraction goes on
// past each problem.
import { createHash } from 'node:crypto';
import { identify } from '../formats/identify.js';
import { shannonEntropy } from '../hashes.js';
import { DecodeError, OutputLimitError } from './compression/errors.js';
import type { FirmwareFormat, ReadContext } from './format.js';
import type { ExtractionOutput, LinkRecord, Problem } from './output.js';
import { findChunks, internalError } from './scan.js';

export interface UnpackOptions {
  formats: readonly FirmwareFormat[];
  /** Files within files within the image, at most (unblob's default, 10). */
  maxDepth: number;
  password: string | null;
  /** Whether the task's time is up (the engine has no clock of its own). */
  timeUp: () => boolean;
}

export interface ChunkRecord {
  id: number;
  /** The file it was found in (its output path), or null for the image. */
  in: string | null;
  offset: number;
  size: number;
  format: string;
  description: string | null;
  /** The directory its entries were written under. */
  dir: string;
  /** Shannon entropy of its first ENTROPY_SAMPLE bytes; absent from reports made before it was recorded. */
  entropy?: number;
}

export interface FileRecord {
  path: string;
  /** Its name in the container it came out of, as the container gives it; absent from older reports. */
  name?: string;
  /** The chunk it came out of (-1: unknown, when the unpacker stopped before it could report). */
  chunk: number;
  size: number;
  sha256: string;
  /** What it is: `ELF arm 32-bit little endian`, a container format it starts with, `text` or `data`. */
  type: string;
  executable: boolean;
  /** Where it came from: offsets and formats from the image down, and its name in the last container. */
  location: string;
}

export interface UnknownRange {
  in: string | null;
  offset: number;
  size: number;
  /** Shannon entropy, bits per byte (near 8: compressed or encrypted; near 0: padding). */
  entropy: number;
}

export interface ExtractionReport {
  chunks: ChunkRecord[];
  files: FileRecord[];
  links: LinkRecord[];
  unknown: UnknownRange[];
  problems: Problem[];
  bytesWritten: number;
  /** Why the extraction stopped before the end (its time), or null. */
  stopped: string | null;
}

/** Gaps shorter than this (alignment, headers' tails) are not worth a line of the report. */
const MIN_UNKNOWN = 16;
/** Bytes of a chunk or an unknown range its entropy is computed over. */
const ENTROPY_SAMPLE = 1 << 20;
const EXECUTABLE_FORMATS = new Set(['elf', 'pe', 'macho']);

const hex = (n: number) => `0x${n.toString(16)}`;

/** What a file is, for the listing. */
export function fileType(data: Uint8Array, formats: readonly FirmwareFormat[]): { type: string; executable: boolean } {
  const id = identify(data.subarray(0, 65536), data.length);
  if (EXECUTABLE_FORMATS.has(id.format)) {
    const order = id.endianness === 'big' ? 'big endian' : 'little endian';
    return { type: `${id.format.toUpperCase()} ${id.architecture} ${id.bits ?? '?'}-bit ${order}`, executable: true };
  }
  const head = data.subarray(0, 16);
  const container = formats.find((f) =>
    f.magics.some((m) => (m.at ?? 0) === 0 && m.bytes.every((b, i) => head[i] === b)),
  );
  if (container) return { type: container.name, executable: false };
  const sample = data.subarray(0, 4096);
  const printable = sample.filter((b) => b === 9 || b === 10 || b === 13 || (b >= 0x20 && b < 0x7f)).length;
  return { type: sample.length > 0 && printable === sample.length ? 'text' : 'data', executable: false };
}

export function unpackImage(image: Uint8Array, out: ExtractionOutput, options: UnpackOptions): ExtractionReport {
  const chunks: ChunkRecord[] = [];
  const files: FileRecord[] = [];
  const unknown: UnknownRange[] = [];
  let stopped: string | null = null;

  const visit = (data: Uint8Array, carrier: string | null, location: string, depth: number): void => {
    const ctx: ReadContext = {
      remaining: () => out.remaining(),
      password: options.password,
      problem: (message) => out.problem(location || 'image', message),
    };
    const found = findChunks(data, options.formats, ctx, options.timeUp);
    if (options.timeUp()) stopped ??= 'the extraction ran out of time; what was found until then is kept';
    // A file that is an executable is that file, not a container of one (only an overlay is looked into).
    const own = found.filter(
      (c) => !(c.format.executable && c.offset === 0 && (carrier !== null || c.probed.size === data.length)),
    );
    if (carrier === null || own.length > 0) noteUnknown(data, found, carrier);
    for (const c of own) {
      const id = chunks.length;
      const dir = `${carrier === null ? '' : `${carrier}_extract/`}${hex(c.offset)}-${c.format.name}`;
      chunks.push({
        id,
        in: carrier,
        offset: c.offset,
        size: c.probed.size,
        format: c.format.name,
        description: c.probed.description ?? null,
        dir,
        entropy: entropyOf(data.subarray(c.offset, c.offset + c.probed.size)),
      });
      const here = `${location}${location ? ' > ' : ''}${hex(c.offset)} ${c.format.name}`;
      const chunkCtx: ReadContext = { ...ctx, problem: (message) => out.problem(here, message) };
      try {
        for (const entry of c.probed.entries(chunkCtx)) {
          if (stopped) return;
          const path = out.place(dir, entry);
          if (path === null || !entry.data) continue;
          const fileLocation = `${here}:${entry.path}`;
          files.push({
            path,
            name: entry.path,
            chunk: id,
            size: entry.data.length,
            sha256: sha256(entry.data),
            location: fileLocation,
            ...fileType(entry.data, options.formats),
          });
          if (depth + 1 > options.maxDepth)
            out.problem(path, `not looked into: deeper than ${options.maxDepth} levels`);
          else visit(entry.data, path, fileLocation, depth + 1);
        }
      } catch (err) {
        if (err instanceof DecodeError || err instanceof OutputLimitError)
          out.problem(here, `${c.format.name} stops being readable: ${err.message}`);
        else out.problem(here, internalError(c.format.name, err));
      }
      if (options.timeUp()) stopped ??= 'the extraction ran out of time; what was found until then is kept';
      if (stopped) return;
    }
  };

  const noteUnknown = (
    data: Uint8Array,
    found: { offset: number; probed: { size: number } }[],
    carrier: string | null,
  ) => {
    let at = 0;
    for (const range of [
      ...found.map((c) => ({ start: c.offset, end: c.offset + c.probed.size })),
      { start: data.length, end: data.length },
    ]) {
      if (range.start - at >= MIN_UNKNOWN) {
        const gap = data.subarray(at, range.start);
        unknown.push({
          in: carrier,
          offset: at,
          size: gap.length,
          entropy: entropyOf(gap),
        });
      }
      at = Math.max(at, range.end);
    }
  };

  visit(image, null, '', 1);
  return { chunks, files, links: out.links, unknown, problems: out.problems, bytesWritten: out.bytes, stopped };
}

/** Bounded: a long range's entropy is that of its first ENTROPY_SAMPLE bytes. */
const entropyOf = (range: Uint8Array) => shannonEntropy(range.subarray(0, ENTROPY_SAMPLE));
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
