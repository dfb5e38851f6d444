// The IR side of MIPS32, either byte order (isa/mips.ts `ir`).
import type { IsaIr } from '../lifter.js';
import { O32 } from './conventions.js';
import { MipsLifter } from './lift-mips.js';
import { GP, MIPS_REGISTERS, T9 } from './registers.js';

/** The o32 ABI's gp points 0x7ff0 past the start of the GOT, so signed 16-bit offsets reach 64 KiB of it. */
const GP_BIAS = 0x7ff0;

export const MIPS_IR: IsaIr = {
  registers: () => MIPS_REGISTERS,
  conventions: () => [O32],
  lifter: (decoder) =>
    decoder.mode === 'mips' || decoder.mode === 'mipsel' ? new MipsLifter(decoder.mode === 'mips') : null,
  // Position-independent code is called through t9 and computes gp from it; a function that does not
  // (a static one called directly) runs with the caller's gp, which is the module's.
  entryValues: (image, start) => {
    const got = image.sections.find((s) => s.name === '.got');
    return [{ r: T9, v: start }, ...(got ? [{ r: GP, v: got.vaddr + GP_BIAS }] : [])];
  },
};
