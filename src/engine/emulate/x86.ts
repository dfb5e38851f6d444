// x86 as the emulator sees it whatever the system: Unicorn's register ids, the CPUID a guest is told and
// the call instructions found before a return address.
import type { Cpu } from './unicorn.js';

/** Register ids (unicorn/x86.h). */
export const X64 = {
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
  gsBase: 251,
} as const;

/** Register ids of 32-bit mode (unicorn/x86.h). */
export const X86 = {
  eax: 19,
  ebx: 21,
  ecx: 22,
  edx: 24,
  esi: 29,
  edi: 23,
  ebp: 20,
  eip: 26,
  esp: 30,
  ds: 17,
  es: 28,
  fs: 32,
  gs: 33,
  ss: 49,
} as const;

/** Unicorn's ids of the x87 control word and SSE's MXCSR (the same in both modes). */
const FPCW = 246;
const MXCSR = 249;

/**
 * The floating-point state a new process starts with: x87 at the precision the system sets (Linux 0x37f,
 * extended; Windows 0x27f, double), every exception masked. Unicorn starts both at 0: single precision, so
 * a program whose C library does not reset them (glibc) computes doubles on the x87 as floats.
 */
export function initFloatingPoint(cpu: Cpu, controlWord: number): void {
  cpu.setReg(FPCW, BigInt(controlWord));
  cpu.setReg(MXCSR, 0x1f80n);
}

/**
 * A 32-bit read/write data segment descriptor: `limit` bytes (4 KiB pages when `pages`) at `base`, at
 * privilege `dpl` (3: loadable with a user selector, as Linux's TLS segment).
 */
export function dataDescriptor(base: bigint, limit: number, opts: { pages?: boolean; dpl?: number } = {}): Uint8Array {
  const b = Number(base);
  const access = 0x92 | ((opts.dpl ?? 0) << 5);
  const flags = 0x40 | (opts.pages ? 0x80 : 0) | ((limit >> 16) & 0xf);
  return Uint8Array.of(
    limit & 0xff,
    (limit >> 8) & 0xff,
    b & 0xff,
    (b >> 8) & 0xff,
    (b >> 16) & 0xff,
    access,
    flags,
    (b >>> 24) & 0xff,
  );
}

/**
 * A GDT at `table` (a mapped page) with a flat 32-bit data segment at selector 0x10 loaded into SS, DS and
 * ES: Unicorn reloads segments when the table changes, and its defaults would then leave a 16-bit stack.
 */
export function flatSegments(cpu: Cpu, table: bigint): void {
  cpu.write(table + 0x10n, dataDescriptor(0n, 0xfffff, { pages: true }));
  cpu.setGdt(table, 0xff);
  for (const segment of [X86.ss, X86.ds, X86.es]) cpu.setReg(segment, 0x10n);
}

const bits = (...b: number[]) => b.reduce((v, x) => (v | (1 << x)) >>> 0, 0);

/**
 * CPUID of a Nehalem-class CPU: every baseline x86-64 feature the C library requires (Unicorn's own
 * answer lacks FPU, which makes glibc refuse to start), SSE4.2 and POPCNT, and no AVX, which Unicorn does
 * not run: [eax, ebx, ecx, edx] for `leaf`.
 */
export function cpuid(leaf: number): number[] {
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
export function callLength(b: Uint8Array): number {
  if (b[1] === 0xe8) return 5;
  if (b[0] === 0xff && b[1] === 0x15) return 6;
  if (b[4] === 0xff && b[5]! >= 0xd0 && b[5]! <= 0xd7) return 2;
  if (b[3] === 0x41 && b[4] === 0xff && b[5]! >= 0xd0 && b[5]! <= 0xd7) return 3;
  return 0;
}
