// MIPS32 locations in the IR: the general registers at their numbers ($0 is no location: it reads as 0
// and writes to it are dropped), hi and lo, f0–f31 at 64 bits (doubles whole, as FR=1 and the FPXX code of
// Debian's mipsel use them; a single is the low half, mfhc1/mthc1 the high), the FPU condition codes, one
// location for coprocessor 0 and the hardware registers (rdhwr $29: the thread pointer), two scratch ones.
import type { RegisterFile } from '../ir.js';

// prettier-ignore
const GPR = [
  'zero', 'at', 'v0', 'v1', 'a0', 'a1', 'a2', 'a3', 't0', 't1', 't2', 't3', 't4', 't5', 't6', 't7',
  's0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 't8', 't9', 'k0', 'k1', 'gp', 'sp', 'fp', 'ra',
];

export const V0 = 2;
export const A0 = 4;
export const T9 = 25;
export const GP = 28;
export const SP = 29;
export const RA = 31;
export const HI = 32;
export const LO = 33;
export const F0 = 34;
export const FCC = 66;
export const SYS = 67;
export const TEMP = 68;

function mipsRegisters(): RegisterFile {
  const names = [...GPR, 'hi', 'lo'];
  for (let i = 0; i < 32; i++) names.push(`f${i}`);
  names.push('fcc', 'sys', 'tmp0', 'tmp1');
  const widths = names.map((n, i) => ((i >= F0 && i < F0 + 32) || n.startsWith('tmp') ? 8 : 4));
  return { names, widths, sp: SP, flags: FCC, addressSize: 4, temp: TEMP };
}

export const MIPS_REGISTERS: RegisterFile = mipsRegisters();
