// The MIPS O32 calling convention: a0–a3 carry the first four argument words, the rest lie on the stack
// above the 16 bytes the caller reserves for the callee to store a0–a3 (the callee's entry sp + 16); the
// first two floating-point arguments go in $f12 and $f14 when they lead the list; v0 (v0:v1 for 64 bits)
// and $f0 return. at, v0–v1, a0–a3, t0–t9, ra, hi/lo, $f0–$f19 and the condition codes do not survive a
// call; $gp is the caller's to restore.
import type { CallingConvention } from '../lifter.js';
import { A0, F0, FCC, HI, LO, RA, V0 } from './registers.js';

const range = (from: number, n: number): number[] => [...Array(n).keys()].map((i) => from + i);

export const O32: CallingConvention = {
  name: 'o32',
  intArgs: range(A0, 4),
  floatArgs: [F0 + 12, F0 + 14],
  positional: false,
  stackArgsAt: 16,
  stackSlot: 4,
  intReturn: V0,
  floatReturn: F0,
  clobbers: [1, V0, V0 + 1, ...range(A0, 4), ...range(8, 8), 24, 25, RA, HI, LO, ...range(F0, 20), FCC],
};
