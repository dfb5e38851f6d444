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
  | 'process-terminate'
  /** A thread started in another process (CreateRemoteThread). */
  | 'thread-create'
  /** Memory allocated in, or written to, another process. */
  | 'memory-alloc'
  | 'memory-write'
  /** Code run from memory the sample wrote and made executable (an unpacked or injected payload). */
  | 'memory-execute'
  | 'registry-create'
  | 'registry-open'
  | 'registry-query'
  | 'registry-set'
  | 'registry-delete'
  | 'dns-query'
  | 'connect'
  | 'send'
  | 'http-request'
  /** A call of the executable into a watched library function (what no system call shows: getenv). */
  | 'library-call'
  | 'memory-refused'
  /** The same API called over and over from one place (a sandbox-evasion delay): counted once, not against the budget. */
  | 'api-hammering'
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

/** The pid of the sample's own process; its children count up from it. */
export const ROOT_PID = 1000;

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

/** Memory worth keeping: code a sample wrote into another process and started, or unpacked and ran. */
export interface MemoryDump {
  pid: number;
  /** The process's image name. */
  process: string;
  address: number;
  why: 'injected' | 'executed';
  bytes: Uint8Array;
}

/** One emulated run of a program, whatever its system. */
export interface EmulationRun {
  stop: RunStop;
  events: EmulationEvent[];
  /** What it wrote to standard output and error. */
  output: string;
  /** Every file of the virtual file system at the end, seeded ones included, by path. */
  files: Map<string, Uint8Array>;
  /** System and API calls made. */
  calls: number;
  /** Where it was loaded: static addresses + base are guest addresses. */
  base: number;
  dumps: MemoryDump[];
}

/** Why an executable cannot be emulated here (and what it would need). */
export class EmulationRefused extends Error {}
