// The IR side of MIPS32, either byte order (isa/mips.ts `ir`).
import type { IsaIr } from '../lifter.js';
import { O32 } from './conventions.js';
import { MipsLifter } from './lift-mips.js';
import { MIPS_REGISTERS } from './registers.js';

export const MIPS_IR: IsaIr = {
  registers: () => MIPS_REGISTERS,
  conventions: () => [O32],
  lifter: (decoder) =>
    decoder.mode === 'mips' || decoder.mode === 'mipsel' ? new MipsLifter(decoder.mode === 'mips') : null,
};
