// The IR side of x86 and x86-64 (isa/x86.ts `ir`).
import { X86Decoder } from '../../disasm/x86-decoder.js';
import type { IsaIr } from '../lifter.js';
import { x86Conventions } from './conventions.js';
import { X86Lifter } from './lift-x86.js';
import { x86Registers } from './registers.js';
import { resolveX87Stack } from './x87.js';

const bitsOf = (mode: string): 32 | 64 => (mode === 'x86_64' ? 64 : 32);

export const X86_IR: IsaIr = {
  registers: (mode) => x86Registers(bitsOf(mode)),
  conventions: (mode, platform) => x86Conventions(bitsOf(mode), platform),
  lifter: (decoder) => (decoder instanceof X86Decoder ? new X86Lifter(decoder) : null),
  // `mov r32, [esp]` (8b, ModRM 00 rrr 100, SIB 24) then `ret`.
  thunkWrites: (b, o) =>
    b[o] === 0x8b && (b[o + 1]! & 0xc7) === 0x04 && b[o + 2] === 0x24 && b[o + 3] === 0xc3
      ? (b[o + 1]! >> 3) & 7
      : null,
  resolve: resolveX87Stack,
};
