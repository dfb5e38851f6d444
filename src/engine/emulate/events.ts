// What an emulated run did, as the dynamic-execution views report it: each event with the guest address
// whose call produced it (the static analysis names the function there), and why the run stopped.

export type EventKind =
  | 'file-open'
  | 'file-access'
  | 'file-read'
  | 'file-write'
  | 'file-delete'
  | 'file-rename'
  | 'directory-create'
  | 'process-create'
  | 'process-exec'
  | 'dns-query'
  | 'connect'
  | 'send'
  | 'http-request'
  /** A call of the executable into a watched library function (what no system call shows: getenv). */
  | 'library-call'
  | 'memory-refused'
  | 'unsupported';

export interface EmulationEvent {
  /** Order of the event in the run. */
  seq: number;
  /** The process that did it: the sample, or a child it created. */
  pid: number;
  kind: EventKind;
  /** The system call (or API) that did it. */
  api: string;
  /** Guest address of the instruction that called it. */
  site: number;
  /** What it did: a path, an address, a host name, bytes, flags. */
  detail: Record<string, string | number>;
}

export type StopReason = 'exit' | 'instructions' | 'api-calls' | 'time' | 'memory' | 'fault' | 'unsupported';

export interface RunStop {
  reason: StopReason;
  /** The exit status, the faulting address, the unsupported call, the limit reached. */
  detail: string;
}

/** Bounds of one run; every run ends with a recorded stop reason. */
export interface RunLimits {
  instructions: number;
  /** System and API calls. */
  apiCalls: number;
  wallMs: number;
  /** Bytes the guest may have mapped at once, and in one mapping. */
  memory: number;
  allocation: number;
  /** Bytes the guest may write to files, sockets and output in all. */
  output: number;
}

export const DEFAULT_LIMITS: RunLimits = {
  instructions: 500_000_000,
  apiCalls: 10_000,
  wallMs: 60_000,
  memory: 512 << 20,
  allocation: 256 << 20,
  output: 64 << 20,
};
