// MIPS32, either byte order: everything the engine knows of it beyond the decoder (disasm/mips-decoder.ts).
import { MIPS_IR } from '../ir/mips/index.js';
import type { ClassTable } from './classes.js';
import { RETURN_REG, type Dialect } from './dialect.js';
import { littleWord } from './padding.js';
import type { IsaProfile } from './profile.js';
import { MIPSEL_LINUX } from '../emulate/linux/mips.js';

const CLASSES: ClassTable = [
  [/^(jal|jalr|bal|bgezal|bltzal)$/, 'call'],
  [/^(j|b)$/, 'jump'],
  [/^(beq|bne|bgez|bltz|blez|bgtz|beqz|bnez|bc1[tf])/, 'branch'],
  [/^(ll|sc|sync)$/, 'atomic'],
  [/^(lb|lbu|lh|lhu|lw|lwl|lwr|lwc1|ldc1)$/, 'load'],
  [/^(sb|sh|sw|swl|swr|swc1|sdc1)$/, 'store'],
  [/^(move|li|lui|mfhi|mflo|mthi|mtlo|mfc1|mtc1)$/, 'move'],
  [/^(movn|movz|movf|movt)$/, 'select'],
  [/^(add|addu|addi|addiu)$/, 'add'],
  [/^(sub|subu|neg|negu)$/, 'sub'],
  [/^(mult|multu|mul|madd|maddu|msub|msubu)$/, 'mul'],
  [/^(div|divu)$/, 'div'],
  [/^(and|andi|or|ori|xor|xori|nor|not)$/, 'logic'],
  [/^(sll|srl|sra|sllv|srlv|srav|rotr|rotrv)$/, 'shift'],
  [/^(slt|slti|sltu|sltiu)$/, 'compare'],
  [/^(seb|seh)$/, 'extend'],
  [/^(ext|ins)$/, 'bitfield'],
  [/^(clz|clo|wsbh)$/, 'bit'],
  [/\.(s|d|w|l)$|^c\./, 'fp'],
];

const DIALECT: Dialect = {
  family: 'mips',
  classes: CLASSES,
  frameAccess: /\((sp|fp|s8)\)/,
  transfer: /^(j|b)/,
  xor: /^(xori?)$/,
  transferClass: (m, ops) => (m === 'jr' ? [RETURN_REG.test(ops) ? 'ret' : 'jump'] : null),
  stackStrings: false,
  memoryOperands: false,
};

export const MIPS: IsaProfile = {
  architecture: 'mips',
  modeFor: (endianness) => (endianness === 'big' ? 'mips' : 'mipsel'),
  thumb: false,
  step: 4,
  /** o32: at, v0-v1, a0-a3, t0-t9, ra. */
  callClobbers: (0xfffe | (1 << 24) | (1 << 25) | (1 << 31)) >>> 0,
  // Zero fill (a nop in either byte order).
  padding: (b, off) => (littleWord(b, off) === 0 ? 4 : 0),
  switchTables: 'mips',
  globalPointer: true,
  dialect: DIALECT,
  pebAccess: null,
  ir: MIPS_IR,
  emulator: MIPSEL_LINUX,
  names: { model: 'mips-32', capa: 'mips' },
};
