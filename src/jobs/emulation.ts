// Runs one sample in the emulator in a process of its own (emulation-process.ts): what the job handler
// awaits. The child's own bounds (instructions, calls, wall time, guest memory) end a run with a reason;
// the process's heap cap and deadline catch what they cannot.
import type { EmulationAnswer, EmulationRequest } from './emulation-process.js';
import { runForked } from './forked-task.js';

/** JavaScript heap of the emulating process: the guest's memory lives outside it, in Unicorn. */
const HEAP_MB = 512;
/** Past the run's own wall-time bound: loading, the report, and the process's start and end. */
const GRACE_MS = 30_000;

export const emulate = (request: EmulationRequest, deadlineMs = request.wallMs + GRACE_MS): Promise<EmulationAnswer> =>
  runForked<EmulationAnswer>('emulation-process', request, { heapMb: HEAP_MB, deadlineMs });
