// The ARM procedure call standard: r0–r3 carry the first arguments, the rest lie from the caller's stack
// pointer up (the callee's entry sp + 0), r0 returns (r0:r1 for 64 bits, which the IR reads as r0);
// r0–r3, r12, lr and the flags do not survive a call. The hard-float variant (AAPCS-VFP: Linux armhf,
// Windows) also passes floating-point arguments in d0–d7 (s0–s15 are their halves) and returns in d0;
// d0–d7 and d16–d31 do not survive. The base standard (soft-float and softfp: Android, iOS, bare metal)
// passes them in core registers.
import type { Platform } from '../../../contracts/result.js';
import type { CallingConvention } from '../lifter.js';
import { D0, FLAGS, FPSCR, LR } from './registers.js';

const range = (from: number, n: number): number[] => [...Array(n).keys()].map((i) => from + i);

export const AAPCS: CallingConvention = {
  name: 'aapcs',
  intArgs: range(0, 4),
  floatArgs: [],
  positional: false,
  stackArgsAt: 0,
  stackSlot: 4,
  intReturn: 0,
  floatReturn: null,
  clobbers: [...range(0, 4), 12, LR, ...range(D0, 8), ...range(D0 + 16, 16), FLAGS, FPSCR],
};

export const AAPCS_VFP: CallingConvention = { ...AAPCS, name: 'aapcs-vfp', floatArgs: range(D0, 8), floatReturn: D0 };

/**
 * Linux on ARMv7 is armhf and Windows on ARM hard-float; Android's armeabi-v7a, iOS and unknown targets are
 * softfp or soft-float. (An ELF's e_flags say which for certain; the identity does not carry them yet.)
 */
export const armConventions = (platform: Platform): readonly CallingConvention[] =>
  platform === 'linux' || platform === 'windows' ? [AAPCS_VFP, AAPCS] : [AAPCS, AAPCS_VFP];
