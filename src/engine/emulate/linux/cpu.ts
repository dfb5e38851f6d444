// What the Linux emulation needs of a CPU: Unicorn's engine for it, its registers, its system-call table
// and how calls reach the kernel. One per CPU, held by that CPU's ISA profile (isa/*.ts: `emulator`).
import type { Cpu } from '../unicorn.js';
import type { KernelAbi } from './kernel.js';

export interface LinuxCpu {
  unicorn: { arch: number; mode: number };
  /** AT_PLATFORM, as its kernel names it. */
  platform: string;
  /** Register ids (Unicorn's) of the program counter and stack pointer. */
  pc: number;
  sp: number;
  /** Integer argument registers of a C function call, in order (library calls' arguments). */
  callArgs: number[];
  /** A system call's number, arguments and result registers, and the names of the numbers. */
  syscall: { nr: number; args: number[]; result: number; names: ReadonlyMap<number, string> };
  abi(cpu: Cpu): KernelAbi;
  /** Sets up whatever else the CPU needs answered (x86's CPUID); `syscall` runs each system call. */
  hooks(cpu: Cpu, syscall: () => void): void;
  /** The length of the call instruction that ends the bytes before a return address (0: none). */
  callLength(before: Uint8Array): number;
  /** A one-byte instruction Unicorn stops at quietly (x86 `hlt`) that Linux makes a fault; null if none. */
  halt: number | null;
}
