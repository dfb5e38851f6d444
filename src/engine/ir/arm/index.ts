// The IR side of 32-bit ARM, A32 and Thumb (isa/arm.ts `ir`).
import type { IsaIr } from '../lifter.js';
import { armConventions } from './conventions.js';
import { A32Lifter, ThumbLifter } from './lift-arm.js';
import { ARM_REGISTERS } from './registers.js';

export const ARM_IR: IsaIr = {
  registers: () => ARM_REGISTERS,
  conventions: (_mode, platform) => armConventions(platform),
  lifter: (decoder) => (decoder.mode === 'thumb' ? new ThumbLifter() : decoder.mode === 'arm' ? new A32Lifter() : null),
};
