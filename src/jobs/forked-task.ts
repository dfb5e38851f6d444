// Runs one task in a child process of its own with a heap cap and a deadline (the emulator, the firmware
// unpacker): a crash of native code, memory a hostile input finds a way to take, or a hang end that process
// only. The child reads one request, may send progress, and answers once (`answer`); then it exits.
import { fork, type Serializable } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { taskUrl } from './task-url.js';

/** What a task process sends its parent. */
export type TaskMessage<A, P = never> = { answer: A } | { progress: P };

export interface ForkOptions<P> {
  /** JavaScript heap of the process, MiB. */
  heapMb: number;
  /** Killed past this. */
  deadlineMs: number;
  onProgress?: (progress: P) => void;
}

export function runForked<A, P = never>(task: string, request: Serializable, o: ForkOptions<P>): Promise<A> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(taskUrl(task)), [], {
      execArgv: [`--max-old-space-size=${o.heapMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    let answer: { value: A } | null = null;
    // What a dying process prints starts with its error: the start is kept.
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(0, 8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.deadlineMs);
    child.on('message', (m: TaskMessage<A, P>) => {
      if ('answer' in m) answer = { value: m.answer };
      else o.onProgress?.(m.progress);
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (answer) resolve(answer.value);
      else
        reject(
          new Error(
            signal === 'SIGKILL'
              ? `the ${task} process did not end within ${o.deadlineMs / 1000} s`
              : `the ${task} process ended (${signal ?? `exit ${code}`}) without an answer: ${lastLine(stderr)}`,
          ),
        );
    });
    child.send(request);
  });
}

/** The error a dying Node process printed (its first `…Error: …` line), else its last words. */
const lastLine = (text: string) =>
  (/^\w*Error\b[^\n]*/m.exec(text)?.[0] ?? text.trim().split('\n').pop() ?? '').slice(0, 500) || 'no message';

/** In a task process: sends the answer and exits once it is delivered. */
export function answerParent<A>(answer: A): void {
  process.send!({ answer } satisfies TaskMessage<A>, () => process.exit(0));
}
