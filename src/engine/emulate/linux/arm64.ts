// AArch64 Linux: the generic system-call numbers (include/uapi/asm-generic/unistd.h), `svc #0` with the
// number in x8 and arguments in x0–x5, the generic struct stat, and tpidr_el0 as the thread pointer.
import { callBefore } from '../call-site.js';
import { UC } from '../unicorn.js';
import type { LinuxCpu } from './cpu.js';
import { kernelAbi, type StatLayout } from './kernel.js';

/** Register ids (unicorn/arm64.h). */
const A64 = { x0: 199, x8: 207, lr: 2, sp: 4, pc: 260, tpidr: 262 } as const;
const x = (n: number) => A64.x0 + n;
/** Unicorn's interrupt number for `svc` (EXCP_SWI). */
const SVC = 2;

const NUMBERS: [number, string][] = [
  [17, 'getcwd'],
  [23, 'dup'],
  [24, 'dup3'],
  [25, 'fcntl'],
  [29, 'ioctl'],
  [34, 'mkdirat'],
  [35, 'unlinkat'],
  [38, 'renameat'],
  [48, 'faccessat'],
  [49, 'chdir'],
  [56, 'openat'],
  [57, 'close'],
  [59, 'pipe2'],
  [62, 'lseek'],
  [63, 'read'],
  [64, 'write'],
  [65, 'readv'],
  [66, 'writev'],
  [67, 'pread64'],
  [73, 'ppoll'],
  [78, 'readlinkat'],
  [79, 'newfstatat'],
  [80, 'fstat'],
  [93, 'exit'],
  [94, 'exit_group'],
  [96, 'set_tid_address'],
  [98, 'futex'],
  [99, 'set_robust_list'],
  [101, 'nanosleep'],
  [113, 'clock_gettime'],
  [115, 'clock_nanosleep'],
  [123, 'sched_getaffinity'],
  [124, 'sched_yield'],
  [129, 'kill'],
  [131, 'tgkill'],
  [132, 'sigaltstack'],
  [134, 'rt_sigaction'],
  [135, 'rt_sigprocmask'],
  [144, 'setgid'],
  [146, 'setuid'],
  [157, 'setsid'],
  [160, 'uname'],
  [163, 'getrlimit'],
  [166, 'umask'],
  [169, 'gettimeofday'],
  [172, 'getpid'],
  [173, 'getppid'],
  [174, 'getuid'],
  [175, 'geteuid'],
  [176, 'getgid'],
  [177, 'getegid'],
  [178, 'gettid'],
  [198, 'socket'],
  [200, 'bind'],
  [201, 'listen'],
  [203, 'connect'],
  [206, 'sendto'],
  [207, 'recvfrom'],
  [208, 'setsockopt'],
  [209, 'getsockopt'],
  [210, 'shutdown'],
  [211, 'sendmsg'],
  [214, 'brk'],
  [215, 'munmap'],
  [216, 'mremap'],
  [220, 'clone'],
  [221, 'execve'],
  [222, 'mmap'],
  [226, 'mprotect'],
  [233, 'madvise'],
  [260, 'wait4'],
  [261, 'prlimit64'],
  [269, 'sendmmsg'],
  [276, 'renameat2'],
  [278, 'getrandom'],
  [281, 'execveat'],
  [293, 'rseq'],
  [435, 'clone3'],
  [439, 'faccessat2'],
];

/** The generic struct stat: dev, ino, mode, nlink (32-bit), uid, gid, rdev, pad, size, blksize, pad, blocks. */
const STAT: StatLayout = {
  bytes: 128,
  ino: 8,
  nlink: { at: 20, width: 4 },
  mode: 16,
  uid: 24,
  gid: 28,
  size: 48,
  blksize: 56,
  blocks: 64,
};

/** The length of the call ending `b` (the 4 bytes before a return address): bl imm26, blr xN. */
function callLength(b: Uint8Array): number {
  if (b.length < 4) return 0;
  const w = new DataView(b.buffer, b.byteOffset + b.length - 4, 4).getUint32(0, true);
  return (w & 0xfc00_0000) >>> 0 === 0x9400_0000 || (w & 0xffff_fc1f) >>> 0 === 0xd63f_0000 ? 4 : 0;
}

export const AARCH64_LINUX: LinuxCpu = {
  unicorn: { arch: UC.arch.arm64, mode: UC.mode.arm },
  platform: 'aarch64',
  pc: A64.pc,
  sp: A64.sp,
  bits: 64,
  callArg: (cpu, i) => cpu.reg(x(i)),
  syscall: { nr: A64.x8, args: [0, 1, 2, 3, 4, 5].map(x), result: x(0), names: new Map(NUMBERS) },
  abi: (cpu) => kernelAbi(cpu, 'aarch64', STAT, A64.tpidr),
  hooks(cpu, syscall) {
    // Other exceptions (brk, undefined instructions) are the program's faults: the run stops at them.
    cpu.onInterrupt((n) => (n === SVC ? syscall() : cpu.stop()));
  },
  callSite: (cpu, ret) => callBefore(cpu, callLength, ret),
  returnAddress: (cpu) => cpu.reg(A64.lr),
  halt: null,
};
