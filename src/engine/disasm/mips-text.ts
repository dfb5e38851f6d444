// MIPS32r2 assembly text in the style of GNU objdump (register names without `$`, the usual pseudo-
// instructions nop/move/li/b/bal/beqz/bnez/negu/not), for the integer ISA, the FPU's common forms and the
// privileged instructions a user binary contains. Anything else prints as `.word 0x…`.
import { addr32, signExtend } from './bits.js';
import type { InstructionText } from './instruction.js';

// prettier-ignore
const GPR = [
  'zero', 'at', 'v0', 'v1', 'a0', 'a1', 'a2', 'a3', 't0', 't1', 't2', 't3', 't4', 't5', 't6', 't7',
  's0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 't8', 't9', 'k0', 'k1', 'gp', 'sp', 's8', 'ra',
];

// prettier-ignore
const SPECIAL_ALU: Record<number, string> = {
  0x20: 'add', 0x21: 'addu', 0x22: 'sub', 0x23: 'subu', 0x24: 'and', 0x25: 'or', 0x26: 'xor', 0x27: 'nor',
  0x2a: 'slt', 0x2b: 'sltu', 0x0a: 'movz', 0x0b: 'movn',
};
const TRAPS: Record<number, string> = {
  0x30: 'tge',
  0x31: 'tgeu',
  0x32: 'tlt',
  0x33: 'tltu',
  0x34: 'teq',
  0x36: 'tne',
};
// prettier-ignore
const LOADS_STORES: Record<number, string> = {
  32: 'lb', 33: 'lh', 34: 'lwl', 35: 'lw', 36: 'lbu', 37: 'lhu', 38: 'lwr', 40: 'sb', 41: 'sh', 42: 'swl',
  43: 'sw', 46: 'swr', 48: 'll', 56: 'sc',
};
const FP_LOADS_STORES: Record<number, string> = { 49: 'lwc1', 53: 'ldc1', 57: 'swc1', 61: 'sdc1' };
// prettier-ignore
const REGIMM_BRANCHES: Record<number, string> = {
  0: 'bltz', 1: 'bgez', 2: 'bltzl', 3: 'bgezl', 16: 'bltzal', 17: 'bgezal', 18: 'bltzall', 19: 'bgezall',
};
const REGIMM_TRAPS: Record<number, string> = { 8: 'tgei', 9: 'tgeiu', 10: 'tlti', 11: 'tltiu', 12: 'teqi', 14: 'tnei' };
const FP_FORMATS: Record<number, string> = { 16: 's', 17: 'd', 20: 'w', 21: 'l', 22: 'ps' };
// prettier-ignore
const FP_OPS: Record<number, string> = {
  0: 'add', 1: 'sub', 2: 'mul', 3: 'div', 4: 'sqrt', 5: 'abs', 6: 'mov', 7: 'neg', 0x0c: 'round.w',
  0x0d: 'trunc.w', 0x0e: 'ceil.w', 0x0f: 'floor.w', 0x12: 'movz', 0x13: 'movn', 0x20: 'cvt.s', 0x21: 'cvt.d',
  0x24: 'cvt.w', 0x25: 'cvt.l',
};
const FP_CONDS = [
  'f',
  'un',
  'eq',
  'ueq',
  'olt',
  'ult',
  'ole',
  'ule',
  'sf',
  'ngle',
  'seq',
  'ngl',
  'lt',
  'nge',
  'le',
  'ngt',
];

const hex = (v: number): string => `0x${v.toString(16)}`;
const gpr = (r: number): string => GPR[r]!;
const fpr = (r: number): string => `$f${r}`;
const t = (mnemonic: string, operands = ''): InstructionText => ({ mnemonic, operands });

export function formatMips(w: number, vaddr: number): InstructionText {
  const op = w >>> 26;
  const rs = (w >>> 21) & 31;
  const rt = (w >>> 16) & 31;
  const rd = (w >>> 11) & 31;
  const imm = w & 0xffff;
  const simm = signExtend(imm, 16);
  const branchTo = hex(addr32(vaddr + 4 + simm * 4));
  const mem = `${simm}(${gpr(rs)})`;
  const ls = LOADS_STORES[op];
  if (ls) return t(ls, `${gpr(rt)},${mem}`);
  const fls = FP_LOADS_STORES[op];
  if (fls) return t(fls, `${fpr(rt)},${mem}`);
  switch (op) {
    case 0:
      return special(w, rs, rt, rd) ?? word(w);
    case 1: {
      if (rt === 17 && rs === 0) return t('bal', branchTo);
      if (rt === 16 && rs === 0) return t('nal');
      const b = REGIMM_BRANCHES[rt];
      if (b) return t(b, `${gpr(rs)},${branchTo}`);
      const tr = REGIMM_TRAPS[rt];
      if (tr) return t(tr, `${gpr(rs)},${simm}`);
      return rt === 31 ? t('synci', mem) : word(w);
    }
    case 2:
    case 3:
    case 29: {
      const next = vaddr + 4;
      const target = hex(addr32(next - (next % 0x10000000) + (w & 0x3ffffff) * 4));
      return t(op === 2 ? 'j' : op === 3 ? 'jal' : 'jalx', target);
    }
    case 4:
    case 20: {
      const l = op === 20 ? 'l' : '';
      if (rs === 0 && rt === 0 && op === 4) return t('b', branchTo);
      if (rt === 0) return t(`beqz${l}`, `${gpr(rs)},${branchTo}`);
      return t(`beq${l}`, `${gpr(rs)},${gpr(rt)},${branchTo}`);
    }
    case 5:
    case 21: {
      const l = op === 21 ? 'l' : '';
      if (rt === 0) return t(`bnez${l}`, `${gpr(rs)},${branchTo}`);
      return t(`bne${l}`, `${gpr(rs)},${gpr(rt)},${branchTo}`);
    }
    case 6:
    case 7:
    case 22:
    case 23:
      if (rt !== 0) return word(w);
      return t(['blez', 'bgtz', 'blezl', 'bgtzl'][op < 8 ? op - 6 : op - 20]!, `${gpr(rs)},${branchTo}`);
    case 8:
      return t('addi', `${gpr(rt)},${gpr(rs)},${simm}`);
    case 9:
      return rs === 0 ? t('li', `${gpr(rt)},${simm}`) : t('addiu', `${gpr(rt)},${gpr(rs)},${simm}`);
    case 10:
      return t('slti', `${gpr(rt)},${gpr(rs)},${simm}`);
    case 11:
      return t('sltiu', `${gpr(rt)},${gpr(rs)},${simm}`);
    case 12:
      return t('andi', `${gpr(rt)},${gpr(rs)},${hex(imm)}`);
    case 13:
      return rs === 0 ? t('li', `${gpr(rt)},${hex(imm)}`) : t('ori', `${gpr(rt)},${gpr(rs)},${hex(imm)}`);
    case 14:
      return t('xori', `${gpr(rt)},${gpr(rs)},${hex(imm)}`);
    case 15:
      return t('lui', `${gpr(rt)},${hex(imm)}`);
    case 16:
      return cop0(w, rs, rt, rd) ?? word(w);
    case 17:
      return cop1(w, rs, rt, rd, branchTo) ?? word(w);
    case 28:
      return special2(w, rs, rt, rd) ?? word(w);
    case 31:
      return special3(w, rs, rt, rd) ?? word(w);
    case 47:
      return t('cache', `${hex(rt)},${mem}`);
    case 51:
      return t('pref', `${hex(rt)},${mem}`);
    default:
      return word(w);
  }
}

const word = (w: number): InstructionText => t('.word', `0x${w.toString(16).padStart(8, '0')}`);

function special(w: number, rs: number, rt: number, rd: number): InstructionText | null {
  const funct = w & 0x3f;
  const sa = (w >>> 6) & 31;
  const alu = SPECIAL_ALU[funct];
  if (alu) {
    if ((funct === 0x21 || funct === 0x25) && rt === 0) return t('move', `${gpr(rd)},${gpr(rs)}`);
    if (funct === 0x23 && rs === 0) return t('negu', `${gpr(rd)},${gpr(rt)}`);
    if (funct === 0x27 && rt === 0) return t('not', `${gpr(rd)},${gpr(rs)}`);
    return t(alu, `${gpr(rd)},${gpr(rs)},${gpr(rt)}`);
  }
  const trap = TRAPS[funct];
  if (trap) {
    const code = (w >>> 6) & 0x3ff;
    return t(trap, `${gpr(rs)},${gpr(rt)}${code ? `,${hex(code)}` : ''}`);
  }
  switch (funct) {
    case 0x00:
      if (w === 0) return t('nop');
      if (w === 0x40) return t('ssnop');
      if (w === 0xc0) return t('ehb');
      return t('sll', `${gpr(rd)},${gpr(rt)},${hex(sa)}`);
    case 0x02:
      return t(rs & 1 ? 'ror' : 'srl', `${gpr(rd)},${gpr(rt)},${hex(sa)}`);
    case 0x03:
      return t('sra', `${gpr(rd)},${gpr(rt)},${hex(sa)}`);
    case 0x04:
      return t('sllv', `${gpr(rd)},${gpr(rt)},${gpr(rs)}`);
    case 0x06:
      return t(sa & 1 ? 'rorv' : 'srlv', `${gpr(rd)},${gpr(rt)},${gpr(rs)}`);
    case 0x07:
      return t('srav', `${gpr(rd)},${gpr(rt)},${gpr(rs)}`);
    case 0x08:
      return t(w & 0x400 ? 'jr.hb' : 'jr', gpr(rs));
    case 0x09:
      return t(w & 0x400 ? 'jalr.hb' : 'jalr', rd === 31 ? gpr(rs) : `${gpr(rd)},${gpr(rs)}`);
    case 0x01:
      return t(rt & 1 ? 'movt' : 'movf', `${gpr(rd)},${gpr(rs)},$fcc${rt >>> 2}`);
    case 0x0c:
      return t('syscall', (w >>> 6) & 0xfffff ? hex((w >>> 6) & 0xfffff) : '');
    case 0x0d: {
      const c1 = (w >>> 16) & 0x3ff;
      const c2 = (w >>> 6) & 0x3ff;
      return t('break', c2 ? `${hex(c1)},${hex(c2)}` : c1 ? hex(c1) : '');
    }
    case 0x0f:
      return t('sync', sa ? hex(sa) : '');
    case 0x10:
      return t('mfhi', gpr(rd));
    case 0x11:
      return t('mthi', gpr(rs));
    case 0x12:
      return t('mflo', gpr(rd));
    case 0x13:
      return t('mtlo', gpr(rs));
    case 0x18:
    case 0x19:
      return t(funct === 0x18 ? 'mult' : 'multu', `${gpr(rs)},${gpr(rt)}`);
    case 0x1a:
    case 0x1b:
      // objdump spells the HI/LO-writing divide with an explicit zero destination
      return t(funct === 0x1a ? 'div' : 'divu', `zero,${gpr(rs)},${gpr(rt)}`);
    default:
      return null;
  }
}

function special2(w: number, rs: number, rt: number, rd: number): InstructionText | null {
  switch (w & 0x3f) {
    case 0x00:
      return t('madd', `${gpr(rs)},${gpr(rt)}`);
    case 0x01:
      return t('maddu', `${gpr(rs)},${gpr(rt)}`);
    case 0x02:
      return t('mul', `${gpr(rd)},${gpr(rs)},${gpr(rt)}`);
    case 0x04:
      return t('msub', `${gpr(rs)},${gpr(rt)}`);
    case 0x05:
      return t('msubu', `${gpr(rs)},${gpr(rt)}`);
    case 0x20:
      return t('clz', `${gpr(rd)},${gpr(rs)}`);
    case 0x21:
      return t('clo', `${gpr(rd)},${gpr(rs)}`);
    case 0x3f:
      return t('sdbbp', (w >>> 6) & 0xfffff ? hex((w >>> 6) & 0xfffff) : '');
    default:
      return null;
  }
}

function special3(w: number, rs: number, rt: number, rd: number): InstructionText | null {
  const sa = (w >>> 6) & 31;
  switch (w & 0x3f) {
    case 0x00:
      return t('ext', `${gpr(rt)},${gpr(rs)},${hex(sa)},${hex(rd + 1)}`);
    case 0x04:
      return t('ins', `${gpr(rt)},${gpr(rs)},${hex(sa)},${hex(rd - sa + 1)}`);
    case 0x20: {
      const name = { 0x02: 'wsbh', 0x10: 'seb', 0x18: 'seh' }[sa];
      return name ? t(name, `${gpr(rd)},${gpr(rt)}`) : null;
    }
    case 0x3b:
      return t('rdhwr', `${gpr(rt)},$${rd}`);
    default:
      return null;
  }
}

function cop0(w: number, rs: number, rt: number, rd: number): InstructionText | null {
  if (rs & 0x10) {
    const name = {
      0x01: 'tlbr',
      0x02: 'tlbwi',
      0x06: 'tlbwr',
      0x08: 'tlbp',
      0x18: 'eret',
      0x1f: 'deret',
      0x20: 'wait',
    }[w & 0x3f];
    return name ? t(name) : null;
  }
  const sel = w & 7;
  if (rs === 0 || rs === 4) return t(rs === 0 ? 'mfc0' : 'mtc0', `${gpr(rt)},$${rd}${sel ? `,${sel}` : ''}`);
  if (rs === 0x0b) return t(w & 0x20 ? 'ei' : 'di', rt ? gpr(rt) : '');
  return null;
}

function cop1(w: number, rs: number, rt: number, rd: number, branchTo: string): InstructionText | null {
  const moves: Record<number, string> = { 0: 'mfc1', 2: 'cfc1', 3: 'mfhc1', 4: 'mtc1', 6: 'ctc1', 7: 'mthc1' };
  const move = moves[rs];
  if (move) return t(move, `${gpr(rt)},${rs === 2 || rs === 6 ? `$${rd}` : fpr(rd)}`);
  if (rs === 8) {
    const name = ['bc1f', 'bc1t', 'bc1fl', 'bc1tl'][rt & 3]!;
    const cc = rt >>> 2;
    return t(name, cc ? `$fcc${cc},${branchTo}` : branchTo);
  }
  const fmt = FP_FORMATS[rs];
  if (!fmt) return null;
  const funct = w & 0x3f;
  const fd = fpr((w >>> 6) & 31);
  const fs = fpr(rd);
  const ft = fpr(rt);
  if (funct >= 0x30) {
    const cc = (w >>> 8) & 7;
    return t(`c.${FP_CONDS[funct & 15]!}.${fmt}`, `${cc ? `$fcc${cc},` : ''}${fs},${ft}`);
  }
  const name = FP_OPS[funct];
  if (!name) return null;
  if (funct <= 3 || funct === 0x12 || funct === 0x13) {
    const third = funct <= 3 ? ft : gpr(rt);
    return t(`${name}.${fmt}`, `${fd},${fs},${third}`);
  }
  return t(`${name}.${fmt}`, `${fd},${fs}`);
}
