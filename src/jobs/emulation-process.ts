// The emulator in a process of its own (jobs/emulation.ts forks it): a sample that runs away — memory the
// emulator cannot bound, a crash of the native library — takes down this process, never the service. It reads
// one request from its parent, answers once and exits.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  dumpContents,
  dynamicReport,
  EmulationRefused,
  EmulatorUnavailable,
  identify,
  runProgram,
} from '../engine/index.js';
import { answerParent } from './forked-task.js';
import { sysrootFor } from './sysroot.js';

export interface EmulationRequest {
  path: string;
  argv: string[];
  /** The run's wall-time bound. */
  wallMs: number;
  /** Where the bytes of each of the report's dumps are written, as files named by their position. */
  dumpDir: string;
}

export type EmulationAnswer = { kind: 'report'; report: string } | { kind: 'refused'; reason: string };

process.once('message', (request: EmulationRequest) => {
  void (async () => {
    let answer: EmulationAnswer;
    try {
      const bytes = await readFile(request.path);
      const { architecture, endianness } = identify(bytes.subarray(0, 4096), bytes.length);
      const sysroot = sysrootFor(architecture, endianness);
      const run = runProgram(bytes, {
        argv: request.argv,
        limits: { wallMs: request.wallMs },
        ...(sysroot ? { sysroot } : {}),
      });
      // The dumps' bytes go to files beside the report: it stays small enough to read on every view.
      await Promise.all(dumpContents(run).map((bytes, i) => writeFile(join(request.dumpDir, String(i)), bytes)));
      answer = { kind: 'report', report: JSON.stringify(dynamicReport(run, request.argv)) };
    } catch (err) {
      if (!(err instanceof EmulationRefused || err instanceof EmulatorUnavailable)) throw err;
      answer = { kind: 'refused', reason: err.message };
    }
    answerParent(answer);
  })();
});
