// x86-64 Linux: system call numbers (arch/x86/entry/syscalls/syscall_64.tbl), their registers, the
// struct stat layout and the thread pointer (FS base).
import { UC } from '../unicorn.js';
import type { LinuxCpu } from './cpu.js';
import { kernelAbi, type StatLayout } from './kernel.js';

/** Register ids (unicorn/x86.h). */
const X64 = {
  rax: 35,
  rbx: 37,
  rcx: 38,
  rdx: 40,
  rsi: 43,
  rdi: 39,
  rbp: 36,
  rsp: 44,
  rip: 41,
  r8: 106,
  r9: 107,
  r10: 108,
  r11: 109,
  eflags: 25,
  fsBase: 250,
} as const;

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

const bits = (...b: number[]) => b.reduce((v, x) => (v | (1 << x)) >>> 0, 0);

/**
 * CPUID of a Nehalem-class CPU: every baseline x86-64 feature the C library requires (Unicorn's own
 * answer lacks FPU, which makes glibc refuse to start), SSE4.2 and POPCNT, and no AVX, which Unicorn does
 * not run: [eax, ebx, ecx, edx] for `leaf`.
 */
function cpuid(leaf: number): number[] {
  switch (leaf >>> 0) {
    case 0:
      return [0xb, 0x756e6547, 0x6c65746e, 0x49656e69];
    case 1:
      // Family 6 model 26; SSE3, SSSE3, CX16, SSE4.1, SSE4.2, POPCNT; FPU, TSC, MSR, PAE, CX8, SEP, CMOV, PAT,
      // CLFSH, MMX, FXSR, SSE, SSE2.
      return [0x106a5, 0x800, bits(0, 9, 13, 19, 20, 23), bits(0, 4, 5, 6, 8, 11, 15, 16, 19, 23, 24, 25, 26)];
    case 0x80000000:
      return [0x80000008, 0, 0, 0];
    case 0x80000001:
      // LAHF in 64-bit mode; SYSCALL, NX, long mode.
      return [0, 0, bits(0), bits(11, 20, 29)];
    case 0x80000008:
      return [0x3028, 0, 0, 0];
    default:
      // Leaves 4, 7, 0xb, 0xd: no cache topology, no extended features (AVX, BMI), no XSAVE.
      return [0, 0, 0, 0];
  }
}

/** The length of the call instruction ending `b`: call rel32, call [rip+d], call reg, call r8–r15. */
function callLength(b: Uint8Array): number {
  if (b[1] === 0xe8) return 5;
  if (b[0] === 0xff && b[1] === 0x15) return 6;
  if (b[4] === 0xff && b[5]! >= 0xd0 && b[5]! <= 0xd7) return 2;
  if (b[3] === 0x41 && b[4] === 0xff && b[5]! >= 0xd0 && b[5]! <= 0xd7) return 3;
  return 0;
}

export const X86_64_LINUX: LinuxCpu = {
  unicorn: { arch: UC.arch.x86, mode: UC.mode.mode64 },
  platform: 'x86_64',
  pc: X64.rip,
  sp: X64.rsp,
  callArgs: [X64.rdi, X64.rsi, X64.rdx, X64.rcx, X64.r8, X64.r9],
  syscall: {
    nr: X64.rax,
    args: [X64.rdi, X64.rsi, X64.rdx, X64.r10, X64.r8, X64.r9],
    result: X64.rax,
    names: new Map(NUMBERS),
  },
  abi: (cpu) => kernelAbi(cpu, STAT, X64.fsBase),
  hooks(cpu, syscall) {
    cpu.onSyscall(syscall);
    cpu.onCpuid(() => {
      const r = cpuid(Number(cpu.reg(X64.rax) & 0xffff_ffffn));
      [X64.rax, X64.rbx, X64.rcx, X64.rdx].forEach((reg, i) => cpu.setReg(reg, BigInt(r[i]!)));
    });
  },
  callLength,
  // abort()'s last resort.
  halt: 0xf4,
};
