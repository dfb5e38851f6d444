// What the Linux emulation needs of a CPU: Unicorn's engine for it, its registers, its system-call table
// and how calls reach the kernel. One per CPU, held by that CPU's ISA profile (isa/*.ts: `emulator`).
import type { Cpu } from '../unicorn.js';
import type { Handler, KernelAbi } from './kernel.js';

export interface LinuxCpu {
  unicorn: { arch: number; mode: number };
  /** AT_PLATFORM, as its kernel names it. */
  platform: string;
  /** Register ids (Unicorn's) of the program counter and stack pointer. */
  pc: number;
  sp: number;
  /** Its word size: pointers, longs and size_t. */
  bits: 32 | 64;
  /** Integer argument `i` of a C function call at its first instruction (library calls' arguments). */
  callArg(cpu: Cpu, i: number): bigint;
  /** A system call's number, arguments and result registers, and the names of the numbers. */
  syscall: { nr: number; args: number[]; result: number; names: ReadonlyMap<number, string> };
  /** A system call's arguments, when not all in `syscall.args` (MIPS: the fifth and sixth on the stack). */
  syscallArgs?(cpu: Cpu): bigint[];
  /** Puts a system call's result (or -errno) where the program reads it, when not in `syscall.result` alone. */
  setSyscallResult?(cpu: Cpu, value: bigint): void;
  abi(cpu: Cpu): KernelAbi;
  /** System calls only this CPU has (i386's socketcall), beside the shared ones. */
  syscalls?: Record<string, Handler>;
  /** Sets up whatever else the CPU needs answered (x86's CPUID); `syscall` runs each system call. */
  hooks(cpu: Cpu, syscall: () => void): void;
  /** Where to go on from the program counter after the run stopped (ARM: with the Thumb bit); the PC itself if absent. */
  resumeAt?(cpu: Cpu): bigint;
  /** The address of the call instruction that returns to `ret`, or null when none is before it. */
  callSite(cpu: Cpu, ret: bigint): number | null;
  /** At a function's first instruction: where it returns to (the stack's top, or the link register). */
  returnAddress(cpu: Cpu): bigint | null;
  /** The same CPU in big-endian byte order, for the CPUs that have both (MIPS); the profile's is little-endian. */
  bigEndian?: LinuxCpu;
  /** A one-byte instruction Unicorn stops at quietly (x86 `hlt`) that Linux makes a fault; null if none. */
  halt: number | null;
}

/** The x87 control word Linux gives a new x86 process (FNINIT's: extended precision, exceptions masked). */
export const LINUX_FPU = 0x37f;
