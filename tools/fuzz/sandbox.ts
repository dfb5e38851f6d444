// Runs fuzz inputs in a worker thread with a heap limit and a per-input wall-clock limit, so a hang or an
// unbounded allocation is a finding instead of the end of the run. One worker serves many inputs (its
// start-up, with the WebAssembly decoders, costs ~100 ms); it is replaced only after it was killed.
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './worker.js';

export type Outcome =
  | { kind: 'ok' | 'refused' }
  /** `signature` names the bug (same bug, same signature); `detail` is the full report. */
  | { kind: 'finding'; signature: string; detail: string };

export interface SandboxOptions {
  /** V8 old-generation limit of the worker: past it the worker dies, which counts as a finding. */
  heapMb: number;
  /** The worker script; worker.js unless a test stands in one that misbehaves on purpose. */
  script?: URL;
}

/** The first stack frame, without column: where an error was thrown, stable across inputs. */
function throwSite(stack: string): string {
  const frame = stack.split('\n').find((line) => line.trimStart().startsWith('at '));
  return (frame ?? '')
    .trim()
    .replace(/:\d+\)?$/, '')
    .replace(/^at /, '');
}

/** Numbers in messages vary with the input; the rest identifies the bug. */
const shape = (message: string): string => message.replace(/0x[0-9a-f]+|\d+/gi, 'N').slice(0, 200);

export function classify(reply: WorkerReply): Outcome {
  switch (reply.kind) {
    case 'ok':
    case 'refused':
      return { kind: reply.kind };
    case 'crash':
      return {
        kind: 'finding',
        signature: `${reply.name}: ${shape(reply.message)} @ ${throwSite(reply.stack)}`,
        detail: reply.stack || `${reply.name}: ${reply.message}`,
      };
    case 'faults':
      // The first fault names the finding: combinations of the same few faults are not new bugs.
      return { kind: 'finding', signature: `fault: ${shape(reply.faults[0]!)}`, detail: reply.faults.join('\n') };
  }
}

export class Sandbox {
  private worker: Worker | null = null;

  constructor(private readonly options: SandboxOptions) {}

  private start(): Worker {
    const worker = new Worker(this.options.script ?? new URL('./worker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
    });
    // A worker killed for its heap or by terminate() is replaced on the next run; its errors are reported
    // through the run that was waiting on it.
    worker.on('error', () => {});
    worker.unref();
    return worker;
  }

  run(request: WorkerRequest, limitMs: number): Promise<Outcome> {
    const worker = (this.worker ??= this.start());
    return new Promise((resolve) => {
      const finish = (outcome: Outcome, kill: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) {
          this.worker = null;
          void worker.terminate();
        }
        resolve(outcome);
      };
      const onMessage = (reply: WorkerReply): void => finish(classify(reply), false);
      const onError = (err: Error): void => {
        const code = (err as { code?: string }).code ?? err.name;
        finish({ kind: 'finding', signature: `worker died: ${code}`, detail: err.stack ?? String(err) }, true);
      };
      const onExit = (code: number): void =>
        finish({ kind: 'finding', signature: `worker exited: ${code}`, detail: `exit code ${code}` }, true);
      const timer = setTimeout(
        () => finish({ kind: 'finding', signature: 'timeout', detail: `no answer within ${limitMs} ms` }, true),
        limitMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // The mutant is not used again here: hand its buffer over instead of copying it.
      worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
