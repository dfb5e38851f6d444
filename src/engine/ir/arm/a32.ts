// A32 (ARM state) instruction words → the shared operations: data processing (immediate, shifted register,
// register-shifted register), movw/movt, multiplies, loads and stores (word/byte, halfword/signed/dual),
// ldm/stm, the media instructions (extensions, bitfields, reversals, divides), the miscellaneous ones
// (bx/blx, clz, mrs/msr) and, through vfp.ts, VFP, Advanced SIMD and the coprocessors. Branches need
// nothing here: the decoder's flow and target make the transfer.
import { bin, konst, load, reg, un } from '../ir.js';
import type { ArmInsn } from './insn.js';
import {
  A32_DP,
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
  WORD_LOAD,
  type Access,
} from './operations.js';
import { FLAGS, PC, SYS, TEMP } from './registers.js';
import { coprocessor, floatingPointUnconditional, simd, simdLoadStore } from './vfp.js';

const rn = (w: number) => (w >>> 16) & 0xf;
const rd = (w: number) => (w >>> 12) & 0xf;
const rs = (w: number) => (w >>> 8) & 0xf;
const rm = (w: number) => w & 0xf;

export function liftA32(x: ArmInsn, w: number): boolean {
  if (w >>> 28 === 15) return unconditional(x, w);
  switch ((w >>> 25) & 7) {
    case 0:
      return group0(x, w);
    case 1:
      return dataImmediate(x, w);
    case 2:
      return wordOrByte(x, w, konst(w & 0xfff, 4));
    case 3:
      return w & 0x10 ? media(x, w) : wordOrByte(x, w, shiftImmediate(x.r(rm(w)), (w >>> 5) & 3, (w >>> 7) & 31));
    case 4:
      blockTransfer(x, !!(w & (1 << 20)), rn(w), w & 0xffff, !!(w & (1 << 23)), !!(w & (1 << 24)), !!(w & (1 << 21)));
      return true;
    case 5:
      return true; // B, BL
    default:
      return coprocessor(x, w);
  }
}

/** Data processing (register and register-shifted register), multiplies, extra loads and stores, miscellaneous. */
function group0(x: ArmInsn, w: number): boolean {
  if ((w & 0x90) === 0x90) {
    if (w & 0x60) return extraLoadStore(x, w);
    return w & (1 << 24) ? synchronization(x, w) : multiplies(x, w);
  }
  if (((w >>> 20) & 0x19) === 0x10) return miscellaneous(x, w);
  const m =
    w & 0x10
      ? shiftRegister(x, x.r(rm(w)), (w >>> 5) & 3, rs(w))
      : shiftImmediate(x.r(rm(w)), (w >>> 5) & 3, (w >>> 7) & 31);
  dataProcessing(x, A32_DP[(w >>> 21) & 0xf]!, !!(w & (1 << 20)), rd(w), x.r(rn(w)), m);
  return true;
}

/** ARMExpandImm: an 8-bit value rotated right by twice the rotation field. */
const expandImm = (w: number): number => {
  const imm8 = w & 0xff;
  const rot = ((w >>> 8) & 0xf) * 2;
  return rot ? ((imm8 >>> rot) | (imm8 << (32 - rot))) >>> 0 : imm8;
};

function dataImmediate(x: ArmInsn, w: number): boolean {
  const op1 = (w >>> 20) & 0x1f;
  const imm16 = ((w >>> 4) & 0xf000) | (w & 0xfff);
  if (op1 === 0x10)
    x.setR(rd(w), konst(imm16, 4)); // MOVW
  else if (op1 === 0x14)
    x.setR(rd(w), bin('or', bin('and', x.r(rd(w)), konst(0xffff, 4)), konst(imm16 << 16, 4))); // MOVT
  else if ((op1 & 0x1b) === 0x12) {
    // MSR (immediate) to the flags (mask bit 19), or a hint (nop, yield, wfe…).
    if (w & (1 << 19)) x.e.set(FLAGS, konst(expandImm(w), 4));
  } else dataProcessing(x, A32_DP[(w >>> 21) & 0xf]!, !!(w & (1 << 20)), rd(w), x.r(rn(w)), konst(expandImm(w), 4));
  return true;
}

/** LDR/STR/LDRB/STRB (and the unprivileged LDRT/STRT) with an immediate or a shifted-register offset. */
function wordOrByte(x: ArmInsn, w: number, offset: ReturnType<typeof konst>): boolean {
  const pre = !!(w & (1 << 24));
  const a: Access = { load: !!(w & (1 << 20)), bytes: w & (1 << 22) ? 1 : 4, signed: false };
  loadStore(x, a, rd(w), rn(w), offset, !!(w & (1 << 23)), pre, !pre || !!(w & (1 << 21)));
  return true;
}

/** STRH, LDRD, STRD, LDRH, LDRSB, LDRSH (bits 6:5 and L), with an 8-bit immediate or register offset. */
function extraLoadStore(x: ArmInsn, w: number): boolean {
  const op2 = (w >>> 5) & 3;
  const isLoad = !!(w & (1 << 20));
  const offset = w & (1 << 22) ? konst(((w >>> 4) & 0xf0) | (w & 0xf), 4) : x.r(rm(w));
  const pre = !!(w & (1 << 24));
  const up = !!(w & (1 << 23));
  const writeback = !pre || !!(w & (1 << 21));
  if (!isLoad && op2 !== 1) {
    loadStoreDual(x, op2 === 2, rd(w), rd(w) + 1, rn(w), offset, up, pre, writeback);
    return true;
  }
  const a: Access = { load: isLoad, bytes: op2 === 2 ? 1 : 2, signed: op2 !== 1 };
  loadStore(x, a, rd(w), rn(w), offset, up, pre, writeback);
  return true;
}

/** MUL, MLA, MLS, UMAAL, UMULL, UMLAL, SMULL, SMLAL (Rd/RdHi in 19:16, Ra/RdLo in 15:12). */
function multiplies(x: ArmInsn, w: number): boolean {
  const op = (w >>> 21) & 7;
  const setsFlags = !!(w & (1 << 20));
  const hi = rn(w);
  const lo = rd(w);
  switch (op) {
    case 0:
    case 1:
    case 3:
      multiply(x, hi, rm(w), rs(w), op === 0 ? null : lo, op === 3, setsFlags);
      return true;
    case 2:
      x.e.first({
        k: 'set',
        r: TEMP + 1,
        ver: -1,
        e: { k: 'op', name: 'umaal', args: [x.r(lo), x.r(hi), x.r(rm(w)), x.r(rs(w))], w: 8 },
        at: x.vaddr,
      });
      x.setR(lo, un('trunc', reg(TEMP + 1, 8), 4));
      x.setR(hi, un('trunc', bin('shr', reg(TEMP + 1, 8), konst(32, 8)), 4));
      return true;
    default:
      multiplyLong(x, op >= 6, (op & 1) === 1, lo, hi, rm(w), rs(w), setsFlags);
      return true;
  }
}

/** SWP/SWPB, and the exclusive and acquire/release loads and stores (LDREX…, STLEX…, LDA, STL). */
function synchronization(x: ArmInsn, w: number): boolean {
  const base = x.r(rn(w));
  if (!(w & (1 << 23))) {
    const bytes = w & (1 << 22) ? 1 : 4;
    x.e.first({ k: 'set', r: TEMP + 1, ver: -1, e: load(base, bytes), at: x.vaddr });
    x.e.store(base, bytes === 4 ? x.r(rm(w)) : reg(rm(w), 1));
    x.setR(rd(w), bytes === 4 ? reg(TEMP + 1, 4) : un('zext', reg(TEMP + 1, 1), 4));
    return true;
  }
  const size = (w >>> 21) & 3; // word, doubleword, byte, halfword
  const bytes = [4, 4, 1, 2][size]!;
  const exclusive = ((w >>> 8) & 3) !== 0;
  if (w & (1 << 20)) {
    loadStore(x, { load: true, bytes, signed: false }, rd(w), rn(w), konst(0, 4), true, true, false);
    if (size === 1) loadStore(x, WORD_LOAD, rd(w) + 1, rn(w), konst(4, 4), true, true, false);
    return true;
  }
  loadStore(x, { load: false, bytes, signed: false }, rm(w), rn(w), konst(0, 4), true, true, false);
  if (size === 1)
    loadStore(x, { load: false, bytes: 4, signed: false }, rm(w) + 1, rn(w), konst(4, 4), true, true, false);
  if (exclusive) x.setR(rd(w), { k: 'op', name: 'strex_status', args: [], w: 4 });
  return true;
}

/** Bits 27:23 = 00010, S = 0: MRS/MSR, BX/BLX/BXJ, CLZ, saturating add/sub, BKPT/HVC/SMC, halfword multiplies. */
function miscellaneous(x: ArmInsn, w: number): boolean {
  const op = (w >>> 21) & 3;
  if ((w & 0x90) === 0x80) {
    // SMLA<x><y>, SMLAW<y>/SMULW<y>, SMLAL<x><y>, SMUL<x><y>.
    const reads = op === 3 || (op === 1 && w & 0x20) ? [rm(w), rs(w)] : [rm(w), rs(w), rd(w)];
    if (op === 2) {
      x.setR(rd(w), { k: 'op', name: 'smlal_lo', args: [...reads, rn(w)].map((r) => x.r(r)), w: 4 });
      x.setR(rn(w), { k: 'op', name: 'smlal_hi', args: [...reads, rn(w)].map((r) => x.r(r)), w: 4 });
    } else opInto(x, rn(w), 'smulxy', reads);
    return true;
  }
  switch ((w >>> 4) & 7) {
    case 0:
      if (op & 1) {
        if (w & (1 << 19)) x.e.set(FLAGS, x.r(rm(w))); // MSR APSR_nzcvq, Rm
      } else x.setR(rd(w), { k: 'op', name: 'mrs', args: [reg(FLAGS, 4), reg(SYS, 4)], w: 4 });
      return true;
    case 1:
      if (op === 3) opInto(x, rd(w), 'clz', [rm(w)]);
      else if (op === 1)
        x.setR(PC, x.r(rm(w))); // BX: the flow says return, jump or indirect jump
      else return false;
      return true;
    case 2:
    case 3:
      x.setR(PC, x.r(rm(w))); // BXJ, BLX (register)
      return true;
    case 4:
      opInto(x, rd(w), 'crc32', [rn(w), rm(w)]);
      return true;
    case 5:
      opInto(x, rd(w), ['qadd', 'qsub', 'qdadd', 'qdsub'][op]!, [rm(w), rn(w)]);
      return true;
    case 6:
    case 7:
      return true; // ERET, BKPT, HVC, SMC: the flow
    default:
      return false;
  }
}

/** Bits 27:25 = 011 with bit 4 set: parallel arithmetic, packing, extensions, reversals, multiplies, bitfields. */
function media(x: ArmInsn, w: number): boolean {
  const op1 = (w >>> 20) & 0x1f;
  const op2 = (w >>> 5) & 7;
  if (op1 < 8) {
    opInto(x, rd(w), 'parallel', [rn(w), rm(w)]);
    return true;
  }
  if (op1 < 16) {
    if (op2 === 3) {
      const kind = op1 & 7; // sxtb16, -, sxtb, sxth, uxtb16, -, uxtb, uxth
      const add = rn(w) === PC ? null : rn(w);
      if (kind === 0 || kind === 4) opInto(x, rd(w), kind ? 'uxtb16' : 'sxtb16', add === null ? [rm(w)] : [add, rm(w)]);
      else extend(x, rd(w), add, rm(w), kind & 1 ? 2 : 1, kind < 4, ((w >>> 10) & 3) * 8);
      return true;
    }
    const name = MEDIA_MISC[(op1 << 3) | op2];
    if (name) opInto(x, rd(w), name, [rm(w)]);
    else if (op1 === 8 && (op2 === 5 || !(op2 & 1))) opInto(x, rd(w), op2 === 5 ? 'sel' : 'pkh', [rn(w), rm(w)]);
    else if ((op1 & 0x1a) === 0x0a && (!(op2 & 1) || op2 === 1))
      opInto(x, rd(w), 'sat', [rm(w)]); // ssat, usat (16)
    else return false;
    return true;
  }
  if (op1 < 24) {
    // Signed multiplies and divides: Rd in 19:16, Ra in 15:12 (15: none), Rm in 11:8, Rn in 3:0.
    const hi = rn(w);
    if ((op1 === 0x11 || op1 === 0x13) && op2 === 0) {
      x.setR(hi, bin(op1 === 0x11 ? 'sdiv' : 'udiv', x.r(rm(w)), x.r(rs(w))));
      return true;
    }
    const reads = rd(w) === PC ? [rm(w), rs(w)] : [rm(w), rs(w), rd(w)];
    if (op1 === 0x14) {
      x.setR(rd(w), { k: 'op', name: 'smlald_lo', args: [...reads, hi].map((r) => x.r(r)), w: 4 });
      x.setR(hi, { k: 'op', name: 'smlald_hi', args: [...reads, hi].map((r) => x.r(r)), w: 4 });
    } else opInto(x, hi, 'smul', reads);
    return true;
  }
  const lsb = (w >>> 7) & 31;
  const high = (w >>> 16) & 31;
  if (op1 === 24 && op2 === 0) opInto(x, rn(w), 'usad8', rd(w) === PC ? [rm(w), rs(w)] : [rm(w), rs(w), rd(w)]);
  else if ((op1 & 0x1e) === 0x1a && (op2 & 3) === 2) extractField(x, rd(w), rm(w), lsb, high + 1, true);
  else if ((op1 & 0x1e) === 0x1e && (op2 & 3) === 2) extractField(x, rd(w), rm(w), lsb, high + 1, false);
  else if ((op1 & 0x1e) === 0x1c && (op2 & 3) === 0) insertField(x, rd(w), rm(w), lsb, high);
  else return op1 === 31 && op2 === 7; // UDF: the flow
  return true;
}

/** Reversals and saturations by op1:op2 (single register operand Rm). */
const MEDIA_MISC: Record<number, string> = {
  [(0x0b << 3) | 1]: 'rev',
  [(0x0b << 3) | 5]: 'rev16',
  [(0x0f << 3) | 1]: 'rbit',
  [(0x0f << 3) | 5]: 'revsh',
};

/**
 * Condition 1111 (Thumb's coprocessor words with bit 28 set share the layout): BLX (immediate) and RFE (the
 * flow), Advanced SIMD, the Armv8 floating-point selects and roundings, preloads, barriers, CPS, SETEND,
 * SETPAN, SRS.
 */
export function unconditional(x: ArmInsn, w: number): boolean {
  if ((w & 0xfe000000) >>> 0 === 0xf2000000) return simd(x, w);
  if ((w & 0xff100000) >>> 0 === 0xf4000000) return simdLoadStore(x, w);
  if ((w & 0xff000000) >>> 0 === 0xfe000000) return floatingPointUnconditional(x, w);
  const blxOrRfe = (w & 0xfe000000) >>> 0 === 0xfa000000 || (w & 0xfe500000) >>> 0 === 0xf8100000;
  const preload = (w & 0xfd300000) >>> 0 === 0xf5100000 || (w & 0xfd700000) >>> 0 === 0xf4500000;
  const system = (w & 0xfff00000) >>> 0 === 0xf5700000 || (w & 0xffe00000) >>> 0 === 0xf1000000;
  return blxOrRfe || preload || system || (w & 0xfe500000) >>> 0 === 0xf8400000; // SRS
}
