// x86 as the emulator sees it whatever the system: Unicorn's register ids, the CPUID a guest is told and
// the call instructions found before a return address.

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
export const X86 = { eax: 19, ebx: 21, ecx: 22, edx: 24, eip: 26, esp: 30, ds: 17, es: 28, fs: 32, ss: 49 } as const;

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
