// AArch64 locations in the IR: x0–x30 and sp at their encoding numbers (register 31 of an instruction is
// sp or the zero register, which is no location: it reads as 0 and writes to it are dropped), v0–v31 whole
// (b/h/s/d/q are reads of their low bytes; a scalar write zeroes the rest), the nzcv flags, one location
// for the system registers (tpidr_el0, fpcr, fpsr…) and the two scratch registers.
import type { RegisterFile } from '../ir.js';

export const SP = 31;
export const LR = 30;
export const V0 = 32;
export const FLAGS = 64;
export const SYS = 65;
export const TEMP = 66;

function arm64Registers(): RegisterFile {
  const names: string[] = [];
  const widths: number[] = [];
  for (let i = 0; i < 31; i++) names.push(`x${i}`);
  names.push('sp');
  for (let i = 0; i < 32; i++) names.push(`v${i}`);
  names.push('nzcv', 'sys', 'tmp0', 'tmp1');
  for (let i = 0; i < 32; i++) widths.push(8);
  for (let i = 0; i < 32; i++) widths.push(16);
  widths.push(8, 8, 16, 16);
  return { names, widths, sp: SP, flags: FLAGS, addressSize: 8, temp: TEMP };
}

export const ARM64_REGISTERS: RegisterFile = arm64Registers();
