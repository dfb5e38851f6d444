// Runs one sample in the emulator in a child process with a heap cap and a deadline (emulation-process.ts):
// what the job handler awaits. The child's own bounds (instructions, calls, wall time, guest memory) end a
// run with a reason; these catch what they cannot.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EmulationAnswer, EmulationRequest } from './emulation-process.js';
import { taskUrl } from './task-url.js';

/** JavaScript heap of the emulating process: the guest's memory lives outside it, in Unicorn. */
const HEAP_MB = 512;
/** Past the run's own wall-time bound: loading, the report, and the process's start and end. */
const GRACE_MS = 30_000;

export function emulate(request: EmulationRequest, deadlineMs = request.wallMs + GRACE_MS): Promise<EmulationAnswer> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(taskUrl('emulation-process')), [], {
      execArgv: [`--max-old-space-size=${HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    let answer: EmulationAnswer | null = null;
    // What a dying process prints starts with its error: the start is kept.
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(0, 8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.once('message', (m: EmulationAnswer) => (answer = m));
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (answer) resolve(answer);
      else
        reject(
          new Error(
            signal === 'SIGKILL'
              ? `the emulation did not end within ${deadlineMs / 1000} s`
              : `the emulating process ended (${signal ?? `exit ${code}`}) without a report: ${lastLine(stderr)}`,
          ),
        );
    });
    child.send(request);
  });
}

/** The error a dying Node process printed (its first `…Error: …` line), else its last words. */
const lastLine = (text: string) =>
  (/^\w*Error\b[^\n]*/m.exec(text)?.[0] ?? text.trim().split('\n').pop() ?? '').slice(0, 500) || 'no message';
