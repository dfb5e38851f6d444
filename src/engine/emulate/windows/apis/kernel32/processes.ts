// kernel32's processes, threads and memory: what a sample does to itself (allocate, protect, start threads,
// exit) and to processes it creates or opens (allocate and write in them, start threads there, end them).
// Another process is never run: its memory is what the sample put there, kept for the report.
import { ROOT_PID } from '../../../events.js';
import type { Process, WinSystem } from '../../system.js';
import { winPath } from '../../files.js';
import { ansiAndWide, ERROR, fail, stdcall, type ApiCall, type ApiTable } from '../api.js';

/** Pseudo-handles of the current process and thread: -1 and -2 in a handle's width. */
const CURRENT_PROCESS = -1;
const CURRENT_THREAD = -2;
/** Processes a run may create. */
const MAX_PROCESSES = 16;
const CREATE_SUSPENDED = 0x4;
/** Where memory allocated in another process starts (its own address space: never mapped here). */
const REMOTE_BASE = 0x1f_0000n;
/** Page protections that allow execution (PAGE_EXECUTE*). */
const EXECUTABLE = 0x10 | 0x20 | 0x40 | 0x80;
const PAGE_EXECUTE_READWRITE = 0x40;

/** The process handle argument `i` names: the sample's own (null) or another, or undefined when none. */
function target(c: ApiCall, i: number): Process | null | undefined {
  const value = c.arg(i);
  if (BigInt.asIntN(c.sys.abi.pointer * 8, value) === BigInt(CURRENT_PROCESS)) return null;
  const h = c.sys.handles.get(value);
  if (h?.k !== 'process') return undefined;
  return h.pid === c.sys.pid ? null : c.sys.processes.get(h.pid);
}

/** The other process's region holding [address, address+size), or null. */
function regionOf(p: Process, address: bigint, size: number): { base: bigint; bytes: Uint8Array } | null {
  for (const [base, bytes] of p.regions)
    if (address >= base && address + BigInt(size) <= base + BigInt(bytes.length)) return { base, bytes };
  return null;
}

/** Memory for the sample itself, or 0 (refused and recorded); committing reserved pages gives them back. */
function allocateHere(c: ApiCall, address: bigint, size: number, protect: number): bigint {
  if (size <= 0) return fail(c, ERROR.INVALID_PARAMETER) as bigint;
  const existing = address ? c.sys.region(address) : null;
  const at = existing ? address : c.sys.virtualAlloc(c.name, size);
  if (!at) return fail(c, ERROR.NOT_ENOUGH_MEMORY) as bigint;
  if (protect & EXECUTABLE) c.sys.onExecutable(at, size);
  return at;
}

function createProcess(c: ApiCall, wide: boolean): boolean {
  const command = c.str(1, wide) ?? c.str(0, wide) ?? '';
  const image = c.str(0, wide) ?? /^\s*("([^"]*)"|\S+)/.exec(command)?.[2] ?? /^\s*(\S+)/.exec(command)?.[1] ?? '';
  const pid = launch(c, image, command, (c.u32(5) & CREATE_SUSPENDED) !== 0);
  if (pid === null) return false;
  // PROCESS_INFORMATION: process and thread handles, then their ids.
  const info = c.arg(9);
  const width = BigInt(c.sys.abi.pointer);
  c.sys.writePointer(info, c.sys.open({ k: 'process', pid }));
  c.sys.writePointer(info + width, c.sys.open({ k: 'thread', pid, start: 0n }));
  c.sys.writeInt(info + 2n * width, pid, 4);
  c.sys.writeInt(info + 2n * width + 4n, pid + 4, 4);
  return true;
}

/** A process created running `image` with `command`: recorded, never run here. Its pid, or null (refused). */
export function launch(c: ApiCall, image: string, command: string, suspended: boolean): number | null {
  const sys = c.sys;
  if (sys.processes.size >= MAX_PROCESSES) {
    sys.record('process-create', c.name, { path: image, args: command, result: 'refused: process limit' });
    sys.lastError = ERROR.NOT_ENOUGH_MEMORY;
    return null;
  }
  const pid = ROOT_PID + 8 * sys.processes.size;
  sys.processes.set(pid, {
    pid,
    name: image,
    args: command,
    suspended,
    regions: new Map(),
    started: new Map(),
    nextRegion: REMOTE_BASE,
  });
  sys.record('process-create', c.name, {
    path: image,
    args: command,
    pid,
    parent: sys.pid,
    suspended: suspended ? 1 : 0,
  });
  const path = executable(sys, image);
  if (path !== null) {
    const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
    sys.world.queued.push({ pid, path, bytes: sys.fs.get(path)!.data, argv: [image, ...args] });
  }
  return pid;
}

/** Where `image` is on the disk as a program Windows would start (a PE), searched as CreateProcess does. */
function executable(sys: WinSystem, image: string): string | null {
  const names = /\.[^\\.]+$/.test(image) ? [image] : [image, `${image}.exe`];
  const here = sys.imagePath.replace(/[^\\]+$/, '');
  const dirs = /[\\/]/.test(image) ? [''] : [here, 'C:\\Windows\\System32\\', 'C:\\Windows\\', ''];
  for (const dir of dirs)
    for (const name of names) {
      const path = winPath(dir + name);
      const data = sys.fs.get(path)?.data;
      // The seeded system programs are names only (two bytes): a real image has a PE header to load.
      if (data && data.length >= 0x40 && data[0] === 0x4d && data[1] === 0x5a) return path;
    }
  return null;
}

/** A thread of the sample's own: run to its end before the call returns (one thread runs at a time). */
export function startThread(c: ApiCall, start: bigint, parameter: bigint, tidAt: bigint): bigint {
  c.sys.pending.push({ fn: start, args: [parameter], thread: true });
  if (tidAt) c.sys.writeInt(tidAt, c.sys.tid + 4, 4);
  return c.sys.open({ k: 'thread', pid: c.sys.pid, start });
}

export const PROCESSES: ApiTable = {
  ...ansiAndWide('CreateProcess', 10, createProcess),
  GetCurrentProcess: stdcall(0, () => CURRENT_PROCESS),
  GetCurrentThread: stdcall(0, () => CURRENT_THREAD),
  GetCurrentProcessId: stdcall(0, (c) => c.sys.pid),
  GetCurrentThreadId: stdcall(0, (c) => c.sys.tid),
  OpenProcess: stdcall(3, (c) => {
    const p = c.sys.processes.get(c.u32(2));
    return p ? c.sys.open({ k: 'process', pid: p.pid }) : fail(c, ERROR.INVALID_PARAMETER);
  }),
  TerminateProcess: stdcall(2, (c) => {
    const p = target(c, 0);
    if (p === undefined) return fail(c, ERROR.INVALID_HANDLE);
    if (p === null) {
      c.sys.stop({ reason: 'exit', detail: `TerminateProcess of itself with ${c.u32(1)}` });
      return true;
    }
    c.sys.record('process-terminate', c.name, { path: p.name, pid: p.pid, code: c.u32(1) });
    return true;
  }),
  ExitProcess: stdcall(1, (c) => {
    c.sys.stop({ reason: 'exit', detail: `ExitProcess(${c.u32(0)})` });
    return 0;
  }),
  ExitThread: stdcall(1, (c) => {
    c.sys.endThread(c.u32(0));
    return 0;
  }),
  ResumeThread: stdcall(1, () => 1),
  SuspendThread: stdcall(1, () => 0),
  GetExitCodeThread: stdcall(2, (c) => {
    c.sys.writeInt(c.arg(1), 0, 4);
    return true;
  }),
  CreateThread: stdcall(6, (c) => startThread(c, c.arg(2), c.arg(3), c.arg(5))),
  CreateRemoteThread: stdcall(7, (c) => {
    const p = target(c, 0);
    if (p === undefined) return fail(c, ERROR.INVALID_HANDLE);
    if (p === null) return startThread(c, c.arg(3), c.arg(4), c.arg(6));
    const region = regionOf(p, c.arg(3), 1);
    if (region) p.started.set(region.base, region.bytes.slice());
    c.sys.record('thread-create', c.name, {
      path: p.name,
      pid: p.pid,
      address: `0x${c.arg(3).toString(16)}`,
      written: region ? 1 : 0,
    });
    if (c.arg(6)) c.sys.writeInt(c.arg(6), p.pid + 8, 4);
    return c.sys.open({ k: 'thread', pid: p.pid, start: c.arg(3) });
  }),
  VirtualAlloc: stdcall(4, (c) => allocateHere(c, c.arg(0), Number(c.arg(1)), c.u32(3))),
  VirtualAllocEx: stdcall(5, (c) => {
    const p = target(c, 0);
    const size = Number(c.arg(2));
    if (p === undefined) return fail(c, ERROR.INVALID_HANDLE);
    if (p === null) return allocateHere(c, c.arg(1), size, c.u32(4));
    if (size <= 0 || size > c.sys.limits.allocation) return fail(c, ERROR.NOT_ENOUGH_MEMORY);
    const base = c.arg(1) || p.nextRegion;
    p.nextRegion = base + ((BigInt(size) + 0xffffn) & ~0xffffn);
    p.regions.set(base, new Uint8Array(size));
    c.sys.record('memory-alloc', c.name, {
      path: p.name,
      pid: p.pid,
      address: `0x${base.toString(16)}`,
      bytes: size,
      protect: c.u32(4),
    });
    return base;
  }),
  VirtualFree: stdcall(3, (c) => c.sys.virtualFree(c.arg(0)) || fail(c, ERROR.INVALID_PARAMETER)),
  VirtualFreeEx: stdcall(4, (c) => {
    const p = target(c, 0);
    if (p === undefined) return fail(c, ERROR.INVALID_HANDLE);
    return p === null ? c.sys.virtualFree(c.arg(1)) : p.regions.delete(c.arg(1)) || fail(c, ERROR.INVALID_PARAMETER);
  }),
  VirtualProtect: stdcall(4, (c) => protect(c, 0)),
  VirtualProtectEx: stdcall(5, (c) => protect(c, 1)),
  VirtualQuery: stdcall(3, (c) => {
    const page = c.arg(0) & ~0xfffn;
    if (!c.sys.cpu.read(page, 1)) return fail(c, ERROR.INVALID_PARAMETER);
    // MEMORY_BASIC_INFORMATION: base, allocation base and rights, region size, state, rights, type.
    const mbi = c.sys.struct([
      ['ptr', page],
      ['ptr', page],
      ['u32', PAGE_EXECUTE_READWRITE],
      ['ptr', 0x1000],
      ['u32', 0x1000],
      ['u32', PAGE_EXECUTE_READWRITE],
      ['u32', page >= c.sys.imageBase && page < c.sys.imageEnd ? 0x100_0000 : 0x2_0000],
    ]);
    c.sys.cpu.write(c.arg(1), mbi);
    return mbi.length;
  }),
  WriteProcessMemory: stdcall(5, (c) => {
    const p = target(c, 0);
    const size = Number(c.arg(3));
    const data = c.sys.bytes(c.arg(2), size);
    if (p === undefined || !data) return fail(c, p === undefined ? ERROR.INVALID_HANDLE : ERROR.INVALID_PARAMETER);
    if (p === null) c.sys.cpu.write(c.arg(1), data);
    else {
      const region = regionOf(p, c.arg(1), size);
      if (!region) return fail(c, 487);
      region.bytes.set(data, Number(c.arg(1) - region.base));
      c.sys.record('memory-write', c.name, {
        path: p.name,
        pid: p.pid,
        address: `0x${c.arg(1).toString(16)}`,
        bytes: size,
      });
    }
    if (c.arg(4)) c.sys.writePointer(c.arg(4), BigInt(size));
    return true;
  }),
  ReadProcessMemory: stdcall(5, (c) => {
    const p = target(c, 0);
    const size = Number(c.arg(3));
    if (p === undefined) return fail(c, ERROR.INVALID_HANDLE);
    const data =
      p === null ? c.sys.bytes(c.arg(1), size) : regionOf(p, c.arg(1), size) && readRemote(p, c.arg(1), size);
    if (!data) return fail(c, 299);
    c.sys.cpu.write(c.arg(2), data);
    if (c.arg(4)) c.sys.writePointer(c.arg(4), BigInt(size));
    return true;
  }),
  GetProcessHeap: stdcall(0, (c) => c.sys.processHeap),
  HeapCreate: stdcall(3, (c) => c.sys.open({ k: 'object', what: 'heap', name: null })),
  HeapDestroy: stdcall(1, () => true),
  HeapAlloc: stdcall(3, (c) => c.sys.alloc(c.name, Number(c.arg(2)))),
  HeapReAlloc: stdcall(4, (c) => c.sys.realloc(c.name, c.arg(2), Number(c.arg(3)))),
  HeapFree: stdcall(3, (c) => c.arg(2) === 0n || c.sys.heap.release(c.arg(2))),
  HeapSize: stdcall(3, (c) => c.sys.heap.size(c.arg(2)) ?? -1),
  HeapValidate: stdcall(3, () => true),
  HeapCompact: stdcall(2, () => 1 << 20),
  LocalAlloc: stdcall(2, (c) => c.sys.alloc(c.name, Number(c.arg(1)))),
  LocalFree: stdcall(1, (c) => (c.sys.heap.release(c.arg(0)) ? 0 : c.arg(0))),
  GlobalAlloc: stdcall(2, (c) => c.sys.alloc(c.name, Number(c.arg(1)))),
  GlobalFree: stdcall(1, (c) => (c.sys.heap.release(c.arg(0)) ? 0 : c.arg(0))),
};

function readRemote(p: Process, address: bigint, size: number): Uint8Array {
  const region = regionOf(p, address, size)!;
  const from = Number(address - region.base);
  return region.bytes.slice(from, from + size);
}

/** VirtualProtect(Ex): every page stays readable, writable and executable here; the old rights say so. */
function protect(c: ApiCall, first: number): boolean {
  if (!c.sys.cpu.read(c.arg(first), 1)) return fail(c, 487) as boolean;
  if (c.u32(first + 2) & EXECUTABLE) c.sys.onExecutable(c.arg(first), Number(c.arg(first + 1)));
  c.sys.writeInt(c.arg(first + 3), PAGE_EXECUTE_READWRITE, 4);
  return true;
}
