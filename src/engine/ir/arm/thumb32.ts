// 32-bit Thumb-2 instructions (first halfword hw1, second hw2) → the shared operations, by the ARM ARM's
// groups: load/store multiple, dual, exclusive and table branch; data processing with a shifted register, a
// modified immediate or a plain immediate (addw, movw/movt, bitfields); loads and stores; data processing
// on registers (shifts, extensions, clz/rev); multiplies and divides; VFP and Advanced SIMD (moved into the
// A32 layout for vfp.ts). Branches need nothing here but B<c>'s condition and tbb/tbh's target.
import { bin, konst, load, reg, un, type Expr } from '../ir.js';
import { unconditional } from './a32.js';
import type { ArmInsn } from './insn.js';
import {
  blockTransfer,
  dataProcessing,
  extend,
  extractField,
  insertField,
  loadStore,
  loadStoreDual,
  multiply,
  multiplyLong,
  opInto,
  shiftImmediate,
  shiftRegister,
  type Access,
  type DpOp,
} from './operations.js';
import { FLAGS, PC, SYS, TEMP } from './registers.js';
import { coprocessor, simd, simdLoadStore } from './vfp.js';

export function liftThumb32(x: ArmInsn, hw1: number, hw2: number): boolean {
  const w = ((hw1 << 16) | hw2) >>> 0;
  const op2 = (hw1 >>> 4) & 0x7f;
  if ((hw1 & 0xef00) === 0xef00) return simd(x, 0xf2000000 | ((w >>> 4) & 0x01000000) | (w & 0x00ffffff));
  if ((hw1 & 0xff10) === 0xf900) return simdLoadStore(x, 0xf4000000 | (w & 0x00ffffff));
  if ((hw1 & 0xec00) === 0xec00) return w >>> 28 === 0xe ? coprocessor(x, w) : unconditional(x, w);
  switch ((hw1 >>> 11) & 3) {
    case 1:
      if (!(op2 & 0x20)) return op2 & 4 ? dualExclusiveTable(x, hw1, hw2) : multiple(x, hw1, hw2);
      return shiftedRegister(x, hw1, hw2);
    case 2:
      if (hw2 & 0x8000) return branchOrControl(x, hw1, hw2);
      return hw1 & 0x200 ? plainImmediate(x, hw1, hw2) : modifiedImmediate(x, hw1, hw2);
    default:
      if (!(op2 & 0x60)) return (op2 & 0x71) === 0 ? store(x, hw1, hw2) : loadSingle(x, hw1, hw2);
      if ((op2 & 0x70) === 0x20) return registerOps(x, hw1, hw2);
      if ((op2 & 0x78) === 0x30) return multiplyAccumulate(x, hw1, hw2);
      if ((op2 & 0x78) === 0x38) return longMultiplyDivide(x, hw1, hw2);
      return false;
  }
}

/** LDM/STM (IA), LDMDB/STMDB; push.w is stmdb sp!, pop.w ldmia sp!. */
function multiple(x: ArmInsn, hw1: number, hw2: number): boolean {
  const mode = (hw1 >>> 7) & 3;
  if (mode === 0 || mode === 3) return false; // SRS, RFE
  blockTransfer(x, !!(hw1 & 0x10), hw1 & 0xf, hw2, mode === 1, mode === 2, !!(hw1 & 0x20));
  return true;
}

/** LDRD/STRD (immediate, literal), LDREX/STREX (byte, halfword, doubleword), TBB/TBH, LDA/STL. */
function dualExclusiveTable(x: ArmInsn, hw1: number, hw2: number): boolean {
  const rn = hw1 & 0xf;
  const rt = hw2 >>> 12;
  const isLoad = !!(hw1 & 0x10);
  if (hw1 & 0x120) {
    const offset = konst((hw2 & 0xff) * 4, 4);
    loadStoreDual(x, isLoad, rt, (hw2 >>> 8) & 0xf, rn, offset, !!(hw1 & 0x80), !!(hw1 & 0x100), !!(hw1 & 0x20));
    return true;
  }
  if (!(hw1 & 0x80)) {
    // LDREX/STREX (word): Rd in hw2 11:8 gets the status.
    loadStore(x, { load: isLoad, bytes: 4, signed: false }, rt, rn, konst((hw2 & 0xff) * 4, 4), true, true, false);
    if (!isLoad) x.setR((hw2 >>> 8) & 0xf, { k: 'op', name: 'strex_status', args: [], w: 4 });
    return true;
  }
  const op3 = (hw2 >>> 4) & 0xf;
  if (isLoad && op3 < 2) {
    // TBB [Rn, Rm] / TBH [Rn, Rm, lsl #1]: pc + twice the table entry.
    const rm = hw2 & 0xf;
    const half = op3 === 1;
    const index = half ? bin('shl', x.r(rm), konst(1, 4)) : x.r(rm);
    const entry = un('zext', load(bin('add', x.r(rn), index), half ? 2 : 1), 4);
    x.setR(PC, bin('add', konst(x.pc, 4), bin('shl', entry, konst(1, 4))));
    return true;
  }
  // Exclusive and acquire/release of bytes, halfwords and doublewords (op3 bits 1:0: size).
  const size = op3 & 3;
  const bytes = [1, 2, 4, 4][size]!;
  const exclusive = op3 < 8 || op3 >= 12;
  const status = hw2 & 0xf;
  const a: Access = { load: isLoad, bytes, signed: false };
  loadStore(x, a, rt, rn, konst(0, 4), true, true, false);
  if (size === 3) loadStore(x, { ...a, bytes: 4 }, (hw2 >>> 8) & 0xf, rn, konst(4, 4), true, true, false);
  if (!isLoad && exclusive) x.setR(status, { k: 'op', name: 'strex_status', args: [], w: 4 });
  return true;
}

/** Thumb-2 data-processing opcodes (hw1 8:5) with their Rd = pc (compare) and Rn = pc (move) forms. */
function dpOp(op: number, rd: number, rn: number, setsFlags: boolean): DpOp | null {
  const compare = rd === PC && setsFlags;
  switch (op) {
    case 0:
      return compare ? 'tst' : 'and';
    case 1:
      return 'bic';
    case 2:
      return rn === PC ? 'mov' : 'orr';
    case 3:
      return rn === PC ? 'mvn' : 'orn';
    case 4:
      return compare ? 'teq' : 'eor';
    case 8:
      return compare ? 'cmn' : 'add';
    case 10:
      return 'adc';
    case 11:
      return 'sbc';
    case 13:
      return compare ? 'cmp' : 'sub';
    case 14:
      return 'rsb';
    default:
      return null;
  }
}

function dataOp(x: ArmInsn, hw1: number, hw2: number, b: Expr): boolean {
  const rn = hw1 & 0xf;
  const rd = (hw2 >>> 8) & 0xf;
  const s = !!(hw1 & 0x10);
  const op = dpOp((hw1 >>> 5) & 0xf, rd, rn, s);
  if (!op) return false;
  dataProcessing(x, op, s, rd, x.r(rn), b);
  return true;
}

function shiftedRegister(x: ArmInsn, hw1: number, hw2: number): boolean {
  const amount = ((hw2 >>> 10) & 0x1c) | ((hw2 >>> 6) & 3);
  const m = shiftImmediate(x.r(hw2 & 0xf), (hw2 >>> 4) & 3, amount);
  if (((hw1 >>> 5) & 0xf) === 6) {
    opInto(x, (hw2 >>> 8) & 0xf, 'pkh', [hw1 & 0xf, hw2 & 0xf]);
    return true;
  }
  return dataOp(x, hw1, hw2, m);
}

/** ThumbExpandImm: i:imm3:imm8 as a byte replicated in one of four patterns, or rotated into place. */
function thumbExpandImm(hw1: number, hw2: number): number {
  const imm12 = ((hw1 & 0x400) << 1) | ((hw2 >>> 4) & 0x700) | (hw2 & 0xff);
  const byte = imm12 & 0xff;
  if (!(imm12 & 0xc00)) {
    switch ((imm12 >>> 8) & 3) {
      case 0:
        return byte;
      case 1:
        return (byte << 16) | byte;
      case 2:
        return ((byte << 24) | (byte << 8)) >>> 0;
      default:
        return ((byte << 24) | (byte << 16) | (byte << 8) | byte) >>> 0;
    }
  }
  const value = 0x80 | (imm12 & 0x7f);
  const rot = imm12 >>> 7;
  return ((value >>> rot) | (value << (32 - rot))) >>> 0;
}

function modifiedImmediate(x: ArmInsn, hw1: number, hw2: number): boolean {
  return dataOp(x, hw1, hw2, konst(thumbExpandImm(hw1, hw2), 4));
}

/** ADDW/SUBW (adr with pc), MOVW/MOVT, SSAT/USAT, SBFX/UBFX, BFI/BFC. */
function plainImmediate(x: ArmInsn, hw1: number, hw2: number): boolean {
  const op = (hw1 >>> 4) & 0x1f;
  const rn = hw1 & 0xf;
  const rd = (hw2 >>> 8) & 0xf;
  const imm12 = ((hw1 & 0x400) << 1) | ((hw2 >>> 4) & 0x700) | (hw2 & 0xff);
  const lsb = ((hw2 >>> 10) & 0x1c) | ((hw2 >>> 6) & 3);
  switch (op) {
    case 0:
    case 10: {
      const base = rn === PC ? konst(x.pcAligned, 4) : x.r(rn);
      dataProcessing(x, op ? 'sub' : 'add', false, rd, base, konst(imm12, 4));
      return true;
    }
    case 4:
      x.setR(rd, konst(((hw1 & 0xf) << 12) | imm12, 4));
      return true;
    case 12:
      x.setR(rd, bin('or', bin('and', x.r(rd), konst(0xffff, 4)), konst((((hw1 & 0xf) << 12) | imm12) << 16, 4)));
      return true;
    case 16:
    case 18:
    case 24:
    case 26:
      opInto(x, rd, 'sat', [rn]);
      return true;
    case 20:
    case 28:
      extractField(x, rd, rn, lsb, (hw2 & 31) + 1, op === 20);
      return true;
    case 22:
      insertField(x, rd, rn, lsb, hw2 & 31);
      return true;
    default:
      return false;
  }
}

/** B<c> (T3), MSR/MRS, hints, barriers; B, BL and BLX are the decoder's flow and target. */
function branchOrControl(x: ArmInsn, hw1: number, hw2: number): boolean {
  if (!(hw2 & 0x5000)) {
    if (((hw1 >>> 7) & 7) !== 7) {
      x.branchCondition = x.condition((hw1 >>> 6) & 0xf);
      return true;
    }
    const op = (hw1 >>> 4) & 0x7f;
    if ((op & 0x7e) === 0x38) {
      // MSR: the flags when the mask writes nzcvq (hw2 bit 11)
      if (hw2 & 0x800) x.e.set(FLAGS, x.r(hw1 & 0xf));
    } else if ((op & 0x7e) === 0x3e)
      x.setR((hw2 >>> 8) & 0xf, { k: 'op', name: 'mrs', args: [reg(FLAGS, 4), reg(SYS, 4)], w: 4 });
    else if (op === 0x3c) x.setR(PC, x.r(hw1 & 0xf)); // BXJ
  }
  return true;
}

/** STRB/STRH/STR: imm12, imm8 with pre/post-index and writeback, or a register shifted left by 0–3. */
function store(x: ArmInsn, hw1: number, hw2: number): boolean {
  const size = (hw1 >>> 5) & 3;
  if (size === 3) return false;
  return single(x, hw1, hw2, { load: false, bytes: 1 << size, signed: false });
}

/** LDRB/LDRSB, LDRH/LDRSH, LDR: the same forms and literals; a byte or halfword load of pc is a preload. */
function loadSingle(x: ArmInsn, hw1: number, hw2: number): boolean {
  const size = (hw1 >>> 5) & 3;
  if (size === 3) return false;
  if (size < 2 && hw2 >>> 12 === PC) return true; // PLD, PLI
  return single(x, hw1, hw2, { load: true, bytes: 1 << size, signed: !!(hw1 & 0x100) });
}

function single(x: ArmInsn, hw1: number, hw2: number, a: Access): boolean {
  const rn = hw1 & 0xf;
  const rt = hw2 >>> 12;
  if (rn === PC) {
    if (!a.load) return false;
    loadStore(x, a, rt, PC, konst(hw2 & 0xfff, 4), !!(hw1 & 0x80), true, false);
  } else if (hw1 & 0x80) loadStore(x, a, rt, rn, konst(hw2 & 0xfff, 4), true, true, false);
  else if (hw2 & 0x800) {
    // imm8 with P (10), U (9), W (8); LDRT/STRT (P U W = 1 1 0 with 11:8 = 1110) is the offset form.
    loadStore(x, a, rt, rn, konst(hw2 & 0xff, 4), !!(hw2 & 0x200), !!(hw2 & 0x400), !!(hw2 & 0x100));
  } else if (!(hw2 & 0x7c0)) {
    const index = shiftImmediate(x.r(hw2 & 0xf), 0, (hw2 >>> 4) & 3);
    loadStore(x, a, rt, rn, index, true, true, false);
  } else return false;
  return true;
}

/** 11111 010: shifts by a register, extensions (with add), parallel arithmetic, clz/rev/rbit/qadd/sel. */
function registerOps(x: ArmInsn, hw1: number, hw2: number): boolean {
  const op1 = (hw1 >>> 4) & 0xf;
  const op2 = (hw2 >>> 4) & 0xf;
  const rn = hw1 & 0xf;
  const rd = (hw2 >>> 8) & 0xf;
  const rm = hw2 & 0xf;
  if (op1 < 8 && op2 === 0) {
    const shifted = shiftRegister(x, x.r(rn), op1 >>> 1, rm);
    dataProcessing(x, 'mov', !!(op1 & 1), rd, konst(0, 4), shifted);
    return true;
  }
  if (op1 < 6 && op2 & 8) {
    // sxtah/sxth, uxtah/uxth, sxtab16, uxtab16, sxtab/sxtb, uxtab/uxtb
    const add = rn === PC ? null : rn;
    if (op1 === 2 || op1 === 3) opInto(x, rd, op1 === 3 ? 'uxtb16' : 'sxtb16', add === null ? [rm] : [add, rm]);
    else extend(x, rd, add, rm, op1 < 2 ? 2 : 1, !(op1 & 1), (op2 & 3) * 8);
    return true;
  }
  if (op1 & 8 && !(op2 & 8)) {
    opInto(x, rd, 'parallel', [rn, rm]);
    return true;
  }
  if ((op1 & 0xc) === 8 && (op2 & 0xc) === 8) {
    const name = ['qadd', 'qdadd', 'qsub', 'qdsub', 'rev', 'rev16', 'rbit', 'revsh', 'sel', '', '', '', 'clz'][
      ((op1 & 3) << 2) | (op2 & 3)
    ];
    if (!name) return false;
    opInto(x, rd, name, name.startsWith('q') || name === 'sel' ? [rm, rn] : [rm]);
    return true;
  }
  return false;
}

/** MUL, MLA, MLS; the halfword, dual and most-significant-word multiplies and usad8 as ops. */
function multiplyAccumulate(x: ArmInsn, hw1: number, hw2: number): boolean {
  const op1 = (hw1 >>> 4) & 7;
  const op2 = (hw2 >>> 4) & 3;
  const rn = hw1 & 0xf;
  const ra = hw2 >>> 12;
  const rd = (hw2 >>> 8) & 0xf;
  const rm = hw2 & 0xf;
  if (op1 === 0 && op2 < 2) {
    multiply(x, rd, rn, rm, ra === PC ? null : ra, op2 === 1, false);
    return true;
  }
  opInto(x, rd, 'smul', ra === PC ? [rn, rm] : [rn, rm, ra]);
  return true;
}

/** SMULL, UMULL, SMLAL, UMLAL, UMAAL, SDIV, UDIV; the halfword and dual long forms as ops. */
function longMultiplyDivide(x: ArmInsn, hw1: number, hw2: number): boolean {
  const op1 = (hw1 >>> 4) & 7;
  const op2 = (hw2 >>> 4) & 0xf;
  const rn = hw1 & 0xf;
  const lo = hw2 >>> 12;
  const hi = (hw2 >>> 8) & 0xf;
  const rm = hw2 & 0xf;
  if ((op1 === 1 || op1 === 3) && op2 === 15) {
    x.setR(hi, bin(op1 === 1 ? 'sdiv' : 'udiv', x.r(rn), x.r(rm)));
    return true;
  }
  if (op2 === 0 && op1 !== 1 && op1 !== 3 && op1 !== 5 && op1 !== 7) {
    multiplyLong(x, op1 < 2 || op1 === 4, op1 >= 4, lo, hi, rn, rm);
    return true;
  }
  const wide: Expr = { k: 'op', name: op1 === 6 ? 'umaal' : 'smlal', args: [x.r(lo), x.r(hi), x.r(rn), x.r(rm)], w: 8 };
  x.e.first({ k: 'set', r: TEMP + 1, ver: -1, e: wide, at: x.vaddr });
  x.setR(lo, un('trunc', reg(TEMP + 1, 8), 4));
  x.setR(hi, un('trunc', bin('shr', reg(TEMP + 1, 8), konst(32, 8)), 4));
  return true;
}
