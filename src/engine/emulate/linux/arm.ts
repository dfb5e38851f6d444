// 32-bit ARM Linux (EABI): system call numbers (arch/arm/tools/syscall.tbl), `svc #0` with the number in
// r7 and arguments in r0–r6, struct stat64 (64-bit fields 8-byte aligned), 4-byte words, the thread
// pointer in TPIDRURO (set by the ARM-private set_tls call), and code in both ARM and Thumb state: a
// return address with its low bit set returns to Thumb code.
import { callBefore } from '../call-site.js';
import { UC, type Cpu } from '../unicorn.js';
import type { LinuxCpu } from './cpu.js';
import { LEGACY_32 } from './legacy-32.js';
import { kernelAbi32, threadPointerCall, type Handler, type StatLayout } from './kernel.js';

/** Register ids (unicorn/arm.h). */
const ARM = { r0: 66, r7: 73, sp: 12, lr: 10, pc: 11, cpsr: 3, fpexc: 4, tpidruro: 113 } as const;
const r = (n: number) => ARM.r0 + n;
/** Unicorn's interrupt number for `svc` (EXCP_SWI). */
const SVC = 2;
/** CPSR's Thumb bit; FPEXC's enable bit (the VFP a hard-float C library uses is off until it is set). */
const THUMB = 0x20n;
const FPEXC_EN = 0x4000_0000n;

const NUMBERS: [number, string][] = [
  ...LEGACY_32,
  [220, 'madvise'],
  [248, 'exit_group'],
  [256, 'set_tid_address'],
  [263, 'clock_gettime'],
  [265, 'clock_nanosleep'],
  [268, 'tgkill'],
  [281, 'socket'],
  [282, 'bind'],
  [283, 'connect'],
  [284, 'listen'],
  [289, 'send'],
  [290, 'sendto'],
  [292, 'recvfrom'],
  [293, 'shutdown'],
  [294, 'setsockopt'],
  [295, 'getsockopt'],
  [296, 'sendmsg'],
  [322, 'openat'],
  [323, 'mkdirat'],
  [327, 'newfstatat'],
  [328, 'unlinkat'],
  [329, 'renameat'],
  [332, 'readlinkat'],
  [334, 'faccessat'],
  [338, 'set_robust_list'],
  [358, 'dup3'],
  [359, 'pipe2'],
  [369, 'prlimit64'],
  [374, 'sendmmsg'],
  [382, 'renameat2'],
  [384, 'getrandom'],
  [387, 'execveat'],
  [397, 'statx'],
  [398, 'rseq'],
  [0xf0005, 'set_tls'],
];

/** struct stat64 of ARM EABI: like i386's, with the 64-bit size and blocks 8-byte aligned. */
const STAT64: StatLayout = {
  bytes: 104,
  ino: 96,
  nlink: { at: 20, width: 4 },
  mode: 16,
  uid: 24,
  gid: 28,
  size: 48,
  blksize: 56,
  blocks: 64,
};

const EXTRA: Record<string, Handler> = {
  set_tls: threadPointerCall(ARM.tpidruro),
};

/** The call ending before a return address: in ARM state bl/blx (4 bytes); in Thumb, bl/blx (4) or blx rN (2). */
function callLength(thumb: boolean) {
  return (b: Uint8Array): number => {
    const v = new DataView(b.buffer, b.byteOffset, b.length);
    if (!thumb) {
      const w = v.getUint32(b.length - 4, true);
      return (w & 0x0f00_0000) >>> 0 === 0x0b00_0000 ||
        (w & 0xfe00_0000) >>> 0 === 0xfa00_0000 ||
        (w & 0x0fff_fff0) === 0x012f_ff30
        ? 4
        : 0;
    }
    const last = v.getUint16(b.length - 2, true);
    if ((last & 0xff87) === 0x4780) return 2;
    const first = v.getUint16(b.length - 4, true);
    return (first & 0xf800) === 0xf000 && (last & 0xc000) === 0xc000 ? 4 : 0;
  };
}

export const ARM_LINUX: LinuxCpu = {
  unicorn: { arch: UC.arch.arm, mode: UC.mode.arm },
  platform: 'v7l',
  bits: 32,
  pc: ARM.pc,
  sp: ARM.sp,
  callArg: (cpu: Cpu, i: number) => cpu.reg(r(i)),
  syscall: { nr: ARM.r7, args: [0, 1, 2, 3, 4, 5, 6].map(r), result: r(0), names: new Map(NUMBERS) },
  abi: () => kernelAbi32('armv7l', STAT64),
  syscalls: EXTRA,
  hooks(cpu, syscall) {
    cpu.setReg(ARM.fpexc, FPEXC_EN);
    // Other exceptions (undefined instructions, breakpoints) are the program's faults: the run stops there.
    cpu.onInterrupt((n) => (n === SVC ? syscall() : cpu.stop()));
  },
  resumeAt: (cpu) => cpu.reg(ARM.pc) | (cpu.reg(ARM.cpsr) & THUMB ? 1n : 0n),
  callSite: (cpu, ret) => callBefore(cpu, callLength((ret & 1n) === 1n), ret & ~1n),
  returnAddress: (cpu) => cpu.reg(ARM.lr),
  halt: null,
};
