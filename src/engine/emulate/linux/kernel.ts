// The Linux kernel as an emulated program sees it: file descriptors over the virtual file system and the
// fake network, memory mappings, a clock, and a record of everything done. System calls arrive by name
// (each CPU's table maps its numbers, x86-64.ts); an unknown one is recorded with its call site
// and fails with ENOSYS, so the program goes on.
import {
  ROOT_PID,
  type EmulationEvent,
  type EventKind,
  type MemoryDump,
  type RunLimits,
  type RunStop,
} from '../events.js';
import { HAMMERING, HammerWatch } from '../hammering.js';
import type { Cpu } from '../unicorn.js';
import type { VirtualFs } from './environment.js';
import { normalise } from './environment.js';
import type { AddressSpace } from '../memory.js';
import { MappingRefused, pageUp, permsOf } from '../memory.js';
import { FakeNetwork, readSent } from '../network.js';
import { randomBytes } from '../random.js';
import { VirtualFile } from '../virtual-file.js';

/** errno values (asm-generic/errno-base.h). */
const E = {
  NOENT: 2,
  BADF: 9,
  CHILD: 10,
  AGAIN: 11,
  NOMEM: 12,
  ACCES: 13,
  FAULT: 14,
  EXIST: 17,
  INVAL: 22,
  NOTTY: 25,
  RANGE: 34,
  NOSYS: 38,
  NETUNREACH: 101,
};
/** open flags (asm-generic/fcntl.h). */
const O = { WRONLY: 1, RDWR: 2, CREAT: 0x40, EXCL: 0x80, TRUNC: 0x200, APPEND: 0x400 };
const AT_FDCWD = -100;
const PROT_EXEC = 4;
/** Processes a run may create (children, grandchildren): each runs to its end in turn. */
const MAX_PROCESSES = 16;
const AF_UNIX = 1;
const AF_INET = 2;
/** Longest path or string the kernel reads from the guest. */
const MAX_STRING = 4096;
/** Largest single read or write the kernel moves (the guest loops for more, as on a pipe). */
const MAX_IO = 1 << 20;
/** Virtual clock: 2024-01-01T00:00:00Z, advancing a millisecond per system call. */
const EPOCH_MS = 1_704_067_200_000;

type Fd =
  | { k: 'std'; n: number }
  | { k: 'file'; path: string; file: VirtualFile; pos: number; writable: boolean; append: boolean }
  | { k: 'dir'; path: string }
  /** One end of a pipe; the bytes written wait in `chunks` for the reading end. */
  | { k: 'pipe'; chunks: Uint8Array[]; writes: boolean }
  /** A socket: its type (1 stream, 2 datagram), peer, and the answers waiting to be read. */
  | { k: 'socket'; type: number; peer: { address: string; port: number } | null; inbox: Uint8Array[] };

export type Handler = (k: Kernel, a: bigint[]) => bigint;

/** Where a CPU's struct stat keeps each field the kernel fills (byte offsets; nlink's width differs). */
export interface StatLayout {
  bytes: number;
  ino: number;
  nlink: { at: number; width: 4 | 8 };
  mode: number;
  uid: number;
  gid: number;
  size: number;
  blksize: number;
  blocks: number;
}

/** struct stat of a regular file or directory of `size` bytes owned by the user (uid and gid 1000). */
export function statBytes(layout: StatLayout, size: number, mode: number, little = true): Uint8Array {
  const b = new Uint8Array(layout.bytes);
  const v = new DataView(b.buffer);
  v.setBigUint64(0, 1n, little);
  v.setBigUint64(layout.ino, 1n, little);
  if (layout.nlink.width === 8) v.setBigUint64(layout.nlink.at, 1n, little);
  else v.setUint32(layout.nlink.at, 1, little);
  v.setUint32(layout.mode, mode, little);
  v.setUint32(layout.uid, 1000, little);
  v.setUint32(layout.gid, 1000, little);
  v.setBigUint64(layout.size, BigInt(size), little);
  v.setUint32(layout.blksize, 4096, little);
  v.setBigUint64(layout.blocks, BigInt(Math.ceil(size / 512)), little);
  return b;
}

/** A layout the C library shares with the kernel and that differs by CPU (stat). */
export interface KernelAbi {
  /** Bytes of a pointer, a long and a size_t (4 on 32-bit CPUs), and their byte order. */
  pointer: 4 | 8;
  little: boolean;
  /** uname's machine. */
  machine: string;
  /**
   * Where the CPU's numbering differs from the generic one the kernel uses (MIPS): open flags and socket
   * types from the program's to generic, errno values from generic to the program's.
   */
  numbering?: { openFlags(flags: number): number; socketType(type: number): number; errno(errno: number): number };
  /** struct stat of a regular file or directory of `size` bytes. */
  stat(size: number, mode: number): Uint8Array;
  /** The thread-pointer register, set by arch_prctl(ARCH_SET_FS) and friends. */
  setThreadPointer(value: bigint): void;
}

/**
 * struct statx (the same on every CPU) of a file of `size` bytes: type, mode, links, owner (uid and gid
 * 1000), inode, size and blocks, and the mask saying they are filled.
 */
function statxBytes(size: number, mode: number, little: boolean): Uint8Array {
  const b = new Uint8Array(256);
  const v = new DataView(b.buffer);
  // STATX_BASIC_STATS: type, mode, nlink, uid, gid, times, ino, size, blocks.
  v.setUint32(0, 0x7ff, little);
  v.setUint32(4, 4096, little);
  v.setUint32(16, 1, little);
  v.setUint32(20, 1000, little);
  v.setUint32(24, 1000, little);
  v.setUint16(28, mode, little);
  v.setBigUint64(32, 1n, little);
  v.setBigUint64(40, BigInt(size), little);
  v.setBigUint64(48, BigInt(Math.ceil(size / 512)), little);
  return b;
}

/** A CPU's own call that sets the thread pointer (ARM's set_tls, MIPS's set_thread_area) in `register`. */
export const threadPointerCall =
  (register: number): Handler =>
  (k, a) => {
    k.cpu.setReg(register, a[0]!);
    return 0n;
  };

/**
 * The ABI of a 32-bit CPU (uname's `machine`) whose struct stat64 is `layout`, in `little`-endian order or
 * not, with its own `numbering` where it differs; its thread pointer is set by a call of its own.
 */
export const kernelAbi32 = (
  machine: string,
  layout: StatLayout,
  little = true,
  numbering?: KernelAbi['numbering'],
): KernelAbi => ({
  pointer: 4,
  little,
  machine,
  ...(numbering ? { numbering } : {}),
  stat: (size, mode) => statBytes(layout, size, mode, little),
  setThreadPointer: () => {},
});

/**
 * The ABI of a 64-bit CPU (uname's `machine`) whose struct stat is `layout` and whose thread pointer is
 * Unicorn register `tp`.
 */
export const kernelAbi = (cpu: Cpu, machine: string, layout: StatLayout, tp: number): KernelAbi => ({
  pointer: 8,
  little: true,
  machine,
  stat: (size, mode) => statBytes(layout, size, mode),
  setThreadPointer: (value) => cpu.setReg(tp, value),
});

export class Kernel {
  readonly events: EmulationEvent[] = [];
  readonly net = new FakeNetwork();
  fds = new Map<number, Fd>([
    [0, { k: 'std', n: 0 }],
    [1, { k: 'std', n: 1 }],
    [2, { k: 'std', n: 2 }],
  ]);
  /** Bytes written to stdout and stderr. */
  readonly output: Uint8Array[] = [];
  cwd = '/home/user';
  /** The process running now: the sample (ROOT_PID), or a child it forked, run to its end first. */
  pid = ROOT_PID;
  /** A fork the run loop is to carry out (the child's pid, and its stack when clone gave one). */
  pendingFork: { pid: number; stack: bigint } | null = null;
  /** Children that ended, for wait4; and the running process's exit status. */
  readonly exited: { pid: number; status: number }[] = [];
  exitStatus = 0;
  /** Where each child was created from in the executable. */
  private readonly origins = new Map<number, number>();
  /** System calls counted against the budget (not those of a hammering loop), and all of them (the clock). */
  calls = 0;
  private ticks = 0;
  private readonly hammer = new HammerWatch();
  /** Anonymous mappings (where unpacked code would go), and the code run from them. */
  private readonly anonymous: { at: bigint; size: number }[] = [];
  readonly dumps: MemoryDump[] = [];
  written = 0;
  stopped: RunStop | null = null;
  /** Where the running call came from in the executable; null: the loader's or the C library's own work. */
  site: number | null = 0;
  /** Address of the instruction making the running call. */
  private pc = 0;
  private children = 0;

  /** Programs the sample wrote and exec'd: each runs, in the process that exec'd it, once this one has ended. */
  readonly execs: { pid: number; path: string; bytes: Uint8Array; argv: string[] }[] = [];

  constructor(
    readonly cpu: Cpu,
    readonly memory: AddressSpace,
    readonly fs: VirtualFs,
    readonly limits: RunLimits,
    readonly abi: KernelAbi,
    /** The kernel of the program that ran before in this run (an exec'd one goes on with its record). */
    before?: Kernel,
  ) {
    if (!before) return;
    ({ events: this.events, net: this.net, output: this.output, dumps: this.dumps, execs: this.execs } = before);
    ({ calls: this.calls, written: this.written, ticks: this.ticks, children: this.children } = before);
  }

  /**
   * Runs system call `name` (null: unknown number `nr`) made at `pc` on behalf of the executable's code at
   * `site` (null when none): its result.
   */
  call(
    name: string | null,
    nr: number,
    args: bigint[],
    at: { pc: number; site: number | null },
    handlers: Record<string, Handler>,
  ): bigint {
    this.pc = at.pc;
    this.site = at.site;
    this.ticks++;
    const api = name ?? `syscall_${nr}`;
    const counted = this.hammer.counts(api, at.pc, () =>
      this.record('api-hammering', api, { name: api, count: HAMMERING }),
    );
    if (counted && ++this.calls > this.limits.apiCalls) {
      this.stop({ reason: 'api-calls', detail: `${this.limits.apiCalls} system calls` });
      return this.fail(E.NOSYS);
    }
    const h = name === null ? undefined : handlers[name];
    if (!h) {
      this.record('unsupported', api, { number: nr });
      return this.fail(E.NOSYS);
    }
    const seen = this.events.length;
    const result = h(this, args);
    if (this.events.length > seen) this.hammer.reset();
    return result;
  }

  stop(s: RunStop): void {
    this.stopped ??= s;
    this.cpu.stop();
  }

  record(kind: EventKind, api: string, detail: Record<string, string | number>): EmulationEvent | null {
    // What the loader and the C library do for themselves (finding libraries, reading locales) is not the
    // program's behaviour; an unsupported call or refused memory is worth knowing wherever it happens.
    // A child started on a stack of its own (posix_spawn) has no call of the executable on it: what it
    // does is the doing of the call that created it.
    const site = this.site ?? this.origins.get(this.pid) ?? null;
    if (site === null && kind !== 'unsupported' && kind !== 'memory-refused') return null;
    const event = { seq: this.events.length, pid: this.pid, kind, api, site: site ?? this.pc, detail };
    this.events.push(event);
    return event;
  }

  /** A watched library function called by the executable at `site` (library-calls.ts). */
  libraryCall(api: string, detail: Record<string, string>, site: number): void {
    this.events.push({ seq: this.events.length, pid: this.pid, kind: 'library-call', api, site, detail });
  }

  fail(errno: number): bigint {
    return BigInt(-(this.abi.numbering?.errno(errno) ?? errno));
  }

  now(): number {
    return EPOCH_MS + this.ticks;
  }

  /** The NUL-terminated string at `address` (MAX_STRING bytes at most), or null when unmapped. */
  string(address: bigint): string | null {
    const out: number[] = [];
    for (let at = address; out.length < MAX_STRING;) {
      // 64 bytes at a time; byte by byte where the mapping ends within them.
      const chunk = this.cpu.read(at, 64) ?? this.cpu.read(at, 1);
      if (!chunk) return null;
      const end = chunk.indexOf(0);
      out.push(...(end < 0 ? chunk : chunk.subarray(0, end)));
      if (end >= 0) break;
      at += BigInt(chunk.length);
    }
    return new TextDecoder().decode(Uint8Array.from(out));
  }

  /** `count` guest pointers of `width` bytes from `address`, up to a null one. */
  pointers(address: bigint, count = 256): bigint[] {
    const out: bigint[] = [];
    for (let i = 0; i < count; i++) {
      const v = this.word(address, i);
      if (!v) break;
      out.push(v);
    }
    return out;
  }

  /** Word `i` (a pointer, long or size_t) of the array at `address`, or null when unmapped. */
  word(address: bigint, i = 0): bigint | null {
    const width = this.abi.pointer;
    const b = this.cpu.read(address + BigInt(i * width), width);
    if (!b) return null;
    const v = new DataView(b.buffer);
    return width === 8 ? v.getBigUint64(0, this.abi.little) : BigInt(v.getUint32(0, this.abi.little));
  }

  /** `values` as words (longs, pointers) at `address`. */
  writeWords(address: bigint, ...values: (number | bigint)[]): void {
    const width = this.abi.pointer;
    const b = new Uint8Array(values.length * width);
    const v = new DataView(b.buffer);
    values.forEach((x, i) => {
      const w = BigInt.asUintN(width * 8, BigInt(x));
      if (width === 8) v.setBigUint64(i * 8, w, this.abi.little);
      else v.setUint32(i * 4, Number(w), this.abi.little);
    });
    this.cpu.write(address, b);
  }

  /** A 32-bit int at `address`, in the CPU's byte order. */
  writeInt32(address: bigint, value: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, value >>> 0, this.abi.little);
    this.cpu.write(address, b);
  }

  /** `values` as 64-bit words at `address`, in the CPU's byte order. */
  writeInt64(address: bigint, ...values: (number | bigint)[]): void {
    const b = new Uint8Array(values.length * 8);
    const v = new DataView(b.buffer);
    values.forEach((x, i) => v.setBigUint64(i * 8, BigInt.asUintN(64, BigInt(x)), this.abi.little));
    this.cpu.write(address, b);
  }

  /** A system-call argument as the C int or long it is (sign-extended from the CPU's width). */
  int(value: bigint | undefined): number {
    return Number(BigInt.asIntN(this.abi.pointer * 8, value ?? 0n));
  }

  path(dirfd: bigint, address: bigint): string | null {
    const p = this.string(address);
    if (p === null) return null;
    const fd = Number(BigInt.asIntN(32, dirfd));
    const base = fd === AT_FDCWD || p.startsWith('/') ? this.cwd : (this.dir(fd) ?? this.cwd);
    return normalise(p, base);
  }

  private dir(fd: number): string | null {
    const f = this.fds.get(fd);
    return f?.k === 'dir' ? f.path : null;
  }

  private fdNumber(): number {
    let n = 3;
    while (this.fds.has(n)) n++;
    return n;
  }

  open(path: string, programFlags: number): bigint {
    const flags = this.abi.numbering?.openFlags(programFlags) ?? programFlags;
    const writable = (flags & (O.WRONLY | O.RDWR)) !== 0;
    let file = this.fs.get(path);
    if (!file && this.fs.isDirectory(path)) {
      const n = this.fdNumber();
      this.fds.set(n, { k: 'dir', path });
      return BigInt(n);
    }
    if (file && flags & O.CREAT && flags & O.EXCL) return this.fail(E.EXIST);
    if (!file) {
      if (!(flags & O.CREAT)) {
        this.record('file-open', 'open', { path, mode: writable ? 'write' : 'read', result: 'not found' });
        return this.fail(E.NOENT);
      }
      this.fs.files.set(path, (file = new VirtualFile()));
    } else if (this.fs.isSystem(path) && writable) return this.fail(E.ACCES);
    else if (flags & O.TRUNC && writable) file.data = new Uint8Array();
    if (!this.fs.isSystem(path)) this.record('file-open', 'open', { path, mode: writable ? 'write' : 'read' });
    const n = this.fdNumber();
    this.fds.set(n, { k: 'file', path, file, pos: 0, writable, append: (flags & O.APPEND) !== 0 });
    return BigInt(n);
  }

  read(fd: number, address: bigint, count: number, api = 'read'): bigint {
    const f = this.fds.get(fd);
    if (!f) return this.fail(E.BADF);
    const n = Math.min(count, MAX_IO);
    let data: Uint8Array;
    if (f.k === 'file') {
      data = f.file.data.subarray(f.pos, f.pos + n);
      f.pos += data.length;
      if (!this.fs.isSystem(f.path)) this.record('file-read', api, { path: f.path, bytes: data.length });
    } else if (f.k === 'socket') data = f.inbox.shift()?.subarray(0, n) ?? new Uint8Array();
    else if (f.k === 'pipe') {
      const first = f.chunks[0];
      data = first?.subarray(0, n) ?? new Uint8Array();
      if (first && first.length > n) f.chunks[0] = first.subarray(n);
      else f.chunks.shift();
    } else data = new Uint8Array();
    this.cpu.write(address, data);
    return BigInt(data.length);
  }

  write(fd: number, address: bigint, count: number, api = 'write'): bigint {
    const f = this.fds.get(fd);
    if (!f) return this.fail(E.BADF);
    const data = this.cpu.read(address, Math.min(count, MAX_IO));
    if (!data) return this.fail(E.FAULT);
    this.written += data.length;
    if (this.written > this.limits.output)
      this.stop({ reason: 'memory', detail: `${this.limits.output} bytes written` });
    if (f.k === 'std') this.output.push(data);
    else if (f.k === 'file') {
      if (!f.writable) return this.fail(E.BADF);
      if (f.append) f.pos = f.file.data.length;
      f.file.write(f.pos, data);
      f.pos += data.length;
      this.record('file-write', api, { path: f.path, bytes: data.length });
    } else if (f.k === 'socket') this.send(f, data, api);
    else if (f.k === 'pipe' && f.writes) f.chunks.push(data);
    return BigInt(data.length);
  }

  close(fd: number): bigint {
    return this.fds.delete(fd) ? 0n : this.fail(E.BADF);
  }

  lseek(fd: number, offset: bigint, whence: number): bigint {
    const f = this.fds.get(fd);
    if (f?.k !== 'file') return this.fail(f ? E.INVAL : E.BADF);
    const base = whence === 0 ? 0 : whence === 1 ? f.pos : f.file.data.length;
    const pos = base + Number(BigInt.asIntN(64, offset));
    if (pos < 0) return this.fail(E.INVAL);
    f.pos = pos;
    return BigInt(pos);
  }

  /** stat, fstat and friends: the CPU's struct stat of the file at `path` or descriptor `fd`, or statx's (`extended`). */
  stat(path: string | null, fd: number | null, address: bigint, extended = false): bigint {
    const f = fd === null ? null : this.fds.get(fd);
    if (fd !== null && !f) return this.fail(E.BADF);
    let size = 0;
    let mode = 0o100644;
    if (f?.k === 'file') size = f.file.data.length;
    else if (f?.k === 'std') mode = 0o20620;
    else if (f?.k === 'dir' || (path !== null && this.fs.isDirectory(path))) mode = 0o40755;
    else if (f?.k === 'socket') mode = 0o140777;
    else if (path !== null) {
      const file = this.fs.get(path);
      if (!file) return this.fail(E.NOENT);
      size = file.data.length;
    }
    this.cpu.write(address, extended ? statxBytes(size, mode, this.abi.little) : this.abi.stat(size, mode));
    return 0n;
  }

  unlink(path: string): bigint {
    if (!this.fs.files.delete(path)) return this.fail(E.NOENT);
    this.record('file-delete', 'unlink', { path });
    return 0n;
  }

  rename(from: string, to: string): bigint {
    const file = this.fs.files.get(from);
    if (!file) return this.fail(E.NOENT);
    this.fs.files.delete(from);
    this.fs.files.set(to, file);
    this.record('file-rename', 'rename', { path: from, to });
    return 0n;
  }

  mkdir(path: string): bigint {
    if (this.fs.isDirectory(path)) return this.fail(E.EXIST);
    this.fs.directories.add(path);
    this.record('directory-create', 'mkdir', { path });
    return 0n;
  }

  /** A pipe: its reading and writing descriptors, written as two ints at `address`. */
  pipe(address: bigint): bigint {
    const chunks: Uint8Array[] = [];
    const r = this.fdNumber();
    this.fds.set(r, { k: 'pipe', chunks, writes: false });
    const w = this.fdNumber();
    this.fds.set(w, { k: 'pipe', chunks, writes: true });
    const ints = new Uint8Array(8);
    new DataView(ints.buffer).setInt32(0, r, this.abi.little);
    new DataView(ints.buffer).setInt32(4, w, this.abi.little);
    this.cpu.write(address, ints);
    return 0n;
  }

  socket(programType: number): bigint {
    const type = this.abi.numbering?.socketType(programType) ?? programType;
    const n = this.fdNumber();
    // SOCK_NONBLOCK and SOCK_CLOEXEC ride in the type's high bits.
    this.fds.set(n, { k: 'socket', type: type & 0xf, peer: null, inbox: [] });
    return BigInt(n);
  }

  /** To the sockaddr_in at `address`: accepted and recorded (a stream's); other families are refused. */
  connect(fd: number, address: bigint, length: number, api = 'connect'): bigint {
    const f = this.fds.get(fd);
    if (f?.k !== 'socket') return this.fail(E.BADF);
    const peer = this.peer(address, length);
    if (typeof peer === 'number') return this.fail(peer);
    f.peer = peer;
    // A datagram socket's connect sends nothing; a stream's opens a connection the fake network accepts.
    if (f.type === 1)
      this.record('connect', api, {
        address: peer.address,
        port: peer.port,
        host: this.net.nameOf(peer.address) ?? '',
      });
    return 0n;
  }

  sendto(fd: number, data: bigint, count: number, address: bigint, length: number): bigint {
    const bytes = this.cpu.read(data, Math.min(count, MAX_IO));
    return bytes ? this.sendBytes(fd, bytes, address, length, 'sendto') : this.fail(E.FAULT);
  }

  /** `data` sent on socket `fd`, to the sockaddr at `address` when there is one. */
  sendBytes(fd: number, data: Uint8Array, address: bigint, length: number, api: string): bigint {
    const f = this.fds.get(fd);
    if (f?.k !== 'socket') return this.fail(E.BADF);
    if (address !== 0n) {
      const peer = this.peer(address, length);
      if (typeof peer === 'number') return this.fail(peer);
      f.peer = peer;
    }
    this.send(f, data, api);
    return BigInt(data.length);
  }

  /**
   * The IPv4 address of sockaddr_in at `address`, else the errno a connect gets: no local services
   * (AF_UNIX: nscd, syslog), and no IPv6 route, so the C library falls back to IPv4.
   */
  private peer(address: bigint, length: number): { address: string; port: number } | number {
    const sa = this.cpu.read(address, Math.min(Math.max(length, 2), 128));
    if (!sa || sa.length < 8) return E.INVAL;
    // sa_family is in the CPU's byte order; the port and address in the network's.
    const family = new DataView(sa.buffer).getUint16(0, this.abi.little);
    if (family === AF_UNIX) return E.NOENT;
    if (family !== AF_INET) return E.NETUNREACH;
    return { address: `${sa[4]}.${sa[5]}.${sa[6]}.${sa[7]}`, port: (sa[2]! << 8) | sa[3]! };
  }

  /** sockaddr_in of the socket's peer, written where recvfrom asks for the sender. */
  sender(fd: number, address: bigint, lengthAt: bigint): void {
    const f = this.fds.get(fd);
    if (f?.k !== 'socket' || !f.peer || address === 0n) return;
    const sa = new Uint8Array(16);
    new DataView(sa.buffer).setUint16(0, AF_INET, this.abi.little);
    sa[2] = f.peer.port >> 8;
    sa[3] = f.peer.port & 0xff;
    f.peer.address.split('.').forEach((x, i) => (sa[4 + i] = Number(x)));
    this.cpu.write(address, sa);
    if (lengthAt) this.writeInt32(lengthAt, 16);
  }

  /** Whether reading the descriptor would return data now (a socket's queued answers; files always). */
  readable(fd: number): boolean {
    const f = this.fds.get(fd);
    return f?.k !== 'socket' || f.inbox.length > 0;
  }

  private send(f: Extract<Fd, { k: 'socket' }>, data: Uint8Array, api: string): void {
    const sent = readSent(this.net, f.peer ?? { address: 'unconnected', port: 0 }, data);
    this.record(sent.kind, api, sent.detail);
    if (sent.reply) f.inbox.push(sent.reply);
  }

  /** An anonymous or file-backed mapping; `fixed` at `address` exactly. */
  mmap(address: bigint, length: number, prot: number, fixed: boolean, fd: number, offset: number): bigint {
    if (length <= 0) return this.fail(E.INVAL);
    if (length > this.limits.allocation) {
      this.record('memory-refused', 'mmap', { bytes: length });
      return this.fail(E.NOMEM);
    }
    const at = fixed ? address : this.memory.find(length);
    try {
      if (fixed) this.memory.unmap(at, length);
      this.memory.map(at, length, permsOf({ read: true, write: true, exec: (prot & 4) !== 0 }));
    } catch (err) {
      if (!(err instanceof MappingRefused)) throw err;
      this.record('memory-refused', 'mmap', { bytes: length, why: err.message });
      return this.fail(E.NOMEM);
    }
    const f = fd >= 0 ? this.fds.get(fd) : undefined;
    if (f?.k === 'file') this.cpu.write(at, f.file.data.subarray(offset, offset + length));
    else {
      this.anonymous.push({ at, size: length });
      if (prot & PROT_EXEC) this.watchExecution(at, length);
    }
    return at;
  }

  /** New rights for mapped pages; anonymous memory made executable is watched for the code run there. */
  mprotect(address: bigint, length: number, prot: number): bigint {
    if (
      !this.memory.protect(
        address,
        length,
        permsOf({ read: (prot & 1) !== 0, write: (prot & 2) !== 0, exec: (prot & PROT_EXEC) !== 0 }),
      )
    )
      return this.fail(E.NOMEM);
    const region = this.anonymous.find((r) => address >= r.at && address < r.at + BigInt(r.size));
    if (region && prot & PROT_EXEC) this.watchExecution(address, length);
    return 0n;
  }

  /** The first instruction run in [at, at+size): an event, and the memory as it was then kept as a dump. */
  private watchExecution(at: bigint, size: number): void {
    this.cpu.onFirstExecute(at, at + BigInt(size) - 1n, (pc) => {
      this.record('memory-execute', 'execute', {
        address: `0x${pc.toString(16)}`,
        region: `0x${at.toString(16)}`,
        bytes: size,
      });
      const bytes = this.cpu.read(at, size);
      if (bytes) this.dumps.push({ pid: this.pid, process: '', address: Number(at), why: 'executed', bytes });
    });
  }

  brk(to: bigint): bigint {
    const m = this.memory;
    if (to <= m.brk) return m.brk;
    try {
      const mappedEnd = pageUp(m.brk);
      if (pageUp(to) > mappedEnd)
        m.map(mappedEnd, Number(pageUp(to) - mappedEnd), permsOf({ read: true, write: true, exec: false }));
      m.brk = to;
    } catch (err) {
      if (!(err instanceof MappingRefused)) throw err;
      this.record('memory-refused', 'brk', { bytes: Number(to - m.brkStart) });
    }
    return m.brk;
  }

  /**
   * A child process: recorded, and the emulation stops so the run loop runs the child (on a copy of the
   * memory, to its exit or exec) before the parent goes on with the child's pid. Refused (EAGAIN) past
   * MAX_PROCESSES: a fork bomb ends there.
   */
  fork(api: string, stack = 0n): bigint {
    if (this.children >= MAX_PROCESSES) {
      this.record('process-create', api, { result: 'refused: process limit' });
      return this.fail(E.AGAIN);
    }
    const pid = ROOT_PID + ++this.children;
    this.record('process-create', api, { pid, parent: this.pid });
    if (this.site !== null) this.origins.set(pid, this.site);
    this.pendingFork = { pid, stack };
    this.cpu.stop();
    return BigInt(pid);
  }

  /** wait4: the first child that ended, its status at `statusAt` (exit code << 8). */
  wait(statusAt: bigint): bigint {
    const child = this.exited.shift();
    if (!child) return this.fail(E.CHILD);
    // The wait status: an exit code in bits 8–15.
    if (statusAt) this.writeInt32(statusAt, (child.status & 0xff) << 8);
    return BigInt(child.pid);
  }

  execve(path: string | null, argv: string[]): bigint {
    if (path === null) return this.fail(E.FAULT);
    this.record('process-exec', 'execve', { path, args: argv.join(' ') });
    // A program the sample wrote runs next in this process; a system one is not in the sample: the process
    // ends there, as a successful command would.
    const file = this.fs.isSystem(path) ? null : this.fs.get(path);
    if (file && file.data[0] === 0x7f && file.data[1] === 0x45 && file.data[2] === 0x4c && file.data[3] === 0x46)
      this.execs.push({ pid: this.pid, path, bytes: file.data.slice(), argv });
    this.exitStatus = 0;
    this.stop({ reason: 'exit', detail: `replaced by ${path}` });
    return 0n;
  }

  exit(status: number): bigint {
    this.exitStatus = status;
    this.stop({ reason: 'exit', detail: `exit status ${status}` });
    return 0n;
  }

  /** Deterministic bytes: the same run gives the same random numbers. */
  random(address: bigint, count: number): bigint {
    const n = Math.min(count, 256);
    this.cpu.write(address, randomBytes(n, this.ticks));
    return BigInt(n);
  }

  static readonly E = E;
}
