// Child of firmware.ts (npm run bench:firmware): unpacks one image as the service's firmware job does
// (jobs/firmware-process.ts: unpackImage with FIRMWARE_FORMATS into the task's directory through the engine's
// confined output and the job's directoryWriter, within the configured limits) and prints one JSON line,
// UnpackOneRecord. Its parent measures wall time and peak RSS from outside, as for binwalk.
//   node dist/tools/bench/firmware-unpack-one.js REQUEST-JSON
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExtractionOutput, FIRMWARE_FORMATS, unpackImage } from '../../src/engine/firmware/index.js';
import { directoryWriter } from '../../src/jobs/output-directory.js';
import type { UnpackRequest } from '../../src/jobs/firmware-process.js';

/** What the child prints for its parent. */
export interface UnpackOneRecord {
  /** Reading, unpacking and writing, without the process's start. */
  unpackMs: number;
  /** Top-level chunks: those found in the image itself. */
  chunks: { offset: number; format: string }[];
  files: number;
  problems: number;
  stopped: string | null;
}

const request = JSON.parse(process.argv[2] ?? '') as UnpackRequest;
const started = Date.now();
const t0 = performance.now();
const output = new ExtractionOutput(directoryWriter(resolve(request.outputDir)), {
  maxBytes: request.maxBytes,
  maxFiles: request.maxFiles,
});
const report = unpackImage(readFileSync(request.path), output, {
  formats: FIRMWARE_FORMATS,
  maxDepth: request.maxDepth,
  password: request.password,
  timeUp: () => Date.now() - started > request.wallMs,
});
const record: UnpackOneRecord = {
  unpackMs: performance.now() - t0,
  chunks: report.chunks.filter((c) => c.in === null).map((c) => ({ offset: c.offset, format: c.format })),
  files: report.files.length,
  problems: report.problems.length,
  stopped: report.stopped,
};
console.log(JSON.stringify(record));
