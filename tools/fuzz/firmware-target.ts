// The firmware target: the whole unpacker — carving, every reader of the registry, recursion and the confined
// output — on one input, in memory. Its faults are the exceptions readers let out that are neither DecodeError
// nor OutputLimitError (the report's "internal error" problems, each with where it was thrown) and reports
// that break the unpacker's promises: a path that climbs out or is absolute, a budget passed, a chunk or an
// unknown range outside the bytes it was found in, a file written twice.
import { DecodeError, OutputLimitError } from '../../src/engine/firmware/compression/errors.js';
import type { FirmwareFormat, Entry, Probed, ReadContext } from '../../src/engine/firmware/format.js';
import { internalError } from '../../src/engine/firmware/scan.js';
import { ExtractionOutput, FIRMWARE_FORMATS, unpackImage, type ExtractionReport } from '../../src/engine/index.js';

/**
 * The task's bounds, scaled to inputs of ≤ 200 KiB: 64 MiB written (a ratio of 320, where the service allows
 * 20× the image but at least 1 GiB), 10 000 files, the service's depth of 10, and 3 s where an unmutated seed
 * takes ~10 ms — time up on so small an input is a reader gone superlinear.
 */
export const FIRMWARE_LIMITS = { maxBytes: 64 << 20, maxFiles: 10_000, maxDepth: 10, seconds: 3 } as const;

/** The variants: no password, and the one the encrypted seeds use (firmware-tool-images.ts). */
export const FIRMWARE_PASSWORDS = [null, 'binlens'] as const;

/**
 * The sandbox's limit for one input: the 3 s after which the unpacker stops between entries, plus room for
 * one entry in flight (64 MiB through the slowest decoder, LZMA at ~30 MB/s: ~2 s) on a loaded machine.
 */
export const FIRMWARE_TIMEOUT_MS = 15_000;

interface Thrown {
  format: string;
  error: unknown;
}

const unexpected = (err: unknown) => !(err instanceof DecodeError || err instanceof OutputLimitError);

/** The registry with each probe and entry walk watched: an unexpected exception is noted, then let go on. */
function watched(formats: readonly FirmwareFormat[], thrown: Thrown[]): FirmwareFormat[] {
  const note = (format: string, error: unknown) => void (unexpected(error) && thrown.push({ format, error }));
  return formats.map((f) => ({
    ...f,
    probe(data: Uint8Array, offset: number, ctx: ReadContext): Probed | null {
      let probed: Probed | null;
      try {
        probed = f.probe(data, offset, ctx);
      } catch (err) {
        note(f.name, err);
        throw err;
      }
      if (!probed) return probed;
      const inner = probed;
      return {
        size: inner.size,
        description: inner.description,
        *entries(ctx: ReadContext): Generator<Entry> {
          try {
            yield* inner.entries(ctx);
          } catch (err) {
            note(f.name, err);
            throw err;
          }
        },
      };
    },
  }));
}

/** The innermost frame of JavaScript code (a built-in's own frame says nothing), relative to dist/, no column. */
function throwSite(error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const frames = stack.split('\n').filter((l) => l.trimStart().startsWith('at '));
  const frame = frames.find((l) => !/\(<anonymous>\)$|\(node:/.test(l)) ?? frames[0] ?? 'no stack';
  return frame
    .trim()
    .replace(/^at /, '')
    .replace(/file:\/\/\S*?\/dist\//, '')
    .replace(/:\d+\)?$/, ')')
    .replace(/^([^(]*)\)$/, '$1');
}

/** Whether `path` is relative and stays inside the output: no '', '.' or '..' component, no NUL or '\'. */
const confined = (path: string) =>
  path.length > 0 &&
  !path.includes('\0') &&
  !path.includes('\\') &&
  path.split('/').every((p) => p !== '' && p !== '.' && p !== '..');

/**
 * Faults by kind, with the first detail of each: the same kind met again in one input is not news. The kind
 * alone names the finding (sandbox.ts signs it by the first fault), so it holds no path or entry name.
 */
class Faults {
  readonly byKind = new Map<string, string>();

  /** Unless `ok`, a fault of `kind` (the format's name goes in it: one reader's bug is not another's). */
  need(ok: boolean, kind: string, detail = ''): void {
    if (!ok && !this.byKind.has(kind)) this.byKind.set(kind, detail);
  }

  add(kind: string, detail: string): void {
    this.need(false, kind, detail);
  }
}

/** An in-memory writer that keeps no bytes, only what it was asked to make, and checks the sink's promises. */
class CheckingWriter {
  readonly made = new Map<string, 'file' | 'dir'>();
  readonly sizes = new Map<string, number>();
  bytes = 0;

  constructor(private readonly faults: Faults) {}

  mkdir(path: string): void {
    this.check(path, 'dir');
  }

  writeFile(path: string, data: Uint8Array): void {
    this.check(path, 'file');
    this.sizes.set(path, data.length);
    this.bytes += data.length;
  }

  private check(path: string, kind: 'file' | 'dir'): void {
    const name = JSON.stringify(path.slice(0, 200));
    this.faults.need(confined(path), 'output asked to make a path that is not confined', `${kind} ${name}`);
    const parent = path.slice(0, Math.max(0, path.lastIndexOf('/')));
    this.faults.need(!parent || this.made.get(parent) === 'dir', 'output made a path before its directory', name);
    const before = this.made.get(path);
    this.faults.need(before !== 'file' && !(before === 'dir' && kind === 'file'), 'output made a path twice', name);
    this.made.set(path, kind);
  }
}

/** Broken promises of the report; `writer` saw every write. */
function reportFaults(report: ExtractionReport, image: Uint8Array, writer: CheckingWriter, faults: Faults): void {
  const need = faults.need.bind(faults);
  const { maxBytes, maxFiles, maxDepth } = FIRMWARE_LIMITS;
  const written = `${report.bytesWritten} bytes and ${report.files.length} files`;
  need(report.bytesWritten <= maxBytes && report.files.length <= maxFiles, 'budget passed', written);
  need(
    report.bytesWritten === writer.bytes && report.files.length === writer.sizes.size,
    'report disagrees with the writes',
    `${written} reported, ${writer.bytes} bytes and ${writer.sizes.size} files written`,
  );
  const fileSize = new Map(report.files.map((f) => [f.path, f.size]));
  const chunkOf = new Map(report.files.map((f) => [f.path, f.chunk]));
  const carrierLength = (carrier: string | null) => (carrier === null ? image.length : fileSize.get(carrier));
  for (const f of report.files) {
    need(confined(f.path), 'file path not confined', f.path);
    need(writer.sizes.get(f.path) === f.size, 'file size differs from the bytes written', f.path);
    const chunk = report.chunks[f.chunk];
    need(chunk !== undefined && f.path.startsWith(`${chunk.dir}/`), 'file not under its chunk', f.path);
  }
  for (const l of report.links) need(confined(l.path), 'link path not confined', l.path);
  const ends = new Map<string | null, number>();
  for (const c of report.chunks) {
    const length = carrierLength(c.in);
    const extent = `${c.size} bytes at ${c.offset} of ${length ?? '?'} (in ${c.in ?? 'the image'})`;
    need(confined(c.dir), 'chunk directory not confined', c.dir);
    need(length !== undefined, 'chunk found in a file that was not written', c.in ?? '');
    need(
      Number.isSafeInteger(c.offset) && Number.isSafeInteger(c.size) && c.offset >= 0 && c.size > 0,
      `${c.format} chunk extent not a positive safe integer range`,
      extent,
    );
    need(
      length === undefined || c.offset + c.size <= length,
      `${c.format} chunk extent past the end of its data`,
      extent,
    );
    need(c.offset >= (ends.get(c.in) ?? 0), `${c.format} chunk overlaps the one before`, extent);
    ends.set(c.in, c.offset + c.size);
    need(depth(report, c.id, chunkOf) <= maxDepth, `chunk deeper than ${maxDepth} levels`, c.dir);
  }
  for (const u of report.unknown) {
    const length = carrierLength(u.in);
    const range = `${u.size} bytes at ${u.offset} of ${length ?? '?'} (in ${u.in ?? 'the image'})`;
    need(
      length !== undefined && u.offset >= 0 && u.size > 0 && u.offset + u.size <= length,
      'unknown range past its data',
      range,
    );
    need(u.entropy >= 0 && u.entropy <= 8, 'entropy outside [0, 8]', String(u.entropy));
  }
}

/** Chunks from the image down to chunk `id`, itself included; `chunkOf` gives each file's chunk. */
function depth(report: ExtractionReport, id: number, chunkOf: Map<string, number>): number {
  let levels = 0;
  for (let c = report.chunks[id]; c && levels <= report.chunks.length; levels++)
    c = c.in === null ? undefined : report.chunks[chunkOf.get(c.in) ?? -1];
  return levels;
}

/** Runs the unpacker on `bytes` with password variant `variant`; returns its faults. */
export function firmwareFaults(
  bytes: Uint8Array,
  variant: number,
  formats: readonly FirmwareFormat[] = FIRMWARE_FORMATS,
): string[] {
  const thrown: Thrown[] = [];
  const checks = new Faults();
  const writer = new CheckingWriter(checks);
  const output = new ExtractionOutput(writer, FIRMWARE_LIMITS);
  const started = performance.now();
  const report = unpackImage(bytes, output, {
    formats: watched(formats, thrown),
    maxDepth: FIRMWARE_LIMITS.maxDepth,
    password: FIRMWARE_PASSWORDS[variant % FIRMWARE_PASSWORDS.length]!,
    timeUp: () => performance.now() - started > FIRMWARE_LIMITS.seconds * 1000,
  });
  // Internal errors first: they name the finding when there are others.
  const faults = new Faults();
  for (const p of report.problems) {
    if (!p.message.startsWith('internal error')) continue;
    const i = thrown.findIndex((t) => internalError(t.format, t.error) === p.message);
    const [error] = i >= 0 ? thrown.splice(i, 1) : [];
    const [head, ...rest] = p.message.split(': ');
    const site = error ? throwSite(error.error) : 'a place outside it';
    const stack = error?.error instanceof Error ? (error.error.stack ?? '') : '';
    faults.add(`${head} at ${site}: ${rest.join(': ')}`, `in ${p.where}\n${stack}`);
  }
  for (const t of thrown)
    faults.add(`an exception of the ${t.format} reader at ${throwSite(t.error)} was not recorded`, '');
  if (report.stopped)
    faults.add(`the extraction ran out of time (${FIRMWARE_LIMITS.seconds} s)`, `${bytes.length} bytes`);
  for (const [kind, detail] of checks.byKind) faults.need(false, kind, detail);
  reportFaults(report, bytes, writer, faults);
  const kinds = [...faults.byKind.keys()];
  const details = [...faults.byKind].filter(([, d]) => d).map(([kind, detail]) => `${kind}:\n  ${detail}`);
  return kinds.length > 0 ? [...kinds, '', ...details] : [];
}
