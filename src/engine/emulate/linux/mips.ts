// 32-bit MIPS Linux (o32), little- and big-endian: system call numbers 4000 + n (asm/unistd_o32.h), `syscall` with
// the number in v0 and arguments in a0–a3 then on the stack, the result in v0 with a3 saying whether it is
// an error (then v0 holds the positive errno); struct stat64 padded around its 32-bit dev_t; 4-byte words;
// the thread pointer in CP0 UserLocal (set_thread_area), which `rdhwr $3, $29` reads; calls with a delay
// slot, so a return address is 8 bytes past its call.
import { UC, type Cpu } from '../unicorn.js';
import type { LinuxCpu } from './cpu.js';
import { kernelAbi32, threadPointerCall, type Handler, type StatLayout } from './kernel.js';

/** Register ids (unicorn/mips.h): $n is 2 + n. */
const MIPS = { pc: 1, v0: 4, a0: 6, a3: 9, sp: 31, ra: 33, userLocal: 138 } as const;
/** Unicorn's interrupt number for `syscall` (EXCP_SYSCALL). */
const SYSCALL = 17;
/** The highest errno: results in [-4095, -1] are errors. */
const MAX_ERRNO = 4095n;

const NUMBERS: [number, string][] = (
  [
    [1, 'exit'],
    [2, 'fork'],
    [3, 'read'],
    [4, 'write'],
    [5, 'open'],
    [6, 'close'],
    [7, 'waitpid'],
    [8, 'creat'],
    [10, 'unlink'],
    [11, 'execve'],
    [12, 'chdir'],
    [13, 'time'],
    [19, 'lseek'],
    [20, 'getpid'],
    [23, 'setuid'],
    [24, 'getuid'],
    [27, 'alarm'],
    [33, 'access'],
    [37, 'kill'],
    [38, 'rename'],
    [39, 'mkdir'],
    [41, 'dup'],
    [45, 'brk'],
    [46, 'setgid'],
    [47, 'getgid'],
    [49, 'geteuid'],
    [50, 'getegid'],
    [54, 'ioctl'],
    [55, 'fcntl'],
    [60, 'umask'],
    [63, 'dup2'],
    [64, 'getppid'],
    [65, 'getpgrp'],
    [66, 'setsid'],
    [76, 'getrlimit'],
    [78, 'gettimeofday'],
    [85, 'readlink'],
    [90, 'mmap'],
    [91, 'munmap'],
    [114, 'wait4'],
    [120, 'clone'],
    [122, 'uname'],
    [125, 'mprotect'],
    [140, '_llseek'],
    [145, 'readv'],
    [146, 'writev'],
    [147, 'cacheflush'],
    [162, 'sched_yield'],
    [166, 'nanosleep'],
    [167, 'mremap'],
    [169, 'bind'],
    [170, 'connect'],
    [173, 'getsockopt'],
    [174, 'listen'],
    [175, 'recv'],
    [176, 'recvfrom'],
    [178, 'send'],
    [179, 'sendmsg'],
    [180, 'sendto'],
    [181, 'setsockopt'],
    [182, 'shutdown'],
    [183, 'socket'],
    [188, 'poll'],
    [192, 'prctl'],
    [194, 'rt_sigaction'],
    [195, 'rt_sigprocmask'],
    [200, 'pread64'],
    [203, 'getcwd'],
    [206, 'sigaltstack'],
    [210, 'mmap2'],
    [213, 'stat'],
    [214, 'lstat'],
    [215, 'fstat'],
    [218, 'madvise'],
    [220, 'fcntl'],
    [222, 'gettid'],
    [238, 'futex'],
    [240, 'sched_getaffinity'],
    [246, 'exit_group'],
    [252, 'set_tid_address'],
    [263, 'clock_gettime'],
    [265, 'clock_nanosleep'],
    [266, 'tgkill'],
    [283, 'set_thread_area'],
    [288, 'openat'],
    [289, 'mkdirat'],
    [293, 'newfstatat'],
    [294, 'unlinkat'],
    [295, 'renameat'],
    [298, 'readlinkat'],
    [300, 'faccessat'],
    [309, 'set_robust_list'],
    [327, 'dup3'],
    [328, 'pipe2'],
    [338, 'prlimit64'],
    [343, 'sendmmsg'],
    [351, 'renameat2'],
    [353, 'getrandom'],
    [356, 'execveat'],
    [366, 'statx'],
    [367, 'rseq'],
    [403, 'clock_gettime64'],
    [407, 'clock_nanosleep'],
    [422, 'futex'],
    [435, 'clone3'],
    [439, 'faccessat2'],
  ] as [number, string][]
).map(([n, name]) => [4000 + n, name]);

/** struct stat64 of o32: dev_t padded to 16 bytes, 64-bit inode, size and blocks. */
const STAT64: StatLayout = {
  bytes: 104,
  ino: 16,
  nlink: { at: 28, width: 4 },
  mode: 24,
  uid: 32,
  gid: 36,
  size: 56,
  blksize: 88,
  blocks: 96,
};

const EXTRA: Record<string, Handler> = {
  set_thread_area: threadPointerCall(MIPS.userLocal),
  // The instruction cache is the emulator's business: code written is code run.
  cacheflush: () => 0n,
};

/** MIPS's own values (asm/fcntl.h, asm/socket.h, asm/errno.h) against the generic ones the kernel uses. */
const O = { APPEND: [0x8, 0x400], CREAT: [0x100, 0x40], TRUNC: [0x200, 0x200], EXCL: [0x400, 0x80] } as const;
const ERRNO = new Map([
  [38, 89], // ENOSYS
  [101, 128], // ENETUNREACH
]);
const NUMBERING = {
  openFlags: (flags: number) =>
    Object.values(O).reduce((out, [mips, generic]) => (flags & mips ? out | generic : out), flags & 3),
  // SOCK_STREAM and SOCK_DGRAM are swapped; the high bits (NONBLOCK, CLOEXEC) are MIPS's too and ignored.
  socketType: (type: number) => ({ 1: 2, 2: 1 })[type & 0xf] ?? type & 0xf,
  errno: (errno: number) => ERRNO.get(errno) ?? errno,
};

/** A 32-bit word of guest memory in the CPU's byte order (0 where unmapped). */
const word = (cpu: Cpu, at: bigint, little: boolean) => {
  const b = cpu.read(at, 4);
  return b ? new DataView(b.buffer).getUint32(0, little) : 0;
};

/** jal, jalr, bal: the calls whose delay slot ends 8 bytes before the address they return to. */
function isCall(w: number): boolean {
  return w >>> 26 === 3 || (w & 0xfc00_003f) === 0x9 || (w & 0xffff_0000) >>> 0 === 0x0411_0000;
}

/** MIPS Linux in one byte order: the same calls, the instructions and the kernel's structures in that order. */
function mipsLinux(little: boolean): LinuxCpu {
  const cpu32: LinuxCpu = {
    unicorn: { arch: UC.arch.mips, mode: UC.mode.mips32 | (little ? 0 : UC.mode.bigEndian) },
    platform: 'mips',
    bits: 32,
    pc: MIPS.pc,
    sp: MIPS.sp,
    callArg: (cpu, i) =>
      i < 4 ? cpu.reg(MIPS.a0 + i) : BigInt(word(cpu, cpu.reg(MIPS.sp) + 16n + 4n * BigInt(i - 4), little)),
    syscall: {
      nr: MIPS.v0,
      args: [0, 1, 2, 3].map((i) => MIPS.a0 + i),
      result: MIPS.v0,
      names: new Map(NUMBERS),
    },
    // The fifth and sixth arguments are on the caller's stack, after the four words reserved for a0–a3.
    syscallArgs: (cpu) => [0, 1, 2, 3, 4, 5].map((i) => cpu32.callArg(cpu, i)),
    setSyscallResult(cpu, value) {
      const error = value < 0n && value >= -MAX_ERRNO;
      cpu.setReg(MIPS.v0, error ? -value : value);
      cpu.setReg(MIPS.a3, error ? 1n : 0n);
    },
    abi: () => kernelAbi32('mips', STAT64, little, NUMBERING),
    syscalls: EXTRA,
    hooks(cpu, syscall) {
      cpu.onInterrupt((n) => (n === SYSCALL ? syscall() : cpu.stop()));
    },
    callSite: (cpu, ret) => (isCall(word(cpu, ret - 8n, little)) ? Number(ret) - 8 : null),
    returnAddress: (cpu) => cpu.reg(MIPS.ra),
    halt: null,
  };
  return cpu32;
}

export const MIPSEB_LINUX = mipsLinux(false);
/** The ISA profile's emulator: little-endian, with its big-endian twin for programs in that order. */
export const MIPSEL_LINUX: LinuxCpu = { ...mipsLinux(true), bigEndian: MIPSEB_LINUX };
