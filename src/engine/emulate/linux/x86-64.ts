// x86-64 Linux: system call numbers (arch/x86/entry/syscalls/syscall_64.tbl), their registers, the
// struct stat layout and the thread pointer (FS base).
import { callBefore } from '../call-site.js';
import { UC } from '../unicorn.js';
import { callLength, cpuid, initFloatingPoint, X64 } from '../x86.js';
import { LINUX_FPU, type LinuxCpu } from './cpu.js';
import { kernelAbi, type StatLayout } from './kernel.js';

const NUMBERS: [number, string][] = [
  [0, 'read'],
  [1, 'write'],
  [2, 'open'],
  [3, 'close'],
  [4, 'stat'],
  [5, 'fstat'],
  [6, 'lstat'],
  [7, 'poll'],
  [8, 'lseek'],
  [9, 'mmap'],
  [10, 'mprotect'],
  [11, 'munmap'],
  [12, 'brk'],
  [13, 'rt_sigaction'],
  [14, 'rt_sigprocmask'],
  [16, 'ioctl'],
  [17, 'pread64'],
  [19, 'readv'],
  [20, 'writev'],
  [21, 'access'],
  [22, 'pipe'],
  [24, 'sched_yield'],
  [25, 'mremap'],
  [28, 'madvise'],
  [32, 'dup'],
  [33, 'dup2'],
  [35, 'nanosleep'],
  [37, 'alarm'],
  [39, 'getpid'],
  [41, 'socket'],
  [42, 'connect'],
  [44, 'sendto'],
  [45, 'recvfrom'],
  [48, 'shutdown'],
  [49, 'bind'],
  [50, 'listen'],
  [54, 'setsockopt'],
  [55, 'getsockopt'],
  [56, 'clone'],
  [57, 'fork'],
  [58, 'vfork'],
  [59, 'execve'],
  [60, 'exit'],
  [61, 'wait4'],
  [62, 'kill'],
  [63, 'uname'],
  [72, 'fcntl'],
  [79, 'getcwd'],
  [80, 'chdir'],
  [82, 'rename'],
  [83, 'mkdir'],
  [85, 'creat'],
  [87, 'unlink'],
  [89, 'readlink'],
  [95, 'umask'],
  [96, 'gettimeofday'],
  [97, 'getrlimit'],
  [102, 'getuid'],
  [104, 'getgid'],
  [105, 'setuid'],
  [106, 'setgid'],
  [107, 'geteuid'],
  [108, 'getegid'],
  [110, 'getppid'],
  [111, 'getpgrp'],
  [112, 'setsid'],
  [131, 'sigaltstack'],
  [158, 'arch_prctl'],
  [186, 'gettid'],
  [201, 'time'],
  [202, 'futex'],
  [204, 'sched_getaffinity'],
  [218, 'set_tid_address'],
  [228, 'clock_gettime'],
  [230, 'clock_nanosleep'],
  [231, 'exit_group'],
  [234, 'tgkill'],
  [257, 'openat'],
  [258, 'mkdirat'],
  [262, 'newfstatat'],
  [263, 'unlinkat'],
  [264, 'renameat'],
  [267, 'readlinkat'],
  [269, 'faccessat'],
  [273, 'set_robust_list'],
  [292, 'dup3'],
  [293, 'pipe2'],
  [302, 'prlimit64'],
  [316, 'renameat2'],
  [318, 'getrandom'],
  [322, 'execveat'],
  [334, 'rseq'],
  [435, 'clone3'],
  [439, 'faccessat2'],
];

/** struct stat (arch/x86/include/uapi/asm/stat.h): nlink is 64-bit and comes before mode. */
const STAT: StatLayout = {
  bytes: 144,
  ino: 8,
  nlink: { at: 16, width: 8 },
  mode: 24,
  uid: 28,
  gid: 32,
  size: 48,
  blksize: 56,
  blocks: 64,
};

export const X86_64_LINUX: LinuxCpu = {
  unicorn: { arch: UC.arch.x86, mode: UC.mode.mode64 },
  platform: 'x86_64',
  pc: X64.rip,
  sp: X64.rsp,
  bits: 64,
  callArg: (cpu, i) => cpu.reg([X64.rdi, X64.rsi, X64.rdx, X64.rcx, X64.r8, X64.r9][i]!),
  syscall: {
    nr: X64.rax,
    args: [X64.rdi, X64.rsi, X64.rdx, X64.r10, X64.r8, X64.r9],
    result: X64.rax,
    names: new Map(NUMBERS),
  },
  abi: (cpu) => kernelAbi(cpu, 'x86_64', STAT, X64.fsBase),
  hooks(cpu, syscall) {
    initFloatingPoint(cpu, LINUX_FPU);
    cpu.onSyscall(syscall);
    cpu.onCpuid(() => {
      const r = cpuid(Number(cpu.reg(X64.rax) & 0xffff_ffffn));
      [X64.rax, X64.rbx, X64.rcx, X64.rdx].forEach((reg, i) => cpu.setReg(reg, BigInt(r[i]!)));
    });
  },
  callSite: (cpu, ret) => callBefore(cpu, callLength, ret),
  returnAddress: (cpu) => {
    const top = cpu.read(cpu.reg(X64.rsp), 8);
    return top ? new DataView(top.buffer).getBigUint64(0, true) : null;
  },
  // abort()'s last resort.
  halt: 0xf4,
};
