// The firmware unpacker in a process of its own (jobs/firmware.ts forks it): reads the image, unpacks it
// into the task's output directory through the engine's confined output, reports progress now and then, and
// answers with the extraction report.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExtractionOutput, FIRMWARE_FORMATS, unpackImage, type ExtractionReport } from '../engine/firmware/index.js';
import { answerParent } from './forked-task.js';
import { directoryWriter } from './output-directory.js';

export interface UnpackRequest {
  path: string;
  outputDir: string;
  password: string | null;
  maxBytes: number;
  maxFiles: number;
  maxDepth: number;
  wallMs: number;
}

export interface UnpackProgress {
  files: number;
  bytes: number;
}

const PROGRESS_EVERY_MS = 500;

process.once('message', (request: UnpackRequest) => {
  const started = Date.now();
  const output = new ExtractionOutput(directoryWriter(resolve(request.outputDir)), {
    maxBytes: request.maxBytes,
    maxFiles: request.maxFiles,
  });
  let reported = started;
  const timeUp = () => {
    const now = Date.now();
    if (now - reported >= PROGRESS_EVERY_MS) {
      reported = now;
      process.send!({ progress: { files: output.files, bytes: output.bytes } satisfies UnpackProgress });
    }
    return now - started > request.wallMs;
  };
  const report: ExtractionReport = unpackImage(readFileSync(request.path), output, {
    formats: FIRMWARE_FORMATS,
    maxDepth: request.maxDepth,
    password: request.password,
    timeUp,
  });
  answerParent(report);
});
