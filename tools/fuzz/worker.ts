// Sandbox worker: runs inputs for the supervisor (sandbox.ts) one at a time and reports how each ended.
// The classification is the job worker's (src/jobs/failures.ts): a permanent error is the engine refusing
// malformed input, as it should; anything else escaping, or a fault in what it returned, is a finding.
import { parentPort } from 'node:worker_threads';
import { isPermanentFailure } from '../../src/jobs/failures.js';
import { runTarget, type TargetName } from './targets.js';

export interface WorkerRequest {
  target: TargetName;
  bytes: Uint8Array;
  variant: number;
}

export type WorkerReply =
  | { kind: 'ok' }
  | { kind: 'refused' }
  | { kind: 'crash'; name: string; message: string; stack: string }
  | { kind: 'faults'; faults: string[] };

async function handle({ target, bytes, variant }: WorkerRequest): Promise<WorkerReply> {
  try {
    const faults = await runTarget(target, bytes, variant);
    return faults.length > 0 ? { kind: 'faults', faults } : { kind: 'ok' };
  } catch (err) {
    if (isPermanentFailure(err)) return { kind: 'refused' };
    const e = err instanceof Error ? err : new Error(String(err));
    return { kind: 'crash', name: e.name, message: e.message, stack: e.stack ?? '' };
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  void handle(request).then((reply) => parentPort?.postMessage(reply));
});
