// Unpacking into memory for the tests: the engine's confined output over a Map instead of a directory.
import assert from 'node:assert/strict';
import { ExtractionOutput, FIRMWARE_FORMATS, unpackImage, type ExtractionReport } from '../../../src/engine/index.js';
import type { FirmwareFormat, ReadContext } from '../../../src/engine/firmware/format.js';

export interface MemoryUnpack {
  report: ExtractionReport;
  /** Every file written, by its path in the output. */
  files: Map<string, Uint8Array>;
  dirs: Set<string>;
}

export function unpackInMemory(
  image: Uint8Array,
  options: {
    password?: string;
    maxBytes?: number;
    maxFiles?: number;
    maxDepth?: number;
    formats?: readonly FirmwareFormat[];
  } = {},
): MemoryUnpack {
  const files = new Map<string, Uint8Array>();
  const dirs = new Set<string>();
  const output = new ExtractionOutput(
    {
      mkdir: (path) => void dirs.add(path),
      writeFile: (path, data) => {
        if (files.has(path)) throw new Error(`written twice: ${path}`);
        files.set(path, Uint8Array.from(data));
      },
    },
    { maxBytes: options.maxBytes ?? 1 << 30, maxFiles: options.maxFiles ?? 100_000 },
  );
  const report = unpackImage(image, output, {
    formats: options.formats ?? FIRMWARE_FORMATS,
    maxDepth: options.maxDepth ?? 10,
    password: options.password ?? null,
    timeUp: () => false,
  });
  return { report, files, dirs };
}

/** A reading context for probing one format directly. */
export function readContext(password: string | null = null, remaining = 1 << 30): ReadContext & { problems: string[] } {
  const problems: string[] = [];
  return { remaining: () => remaining, password, problem: (m) => void problems.push(m), problems };
}

/** A probe's entries, its files as path → bytes (`remaining`: the bytes its decoders may write). */
export function entriesOf(
  format: FirmwareFormat,
  data: Uint8Array,
  offset = 0,
  password: string | null = null,
  remaining?: number,
) {
  const ctx = readContext(password, remaining);
  const probed = format.probe(data, offset, ctx);
  if (!probed) return null;
  const entries = [...probed.entries(ctx)];
  return {
    size: probed.size,
    description: probed.description,
    entries,
    problems: ctx.problems,
    files: new Map(entries.filter((e) => e.data).map((e) => [e.path, Buffer.from(e.data!)])),
  };
}

/** entriesOf a chunk that must be there. */
export function entriesFound(format: FirmwareFormat, data: Uint8Array, offset = 0) {
  const got = entriesOf(format, data, offset);
  assert.ok(got, `a ${format.name} chunk at ${offset}`);
  return got;
}

/** The chunk at data[offset] of a format whose one entry is a file named `name` (an image): that file's bytes. */
export function onlyFile(format: FirmwareFormat, name: string, data: Uint8Array, offset = 0) {
  const got = entriesFound(format, data, offset);
  assert.deepEqual(
    got.entries.map((e) => [e.path, e.kind]),
    [[name, 'file']],
  );
  return { ...got, data: got.files.get(name)! };
}
