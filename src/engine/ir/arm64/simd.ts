// AArch64 Advanced SIMD. The moves compiled C uses between lanes and general registers are modelled
// (umov/smov/mov of lane 0 as extensions, dup, ins, movi #0 as zero); every other vector or scalar SIMD
// operation is an `op` over the registers its encoding class reads — Vn (Vn…Vn+len for tbl), Vm where the
// class has one, and Vd when the operation accumulates into it or keeps part of it (mla, bsl, fmla, saba,
// ssra, sli, the narrowing "2" forms, tbx, sha/aes) — written to Vd whole.
import { konst, un, type Expr } from '../ir.js';
import type { Arm64Insn } from './insn.js';

export function advancedSimd(x: Arm64Insn, w: number): boolean {
  if ((w & 0x9ff80400) >>> 0 === 0x0f000400) return modifiedImmediate(x, w);
  if ((w & 0x9fe08400) >>> 0 === 0x0e000400) return copy(x, w);
  if ((w & 0xffe0fc00) >>> 0 === 0x5e000400) {
    // DUP (element, scalar): mov s0, v1.s[1]
    const lane = laneOf((w >>> 16) & 31);
    if (!lane) return false;
    x.setV(w & 31, laneValue(x, (w >>> 5) & 31, lane));
    return true;
  }
  const shape = operandsOf(w);
  if (!shape) return false;
  const rd = w & 31;
  const rn = (w >>> 5) & 31;
  const args: Expr[] = [];
  for (let i = 0; i < shape.rn; i++) args.push(x.v((rn + i) % 32, 16));
  if (shape.rm >= 0) args.push(x.v(shape.rm, 16));
  if (shape.rd) args.push(x.v(rd, 16));
  x.setV(rd, { k: 'op', name: 'simd', args, w: 16 });
  return true;
}

/** The element size in bytes and the index an imm5 field selects (its lowest set bit gives the size). */
function laneOf(imm5: number): { bytes: number; index: number } | null {
  const size = 31 - Math.clz32(imm5 & -imm5);
  if (size > 3) return null;
  return { bytes: 1 << size, index: imm5 >>> (size + 1) };
}

/** A lane of vector register `n`: lane 0 is its low bytes. */
function laneValue(x: Arm64Insn, n: number, lane: { bytes: number; index: number }): Expr {
  return lane.index === 0
    ? x.v(n, lane.bytes)
    : { k: 'op', name: 'lane', args: [x.v(n, 16), konst(lane.index, 1)], w: lane.bytes };
}

/** MOVI, MVNI, FMOV (vector immediate) define Vd; ORR and BIC (immediate) also read it. */
function modifiedImmediate(x: Arm64Insn, w: number): boolean {
  const rd = w & 31;
  const op = (w >>> 29) & 1;
  const cmode = (w >>> 12) & 0xf;
  const imm8 = (((w >>> 16) & 7) << 5) | ((w >>> 5) & 0x1f);
  if (cmode < 12 && cmode & 1) {
    x.setV(rd, { k: 'op', name: op ? 'bic' : 'orr', args: [x.v(rd, 16), konst(imm8, 1)], w: 16 });
    return true;
  }
  const movi = op ? cmode === 14 : cmode < 12 || cmode === 14;
  if (imm8 === 0 && movi) x.setV(rd, konst(0, 16));
  else x.setV(rd, { k: 'op', name: op && cmode !== 14 ? 'mvni' : 'movi', args: [konst(imm8, 1)], w: 16 });
  return true;
}

/** DUP (element, general), INS (general, element), UMOV, SMOV. */
function copy(x: Arm64Insn, w: number): boolean {
  const lane = laneOf((w >>> 16) & 31);
  if (!lane) return false;
  const rd = w & 31;
  const rn = (w >>> 5) & 31;
  const q = (w >>> 30) & 1;
  if ((w >>> 29) & 1) {
    x.setV(rd, { k: 'op', name: 'ins', args: [x.v(rd, 16), x.v(rn, 16)], w: 16 });
    return true;
  }
  switch ((w >>> 11) & 0xf) {
    case 0:
      x.setV(rd, { k: 'op', name: 'dup', args: [laneValue(x, rn, lane)], w: 16 });
      return true;
    case 1:
      x.setV(rd, { k: 'op', name: 'dup', args: [x.x(rn, lane.bytes)], w: 16 });
      return true;
    case 3:
      x.setV(rd, { k: 'op', name: 'ins', args: [x.v(rd, 16), x.x(rn, lane.bytes)], w: 16 });
      return true;
    case 5:
    case 7: {
      // SMOV sign-extends into W (Q = 0) or X; UMOV zero-extends (`mov x0, v0.d[0]`).
      const into = q ? 8 : 4;
      const v = laneValue(x, rn, lane);
      x.setX(rd, lane.bytes < into ? un(((w >>> 11) & 0xf) === 5 ? 'sext' : 'zext', v, into) : v);
      return true;
    }
    default:
      return false;
  }
}

interface Shape {
  /** Vector registers read from Vn on. */
  rn: number;
  /** Vm, or -1 when the class has none. */
  rm: number;
  /** Vd is read too. */
  rd: boolean;
}

/** Which registers an Advanced SIMD (vector or scalar) or crypto encoding reads, by its class. */
function operandsOf(w: number): Shape | null {
  const vector = !(w & (1 << 28));
  const u = (w >>> 29) & 1;
  const q = vector && (w >>> 30) & 1;
  const m5 = (w >>> 16) & 31;
  if (!(w & (1 << 24))) {
    if (w & (1 << 21)) {
      if (w & (1 << 10)) {
        // Three same: mla/mls, saba/uaba, bsl/bit/bif, fmla/fmls accumulate.
        const opcode = (w >>> 11) & 0x1f;
        const rd =
          opcode === 0x12 || opcode === 0x0f || (opcode === 0x03 && u && (w >>> 22) & 3) || (opcode === 0x19 && !u);
        return { rn: 1, rm: m5, rd: !!rd };
      }
      if (!((w >>> 10) & 3)) {
        // Three different: the long multiply-accumulates, sabal, and addhn2/subhn2.
        const opcode = (w >>> 12) & 0xf;
        const rd = [5, 8, 9, 10, 11].includes(opcode) || (q && (opcode === 4 || opcode === 6));
        return { rn: 1, rm: m5, rd: !!rd };
      }
      const kind = (w >>> 17) & 0xf;
      const opcode = (w >>> 12) & 0x1f;
      if (kind === 0) {
        // Two-register misc: sadalp/uadalp, suqadd/usqadd, and xtn2/sqxtn2/fcvtn2 keep Vd's low half.
        const rd = opcode === 6 || opcode === 3 || (q && (opcode === 0x12 || opcode === 0x14 || opcode === 0x16));
        return { rn: 1, rm: -1, rd: !!rd };
      }
      return { rn: 1, rm: -1, rd: kind === 4 && opcode < 6 }; // across lanes; AESE/AESD read Vd
    }
    if (vector && !u && (w & 0x8c00) === 0x0800) return { rn: 1, rm: m5, rd: false }; // zip/uzp/trn
    if (vector && !u && (w & 0x8c00) === 0) return { rn: ((w >>> 13) & 3) + 1, rm: m5, rd: (w & 0x1000) !== 0 }; // tbl/tbx
    if (vector && u && !(w & 0x8400)) return { rn: 1, rm: m5, rd: false }; // ext
    if (!vector && (w & 0xff3e0c00) >>> 0 === 0x5e280800) return { rn: 1, rm: -1, rd: true }; // sha two-register
    return { rn: 1, rm: m5, rd: true }; // sha three-register, dot products, fp16: accumulate
  }
  if (w & (1 << 10)) {
    if (!((w >>> 19) & 0xf)) return null;
    // Shift by immediate: ssra/usra, srsra/ursra, sri, sli and the narrowing "2" forms read Vd.
    const opcode = (w >>> 11) & 0x1f;
    const rd =
      opcode === 2 || opcode === 6 || (u && (opcode === 8 || opcode === 10)) || (q && opcode >= 0x10 && opcode <= 0x13);
    return { rn: 1, rm: -1, rd: !!rd };
  }
  // By element: Vm is 4 bits for halfword elements; the multiply-accumulates (opcode < 8, dot products) read Vd.
  const opcode = (w >>> 12) & 0xf;
  return { rn: 1, rm: ((w >>> 22) & 3) === 1 ? m5 & 0xf : m5, rd: opcode < 8 || opcode >= 14 };
}
