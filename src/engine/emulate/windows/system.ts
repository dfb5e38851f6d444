// Windows as an emulated program sees it through the API: handles over the virtual disk, registry, fake
// network and the processes it creates; a heap; an environment and a clock; and a record of everything done,
// each event with the call in the executable that did it.
import { type EmulationEvent, type EventKind, type MemoryDump, type RunLimits, type RunStop } from '../events.js';
import { MappingRefused, type AddressSpace } from '../memory.js';
import { FakeNetwork } from '../network.js';
import { UC, type Cpu } from '../unicorn.js';
import type { VirtualFile } from '../virtual-file.js';
import type { WinAbi } from './abi.js';
import { COMPUTER, PROFILE, USER, WinFs } from './files.js';
import { Heap } from './heap.js';
import { Registry } from './registry.js';

/** Longest string an API reads from the guest. */
const MAX_STRING = 32_768;
/** Virtual clock: 2024-01-01T00:00:00Z, advancing a millisecond per API call (and by what Sleep asks). */
const EPOCH_MS = 1_704_067_200_000;

const STRUCT_FIELDS = { u8: 1, u16: 2, u32: 4, u64: 8 } as const;
export type StructField = keyof typeof STRUCT_FIELDS | 'ptr';

export type Handle =
  /** Standard input, output or error (0, 1, 2). */
  | { k: 'console'; n: number }
  | { k: 'file'; path: string; file: VirtualFile; pos: number; writable: boolean }
  | { k: 'mapping'; file: VirtualFile | null; size: number }
  | { k: 'process'; pid: number }
  | { k: 'thread'; pid: number; start: bigint }
  | { k: 'key'; path: string }
  | { k: 'socket'; peer: { address: string; port: number } | null; inbox: Uint8Array[] }
  /** A WinINet session, connection or request: where it goes and the response body the program reads. */
  | { k: 'internet'; host: string | null; port: number; method: string; path: string; body: Uint8Array; pos: number }
  /** Events, mutexes, heaps, find handles: named or not, nothing to wait for. */
  | { k: 'object'; what: string; name: string | null };

export interface Process {
  pid: number;
  /** The image as the creator named it. */
  name: string;
  args: string;
  suspended: boolean;
  /** Memory another process allocated or wrote in it: base → bytes. */
  regions: Map<bigint, Uint8Array>;
  /** Regions a thread was started in, as they were then: base → bytes. */
  started: Map<bigint, Uint8Array>;
  nextRegion: bigint;
}

/** A guest function an API runs before it returns (an initializer table, a new thread's start). */
export interface GuestCall {
  fn: bigint;
  args: bigint[];
  /** Runs on a stack of its own (a thread) rather than below the caller's frame. */
  thread: boolean;
}

/** A program a process created from an executable on the disk: it runs when its creator has ended. */
export interface QueuedProcess {
  pid: number;
  path: string;
  bytes: Uint8Array;
  argv: string[];
}

/**
 * What every process of a run shares: the disk, the registry, the network, the process table, the record
 * of events, the console and the dumps; and the programs waiting to run.
 */
export class WinWorld {
  readonly events: EmulationEvent[] = [];
  readonly net = new FakeNetwork();
  readonly registry = new Registry();
  readonly fs: WinFs;
  readonly processes = new Map<number, Process>();
  readonly output: Uint8Array[] = [];
  readonly dumps: MemoryDump[] = [];
  readonly queued: QueuedProcess[] = [];
  /** API calls made by every process. */
  calls = 0;

  constructor(files?: ReadonlyMap<string, Uint8Array>) {
    this.fs = new WinFs(files);
  }
}

/** One process's view of Windows: its memory, handles, heap and threads, over the world it shares. */
export class WinSystem {
  readonly events: EmulationEvent[];
  readonly net: FakeNetwork;
  readonly registry: Registry;
  readonly fs: WinFs;
  readonly heap: Heap;
  readonly handles = new Map<bigint, Handle>();
  readonly processes: Map<number, Process>;
  readonly output: Uint8Array[];
  /** Memory the sample unpacked and ran. */
  readonly dumps: MemoryDump[];
  readonly env = new Map<string, string>([
    ['ALLUSERSPROFILE', 'C:\\ProgramData'],
    ['APPDATA', `${PROFILE}\\AppData\\Roaming`],
    ['COMPUTERNAME', COMPUTER],
    ['ComSpec', 'C:\\Windows\\system32\\cmd.exe'],
    ['HOMEDRIVE', 'C:'],
    ['HOMEPATH', `\\Users\\${USER}`],
    ['LOCALAPPDATA', `${PROFILE}\\AppData\\Local`],
    ['OS', 'Windows_NT'],
    ['Path', 'C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem'],
    ['PROCESSOR_ARCHITECTURE', 'AMD64'],
    ['ProgramFiles', 'C:\\Program Files'],
    ['SystemRoot', 'C:\\Windows'],
    ['TEMP', `${PROFILE}\\AppData\\Local\\Temp`],
    ['TMP', `${PROFILE}\\AppData\\Local\\Temp`],
    ['USERDOMAIN', COMPUTER],
    ['USERNAME', USER],
    ['USERPROFILE', PROFILE],
    ['windir', 'C:\\Windows'],
  ]);
  readonly tid: number;
  lastError = 0;
  /** API calls counted against the budget (not those of a hammering loop), and all of them (the clock). */
  calls = 0;
  ticks = 0;
  /** Bytes written to files, sockets and the console. */
  written = 0;
  stopped: RunStop | null = null;
  /** Where the running API was called from in the executable. */
  site = 0;
  /** Stack arguments the running API pops when it returns (32-bit stdcall). */
  returnPops = 0;
  /** Guest functions the running API has asked to run before it returns. */
  pending: GuestCall[] = [];
  /** The process ends once the pending calls (its atexit functions) have run: exit() was called. */
  exiting: RunStop | null = null;
  /** Functions registered with atexit/_onexit, run at exit in reverse. */
  readonly atExit: bigint[] = [];
  /** Thread-local storage slots (TlsAlloc) and their values. */
  readonly tlsSlots = new Map<number, bigint>();
  /** Base of the sample's image, and the base each system DLL is given when a program asks for it. */
  imageBase = 0n;
  imageEnd = 0n;
  /** The process environment block's address. */
  peb = 0n;
  /** Views of mapped files: a file's bytes at `at`, kept the same both ways as on Windows. */
  readonly views: { at: bigint; file: VirtualFile; offset: number; size: number }[] = [];
  /** GetProcessHeap's handle. */
  readonly processHeap: bigint;
  /** VirtualAlloc's regions: base → bytes. */
  private readonly regions = new Map<bigint, number>();
  /** Told of memory the sample makes executable (allocates or protects so): where unpacked code would run. */
  onExecutable: (at: bigint, size: number) => void = () => {};
  /** The running thread ended (ExitThread): its exit code. */
  threadEnded: number | null = null;
  readonly modules = new Map<string, bigint>();
  /** The address of `dll`!`name` for GetProcAddress (a thunk), null for a DLL it does not know: the loader's. */
  resolveApi: (dll: string, name: string) => bigint | null = () => null;
  private nextHandle = 0x100n;
  private sleptMs = 0;

  constructor(
    readonly cpu: Cpu,
    readonly memory: AddressSpace,
    readonly limits: RunLimits,
    readonly abi: WinAbi,
    readonly argv: string[],
    readonly world: WinWorld,
    /** The process's id (the sample's is ROOT_PID), and where its executable is on the disk. */
    readonly pid: number,
    readonly imagePath: string,
  ) {
    ({ events: this.events, net: this.net, registry: this.registry, fs: this.fs } = world);
    ({ processes: this.processes, output: this.output, dumps: this.dumps } = world);
    this.tid = pid + 4;
    this.heap = new Heap(cpu, memory);
    this.processHeap = this.open({ k: 'object', what: 'heap', name: null });
    if (!this.processes.has(pid))
      this.processes.set(pid, {
        pid,
        name: argv[0] ?? 'sample.exe',
        args: argv.join(' '),
        suspended: false,
        regions: new Map(),
        started: new Map(),
        nextRegion: 0n,
      });
  }

  record(kind: EventKind, api: string, detail: Record<string, string | number>): EmulationEvent {
    const event = { seq: this.events.length, pid: this.pid, kind, api, site: this.site, detail };
    this.events.push(event);
    return event;
  }

  /** A watched API call that no other event shows (getenv, gethostname): what the behaviours read. */
  libraryCall(api: string, detail: Record<string, string> = {}): void {
    this.record('library-call', api, { name: api, ...detail });
  }

  stop(s: RunStop): void {
    this.stopped ??= s;
    this.cpu.stop();
  }

  /** Ends the running thread (the run loop goes back to whoever started it). */
  endThread(code: number): void {
    this.threadEnded = code;
    this.cpu.stop();
  }

  open(h: Handle): bigint {
    this.nextHandle += 4n;
    this.handles.set(this.nextHandle, h);
    return this.nextHandle;
  }

  now(): number {
    return EPOCH_MS + this.elapsed();
  }

  /** Milliseconds since the run began, on the virtual clock. */
  elapsed(): number {
    return this.ticks + this.sleptMs;
  }

  sleep(ms: number): void {
    this.sleptMs += Math.max(0, Math.min(ms, 86_400_000));
  }

  /** The NUL-terminated string at `address` (UTF-16 when `wide`), or null when unmapped or null. */
  string(address: bigint, wide = false): string | null {
    if (address === 0n) return null;
    const unit = wide ? 2 : 1;
    const parts: Uint8Array[] = [];
    for (let at = address, n = 0; n < MAX_STRING * unit;) {
      const chunk = this.cpu.read(at, 64) ?? this.cpu.read(at, unit);
      if (!chunk) return null;
      let end = -1;
      for (let i = 0; i + unit <= chunk.length; i += unit)
        if (chunk[i] === 0 && (!wide || chunk[i + 1] === 0)) {
          end = i;
          break;
        }
      parts.push(end < 0 ? chunk : chunk.subarray(0, end));
      if (end >= 0) break;
      at += BigInt(chunk.length);
      n += chunk.length;
    }
    const bytes = Buffer.concat(parts);
    return wide ? bytes.toString('utf16le') : bytes.toString('latin1');
  }

  /** `text` NUL-terminated at `address`, at most `room` units (0: no bound): the units written without the NUL. */
  writeString(address: bigint, text: string, wide = false, room = 0): number {
    const units = room > 0 ? text.slice(0, room - 1) : text;
    const bytes = wide ? Buffer.from(`${units}\0`, 'utf16le') : Buffer.from(`${units}\0`, 'latin1');
    this.cpu.write(address, bytes);
    return units.length;
  }

  /**
   * A heap block of `size` bytes for API `api` (zeroed), or 0 when over the single-allocation or memory bound
   * (recorded: a sample probing for a sandbox with a huge allocation is worth seeing).
   */
  alloc(api: string, size: number): bigint {
    if (size > this.limits.allocation) {
      this.record('memory-refused', api, { bytes: size });
      return 0n;
    }
    try {
      return this.heap.alloc(size);
    } catch (err) {
      if (!(err instanceof MappingRefused)) throw err;
      this.record('memory-refused', api, { bytes: size, why: err.message });
      return 0n;
    }
  }

  /** VirtualAlloc: pages of their own with every right (code may run there), or 0 when refused (recorded). */
  virtualAlloc(api: string, size: number): bigint {
    if (size > this.limits.allocation) {
      this.record('memory-refused', api, { bytes: size });
      return 0n;
    }
    try {
      const at = this.memory.find(size);
      this.memory.map(at, size, UC.prot.all);
      this.regions.set(at, size);
      return at;
    } catch (err) {
      if (!(err instanceof MappingRefused)) throw err;
      this.record('memory-refused', api, { bytes: size, why: err.message });
      return 0n;
    }
  }

  /** The VirtualAlloc region starting at `at` and its size, or null. */
  region(at: bigint): { at: bigint; size: number } | null {
    for (const [base, size] of this.regions) if (at >= base && at < base + BigInt(size)) return { at: base, size };
    return null;
  }

  virtualFree(at: bigint): boolean {
    const size = this.regions.get(at);
    if (size === undefined) return false;
    this.memory.unmap(at, size);
    this.regions.delete(at);
    return true;
  }

  /** The block at `at` resized to `size` (its bytes kept), as realloc: the new block, or 0 when refused. */
  realloc(api: string, at: bigint, size: number): bigint {
    const old = this.heap.size(at);
    const moved = this.alloc(api, size);
    if (moved && old !== null) {
      this.cpu.write(moved, this.cpu.read(at, Math.min(old, size)) ?? new Uint8Array());
      this.heap.release(at);
    }
    return moved;
  }

  /** A new NUL-terminated copy of `text` on the heap. */
  heapString(text: string, wide = false): bigint {
    const at = this.alloc('string', (text.length + 1) * (wide ? 2 : 1));
    if (at) this.writeString(at, text, wide);
    return at;
  }

  /**
   * A C structure of `fields` as this CPU lays it out: each field aligned to its size (pointers and SIZE_T
   * 4 or 8 bytes), the whole padded to its widest field.
   */
  struct(fields: [StructField, bigint | number][]): Uint8Array {
    const width = (f: StructField) => (f === 'ptr' ? this.abi.pointer : STRUCT_FIELDS[f]);
    const out: number[] = [];
    for (const [f, value] of fields) {
      const w = width(f);
      while (out.length % w) out.push(0);
      let v = BigInt.asUintN(w * 8, BigInt(value));
      for (let i = 0; i < w; i++, v >>= 8n) out.push(Number(v & 0xffn));
    }
    const align = Math.max(...fields.map(([f]) => width(f)));
    while (out.length % align) out.push(0);
    return Uint8Array.from(out);
  }

  /** A pointer-sized value at `address`. */
  pointerAt(address: bigint): bigint {
    const b = this.cpu.read(address, this.abi.pointer);
    if (!b) return 0n;
    const v = new DataView(b.buffer);
    return this.abi.pointer === 8 ? v.getBigUint64(0, true) : BigInt(v.getUint32(0, true));
  }

  writePointer(address: bigint, value: bigint): void {
    this.writeInt(address, value, this.abi.pointer);
  }

  writeInt(address: bigint, value: bigint | number, bytes: 1 | 2 | 4 | 8): void {
    const b = new Uint8Array(bytes);
    let v = BigInt.asUintN(bytes * 8, BigInt(value));
    for (let i = 0; i < bytes; i++, v >>= 8n) b[i] = Number(v & 0xffn);
    this.cpu.write(address, b);
  }

  /** The guest's bytes [address, address+size), or null when unmapped; size bounded by the allocation limit. */
  bytes(address: bigint, size: number): Uint8Array | null {
    if (size < 0 || size > this.limits.allocation) return null;
    return this.cpu.read(address, size);
  }

  /** Output of the console and the bound on all the guest writes: false once over. */
  wrote(bytes: number): boolean {
    this.written += bytes;
    if (this.written <= this.limits.output) return true;
    this.stop({ reason: 'memory', detail: `output limit of ${this.limits.output} bytes` });
    return false;
  }
}
