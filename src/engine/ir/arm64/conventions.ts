// The AArch64 procedure call standard (AAPCS64, as Linux, Android and the BSDs use it): x0–x7 and v0–v7
// carry arguments, further ones lie from the caller's stack pointer up (the callee's entry sp + 0), x0 and
// v0 return; x0–x18, x30, v0–v7, v16–v31 and the flags do not survive a call (v8–v15 keep their low 64
// bits only, which the IR does not split).
import type { CallingConvention } from '../lifter.js';
import { FLAGS, LR, V0 } from './registers.js';

const range = (from: number, n: number): number[] => [...Array(n).keys()].map((i) => from + i);

export const AAPCS64: CallingConvention = {
  name: 'aapcs64',
  intArgs: range(0, 8),
  floatArgs: range(V0, 8),
  positional: false,
  stackArgsAt: 0,
  stackSlot: 8,
  intReturn: 0,
  floatReturn: V0,
  clobbers: [...range(0, 19), LR, ...range(V0, 8), ...range(V0 + 16, 16), FLAGS],
};
