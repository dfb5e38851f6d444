// Linux system calls by name, over the kernel's state (kernel.ts); each CPU's table (x86-64.ts) maps its
// numbers to these names. What needs no effect on the world (identity, signals, limits) answers as an
// ordinary process would see it.
import { SAMPLE_PATH } from './environment.js';
import { Kernel, type Handler } from './kernel.js';

const ok = 0n;
const MAP_FIXED = 0x10;
const ARCH_SET_FS = 0x1002;
const FUTEX_CMD = 0x7f;
const FUTEX_WAIT = 0;
/** Signals whose default action is not to end the process (SIGCHLD, SIGCONT, SIGURG, SIGWINCH), and 0. */
const HARMLESS_SIGNALS = new Set([0, 17, 18, 23, 28]);
const POLLIN = 1;
const POLLOUT = 4;
const ARCH_GET_FS = 0x1003;

/** uname's struct utsname of a `machine`: six 65-byte fields. */
function utsname(machine: string): Uint8Array {
  const out = new Uint8Array(65 * 6);
  ['Linux', 'workstation', '6.1.0-18-amd64', '#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1', machine, '(none)'].forEach(
    (s, i) => out.set(new TextEncoder().encode(s), i * 65),
  );
  return out;
}

export const SYSCALLS: Record<string, Handler> = {
  read: (k, a) => k.read(k.int(a[0]), a[1]!, k.int(a[2])),
  write: (k, a) => k.write(k.int(a[0]), a[1]!, k.int(a[2])),
  pread64: (k, a) => {
    const pos = k.lseek(k.int(a[0]), 0n, 1);
    if (pos < 0n) return pos;
    k.lseek(k.int(a[0]), a[3]!, 0);
    const r = k.read(k.int(a[0]), a[1]!, k.int(a[2]), 'pread64');
    k.lseek(k.int(a[0]), pos, 0);
    return r;
  },
  readv: (k, a) => vector(k, a, (fd, at, len) => k.read(fd, at, len, 'readv')),
  writev: (k, a) => vector(k, a, (fd, at, len) => k.write(fd, at, len, 'writev')),
  open: (k, a) => openAt(k, -100n, a[0]!, k.int(a[1])),
  openat: (k, a) => openAt(k, a[0]!, a[1]!, k.int(a[2])),
  creat: (k, a) => openAt(k, -100n, a[0]!, 0x241),
  close: (k, a) => k.close(k.int(a[0])),
  lseek: (k, a) => k.lseek(k.int(a[0]), a[1]!, k.int(a[2])),
  fstat: (k, a) => k.stat(null, k.int(a[0]), a[1]!),
  stat: (k, a) => k.stat(k.path(-100n, a[0]!), null, a[1]!),
  lstat: (k, a) => k.stat(k.path(-100n, a[0]!), null, a[1]!),
  newfstatat: (k, a) => {
    // AT_EMPTY_PATH with "": the descriptor itself.
    const p = k.string(a[1]!);
    return p === '' ? k.stat(null, k.int(a[0]), a[2]!) : k.stat(k.path(a[0]!, a[1]!), null, a[2]!);
  },
  access: (k, a) => exists(k, k.path(-100n, a[0]!)),
  faccessat: (k, a) => exists(k, k.path(a[0]!, a[1]!)),
  faccessat2: (k, a) => exists(k, k.path(a[0]!, a[1]!)),
  unlink: (k, a) => withPath(k, k.path(-100n, a[0]!), (p) => k.unlink(p)),
  unlinkat: (k, a) => withPath(k, k.path(a[0]!, a[1]!), (p) => k.unlink(p)),
  rename: (k, a) => withPaths(k, k.path(-100n, a[0]!), k.path(-100n, a[1]!)),
  renameat: (k, a) => withPaths(k, k.path(a[0]!, a[1]!), k.path(a[2]!, a[3]!)),
  renameat2: (k, a) => withPaths(k, k.path(a[0]!, a[1]!), k.path(a[2]!, a[3]!)),
  mkdir: (k, a) => withPath(k, k.path(-100n, a[0]!), (p) => k.mkdir(p)),
  mkdirat: (k, a) => withPath(k, k.path(a[0]!, a[1]!), (p) => k.mkdir(p)),
  getcwd: (k, a) => {
    const bytes = new TextEncoder().encode(`${k.cwd}\0`);
    if (bytes.length > k.int(a[1])) return k.fail(Kernel.E.RANGE);
    k.cpu.write(a[0]!, bytes);
    return BigInt(bytes.length);
  },
  chdir: (k, a) =>
    withPath(k, k.path(-100n, a[0]!), (p) => (k.fs.isDirectory(p) ? ((k.cwd = p), ok) : k.fail(Kernel.E.NOENT))),
  readlink: (k, a) => readlink(k, k.path(-100n, a[0]!), a[1]!, k.int(a[2])),
  readlinkat: (k, a) => readlink(k, k.path(a[0]!, a[1]!), a[2]!, k.int(a[3])),
  // Standard output is never a terminal here (TCGETS, TIOCGWINSZ: ENOTTY).
  ioctl: (k) => k.fail(Kernel.E.NOTTY),
  fcntl: () => ok,
  dup: (k, a) => dup(k, k.int(a[0]), null),
  dup2: (k, a) => dup(k, k.int(a[0]), k.int(a[1])),
  dup3: (k, a) => dup(k, k.int(a[0]), k.int(a[1])),
  pipe: (k, a) => k.pipe(a[0]!),
  pipe2: (k, a) => k.pipe(a[0]!),
  brk: (k, a) => k.brk(a[0]!),
  mmap: (k, a) => k.mmap(a[0]!, k.int(a[1]), k.int(a[2]), (k.int(a[3]) & MAP_FIXED) !== 0, k.int(a[4]), k.int(a[5])),
  // 32-bit CPUs' mmap, its offset in pages; and lseek with a 64-bit offset and result.
  mmap2: (k, a) =>
    k.mmap(a[0]!, k.int(a[1]), k.int(a[2]), (k.int(a[3]) & MAP_FIXED) !== 0, k.int(a[4]), k.int(a[5]) * 4096),
  _llseek: (k, a) => {
    const to = k.lseek(k.int(a[0]), (BigInt.asUintN(32, a[1]!) << 32n) | BigInt.asUintN(32, a[2]!), k.int(a[4]));
    if (to < 0n) return to;
    k.writeInt64(a[3]!, to);
    return 0n;
  },

  munmap: (k, a) => (k.memory.unmap(a[0]!, k.int(a[1])), ok),
  mprotect: (k, a) => k.mprotect(a[0]!, k.int(a[1]), k.int(a[2])),
  madvise: () => ok,
  mremap: (k) => k.fail(Kernel.E.NOMEM),
  arch_prctl: (k, a) => {
    if (k.int(a[0]) === ARCH_SET_FS) {
      k.abi.setThreadPointer(a[1]!);
      return ok;
    }
    return k.int(a[0]) === ARCH_GET_FS ? ok : k.fail(Kernel.E.INVAL);
  },
  set_tid_address: (k) => BigInt(k.pid),
  // Process attributes (a name, the MIPS loader's FP mode query, 0: the o32 default) change nothing seen.
  prctl: () => ok,
  set_robust_list: () => ok,
  rseq: (k) => k.fail(Kernel.E.NOSYS),
  prlimit64: (k, a) => {
    // RLIMIT_STACK and friends: 8 MiB soft, unlimited hard.
    if (a[3]) k.writeInt64(a[3], 8 << 20, -1);
    return ok;
  },
  getrlimit: (k, a) => (k.writeWords(a[1]!, 8 << 20, -1), ok),
  uname: (k, a) => (k.cpu.write(a[0]!, utsname(k.abi.machine)), ok),
  getpid: (k) => BigInt(k.pid),
  gettid: (k) => BigInt(k.pid),
  getppid: () => 1n,
  getuid: () => 1000n,
  geteuid: () => 1000n,
  getgid: () => 1000n,
  getegid: () => 1000n,
  getpgrp: (k) => BigInt(k.pid),
  setsid: (k) => BigInt(k.pid),
  setuid: () => ok,
  setgid: () => ok,
  umask: () => 0o022n,
  rt_sigaction: () => ok,
  rt_sigprocmask: () => ok,
  sigaltstack: () => ok,
  kill: (k, a) => signal(k, k.int(a[0]), k.int(a[1])),
  tgkill: (k, a) => signal(k, k.int(a[1]), k.int(a[2])),
  // One thread: nobody else holds a lock, so a wait finds the value changed and a wake wakes no one.
  futex: (k, a) => ((k.int(a[1]) & FUTEX_CMD) === FUTEX_WAIT ? k.fail(Kernel.E.AGAIN) : ok),
  alarm: () => ok,
  sched_yield: () => ok,
  sched_getaffinity: (k, a) => (k.writeWords(a[2]!, 1), BigInt(k.abi.pointer)),
  nanosleep: () => ok,
  clock_nanosleep: () => ok,
  clock_gettime: (k, a) => {
    const ms = k.now();
    k.writeWords(a[1]!, Math.floor(ms / 1000), (ms % 1000) * 1_000_000);
    return ok;
  },
  // 32-bit CPUs' clock_gettime with a 64-bit time_t (what their C library calls first).
  clock_gettime64: (k, a) => {
    const ms = k.now();
    k.writeInt64(a[1]!, Math.floor(ms / 1000), (ms % 1000) * 1_000_000);
    return ok;
  },
  gettimeofday: (k, a) => {
    const ms = k.now();
    if (a[0]) k.writeWords(a[0], Math.floor(ms / 1000), (ms % 1000) * 1000);
    return ok;
  },
  time: (k, a) => {
    const s = BigInt(Math.floor(k.now() / 1000));
    if (a[0]) k.writeWords(a[0], s);
    return s;
  },
  getrandom: (k, a) => k.random(a[0]!, k.int(a[1])),
  socket: (k, a) => k.socket(k.int(a[1])),
  connect: (k, a) => k.connect(k.int(a[0]), a[1]!, k.int(a[2])),
  sendto: (k, a) => k.sendto(k.int(a[0]), a[1]!, k.int(a[2]), a[4]!, k.int(a[5])),
  recvfrom: (k, a) => {
    const r = k.read(k.int(a[0]), a[1]!, k.int(a[2]), 'recvfrom');
    if (r >= 0n) k.sender(k.int(a[0]), a[4]!, a[5]!);
    return r;
  },
  sendmsg: (k, a) => message(k, k.int(a[0]), a[1]!),
  // send and recv are sendto and recvfrom without an address (32-bit ARM and MIPS have them as calls).
  send: (k, a) => k.sendto(k.int(a[0]), a[1]!, k.int(a[2]), 0n, 0),
  recv: (k, a) => k.read(k.int(a[0]), a[1]!, k.int(a[2]), 'recv'),
  sendmmsg: (k, a) => {
    // struct mmsghdr: a msghdr (seven words) and the bytes sent (msg_len), eight words each.
    const word = k.abi.pointer;
    let sent = 0;
    for (; sent < Math.min(k.int(a[2]), 64); sent++) {
      const at = a[1]! + BigInt(sent * 8 * word);
      const r = message(k, k.int(a[0]), at);
      if (r < 0n) return sent ? BigInt(sent) : r;
      k.writeInt32(at + BigInt(7 * word), Number(r));
    }
    return BigInt(sent);
  },
  setsockopt: () => ok,
  getsockopt: () => ok,
  bind: () => ok,
  listen: () => ok,
  shutdown: () => ok,
  poll: (k, a) => {
    // struct pollfd {int fd; short events; short revents}: writable always, readable when data waits.
    let ready = 0;
    for (let i = 0; i < Math.min(k.int(a[1]), 1024); i++) {
      const p = k.cpu.read(a[0]! + BigInt(i * 8), 8);
      if (!p) return k.fail(Kernel.E.FAULT);
      const v = new DataView(p.buffer);
      const events = v.getUint16(4, k.abi.little);
      const revents = events & (POLLOUT | (k.readable(v.getInt32(0, k.abi.little)) ? POLLIN : 0));
      v.setUint16(6, revents, k.abi.little);
      k.cpu.write(a[0]! + BigInt(i * 8 + 6), p.subarray(6, 8));
      if (revents) ready++;
    }
    return BigInt(ready);
  },
  // ppoll (what AArch64's C library polls with) reads its descriptors as poll does; no signal mask to apply.
  ppoll: (k, a) => SYSCALLS.poll!(k, a),
  fork: (k) => k.fork('fork'),
  vfork: (k) => k.fork('vfork'),
  // clone(flags, stack, …): a thread or vfork-style child starts on the stack it is given.
  clone: (k, a) => k.fork('clone', a[1]!),
  // Not offered: the C library falls back to clone, whose registers say everything.
  clone3: (k) => k.fail(Kernel.E.NOSYS),
  // What 32-bit C libraries stat with first (MIPS's loader has no fallback): AT_EMPTY_PATH with "" is the descriptor.
  statx: (k, a) => {
    const p = k.string(a[1]!);
    return p === '' ? k.stat(null, k.int(a[0]), a[4]!, true) : k.stat(k.path(a[0]!, a[1]!), null, a[4]!, true);
  },
  wait4: (k, a) => k.wait(a[1]!),
  waitpid: (k, a) => k.wait(a[1]!),
  execve: (k, a) => k.execve(k.path(-100n, a[0]!), strings(k, a[1]!)),
  execveat: (k, a) => k.execve(k.path(a[0]!, a[1]!), strings(k, a[2]!)),
  exit: (k, a) => k.exit(k.int(a[0])),
  exit_group: (k, a) => k.exit(k.int(a[0])),
};

function openAt(k: Kernel, dirfd: bigint, address: bigint, flags: number): bigint {
  return withPath(k, k.path(dirfd, address), (p) => k.open(p, flags));
}

function withPath(k: Kernel, path: string | null, f: (p: string) => bigint): bigint {
  return path === null ? k.fail(Kernel.E.FAULT) : f(path);
}

function withPaths(k: Kernel, from: string | null, to: string | null): bigint {
  return from === null || to === null ? k.fail(Kernel.E.FAULT) : k.rename(from, to);
}

/** access(): whether the path is there, recorded (a probe for a file is behaviour: /etc/shadow, a mutex file). */
function exists(k: Kernel, path: string | null): bigint {
  if (path === null) return k.fail(Kernel.E.FAULT);
  const found = !!k.fs.get(path) || k.fs.isDirectory(path);
  if (!k.fs.isSystem(path)) k.record('file-access', 'access', { path, result: found ? 'exists' : 'not found' });
  return found ? ok : k.fail(Kernel.E.NOENT);
}

function readlink(k: Kernel, path: string | null, buffer: bigint, size: number): bigint {
  // /proc/self/exe: where the sample was started from.
  if (path !== '/proc/self/exe') return k.fail(Kernel.E.INVAL);
  const target = new TextEncoder().encode(SAMPLE_PATH).subarray(0, size);
  k.cpu.write(buffer, target);
  return BigInt(target.length);
}

function dup(k: Kernel, fd: number, to: number | null): bigint {
  const f = k.fds.get(fd);
  if (!f) return k.fail(Kernel.E.BADF);
  let t = to ?? 3;
  if (to === null) while (k.fds.has(t)) t++;
  k.fds.set(t, f);
  return BigInt(t);
}

/** readv/writev: each iovec (base, length: two words) in turn, stopping at a short transfer or an error. */
function vector(k: Kernel, a: bigint[], io: (fd: number, at: bigint, len: number) => bigint): bigint {
  let total = 0n;
  for (let i = 0; i < Math.min(k.int(a[2]), 1024); i++) {
    const base = k.word(a[1]!, 2 * i);
    const length = k.word(a[1]!, 2 * i + 1);
    if (base === null || length === null) return total || k.fail(Kernel.E.FAULT);
    const len = Number(length);
    const r = io(k.int(a[0]), base, len);
    if (r < 0n) return total || r;
    total += r;
    if (Number(r) < len) break;
  }
  return total;
}

function strings(k: Kernel, address: bigint): string[] {
  return k.pointers(address, 64).map((p) => k.string(p) ?? '');
}

/**
 * sendmsg's struct msghdr at `at` (name, name length, iovecs, their count, …: a word each): to its msg_name
 * if any, its iovecs gathered into one send.
 */
function message(k: Kernel, fd: number, at: bigint): bigint {
  const header = [0, 1, 2, 3].map((i) => k.word(at, i));
  if (header.includes(null)) return k.fail(Kernel.E.FAULT);
  const [name, nameLength, iov, count] = header as bigint[];
  const parts: Uint8Array[] = [];
  for (let i = 0; i < Math.min(Number(count), 64); i++) {
    const base = k.word(iov!, 2 * i);
    const length = k.word(iov!, 2 * i + 1);
    const part = base === null || length === null ? null : k.cpu.read(base, Math.min(Number(length), 1 << 20));
    if (!part) return k.fail(Kernel.E.FAULT);
    parts.push(part);
  }
  const total = parts.reduce((s, p) => s + p.length, 0);
  const data = new Uint8Array(total);
  parts.reduce((o, p) => (data.set(p, o), o + p.length), 0);
  return k.sendBytes(fd, data, name!, Number(nameLength! & 0xffff_ffffn), 'sendmsg');
}

/**
 * A signal the process sends: to itself, one that ends a process ends the run (handlers are not run), as
 * abort() does; to another process, recorded as nothing (the others are not emulated).
 */
function signal(k: Kernel, pid: number, sig: number): bigint {
  if ((pid === k.pid || pid === 0) && !HARMLESS_SIGNALS.has(sig))
    k.stop({ reason: 'exit', detail: `killed by signal ${sig}` });
  return ok;
}
