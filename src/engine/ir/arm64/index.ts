// The IR side of AArch64 (isa/arm64.ts `ir`).
import type { IsaIr } from '../lifter.js';
import { AAPCS64 } from './conventions.js';
import { Arm64Lifter } from './lift-arm64.js';
import { ARM64_REGISTERS } from './registers.js';

export const ARM64_IR: IsaIr = {
  registers: () => ARM64_REGISTERS,
  conventions: () => [AAPCS64],
  lifter: (decoder) => (decoder.mode === 'arm64' ? new Arm64Lifter() : null),
};
