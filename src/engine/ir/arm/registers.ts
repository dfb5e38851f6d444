// 32-bit ARM locations in the IR (A32 and Thumb alike): r0–r15 at their numbers (pc is never a location
// the IR reads or writes: a read is the instruction's address + 8 in ARM state, + 4 in Thumb, and a write is
// a transfer), the cpsr flags, the fpscr flags (vcmp; vmrs copies them to the cpsr), d0–d31 whole (an s
// register is half of one, a q register two), one location for coprocessor and system registers (the
// thread pointer in cp15) and two scratch registers.
import type { RegisterFile } from '../ir.js';

export const SP = 13;
export const LR = 14;
export const PC = 15;
export const FLAGS = 16;
export const FPSCR = 17;
export const D0 = 18;
export const SYS = 50;
export const TEMP = 51;

function armRegisters(): RegisterFile {
  const names: string[] = [];
  for (let i = 0; i < 13; i++) names.push(`r${i}`);
  names.push('sp', 'lr', 'pc', 'cpsr', 'fpscr');
  for (let i = 0; i < 32; i++) names.push(`d${i}`);
  names.push('sys', 'tmp0', 'tmp1');
  const widths = names.map((n) => (n[0] === 'd' ? 8 : n.startsWith('tmp') ? 16 : 4));
  return { names, widths, sp: SP, flags: FLAGS, addressSize: 4, temp: TEMP };
}

export const ARM_REGISTERS: RegisterFile = armRegisters();
