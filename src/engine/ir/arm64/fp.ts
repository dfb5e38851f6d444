// AArch64 scalar floating point: moves and conversions between general and vector registers (fmov,
// scvtf/ucvtf, fcvtzs/fcvtzu and the other roundings), one-, two- and three-source arithmetic (fneg, fabs,
// fsqrt, fcvt between precisions, fadd/fsub/fmul/fdiv, fmadd…), fcmp/fcmpe and fccmp (the flags), fcsel
// and fmov of an immediate. Scalar results zero the rest of their vector register.
import { expandFpImmediate } from '../arm-common.js';
import { bin, konst, un, type Expr } from '../ir.js';
import type { Arm64Insn } from './insn.js';
import { FLAGS } from './registers.js';

/** Operand bytes by ftype (bits 23:22): single, double, (none), half. */
const FTYPE = [4, 8, 0, 2];

export function floatingPoint(x: Arm64Insn, w: number): boolean {
  const fw = FTYPE[(w >>> 22) & 3]!;
  const rd = w & 31;
  const rn = (w >>> 5) & 31;
  if ((w >>> 29) & 1) return false;
  if (w & (1 << 24)) return !(w >>> 31) && fw > 0 && multiplyAdd(x, w, fw, rd, rn);
  if (!(w & (1 << 21))) return fixedPoint(x, w, fw, rd, rn);
  const op3 = (w >>> 10) & 0x3f;
  if (op3 === 0) return conversion(x, w, fw, rd, rn);
  if (w >>> 31 || fw === 0) return false;
  const n = x.v(rn, fw);
  const m = x.v((w >>> 16) & 31, fw);
  switch (op3 & 3) {
    case 1:
      // FCCMP/FCCMPE: the comparison's flags when the condition holds, else the immediate nzcv.
      x.e.set(FLAGS, {
        k: 'select',
        c: x.cond((w >>> 12) & 0xf),
        a: { k: 'flags', op: 'fcmp', a: n, b: m, w: fw },
        b: konst(w & 0xf, fw),
        w: fw,
      });
      return true;
    case 2:
      return twoSource(x, (w >>> 12) & 0xf, rd, n, m);
    case 3:
      x.setV(rd, { k: 'select', c: x.cond((w >>> 12) & 0xf), a: n, b: m, w: fw });
      return true;
  }
  if (op3 & 4) {
    if (rn !== 0) return false;
    x.setV(rd, konst(expandFpImmediate((w >>> 13) & 0xff, fw * 8), fw));
    return true;
  }
  if ((op3 & 0xf) === 8) {
    if (op3 & 0x30) return false;
    // FCMP/FCMPE, with #0.0 when bit 3 is set.
    x.setFlags('fcmp', n, w & 8 ? konst(0, fw) : m);
    return true;
  }
  if ((op3 & 0x1f) === 0x10) return oneSource(x, (w >>> 15) & 0x3f, rd, n, fw);
  return false;
}

function twoSource(x: Arm64Insn, opcode: number, rd: number, n: Expr, m: Expr): boolean {
  const op = (['fmul', 'fdiv', 'fadd', 'fsub'] as const)[opcode];
  if (op) x.setV(rd, bin(op, n, m));
  else if (opcode === 8) x.setV(rd, un('fneg', bin('fmul', n, m), n.w));
  else if (opcode < 8)
    x.setV(rd, { k: 'op', name: ['fmax', 'fmin', 'fmaxnm', 'fminnm'][opcode - 4]!, args: [n, m], w: n.w });
  else return false;
  return true;
}

function oneSource(x: Arm64Insn, opcode: number, rd: number, n: Expr, fw: number): boolean {
  if (opcode === 0) x.setV(rd, n);
  else if (opcode === 2) x.setV(rd, un('fneg', n, fw));
  else if (opcode === 4 || opcode === 5 || opcode === 7) x.setV(rd, un('fconv', n, FTYPE[opcode & 3]!));
  else {
    const name =
      opcode === 1 ? 'fabs' : opcode === 3 ? 'fsqrt' : opcode >= 8 && opcode < 16 ? 'frint' : `fp1_${opcode}`;
    x.setV(rd, { k: 'op', name, args: [n], w: fw });
  }
  return true;
}

/** FMADD, FMSUB, FNMADD, FNMSUB: ±(n × m) ± a. */
function multiplyAdd(x: Arm64Insn, w: number, fw: number, rd: number, rn: number): boolean {
  const product = bin('fmul', x.v(rn, fw), x.v((w >>> 16) & 31, fw));
  const a = x.v((w >>> 10) & 31, fw);
  const negated = (w >>> 21) & 1;
  const sub = (w >>> 15) & 1;
  let e = sub ? bin('fsub', a, product) : bin('fadd', a, product);
  if (negated) e = un('fneg', e, fw);
  x.setV(rd, e);
  return true;
}

/** Conversions and moves between a general register (bit 31: X) and a vector register (ftype). */
function conversion(x: Arm64Insn, w: number, fw: number, rd: number, rn: number): boolean {
  const xw = w >>> 31 ? 8 : 4;
  const rmode = (w >>> 19) & 3;
  const opcode = (w >>> 16) & 7;
  if (fw === 0) {
    // FMOV Xd, Vn.D[1] and FMOV Vd.D[1], Xn: the upper half of a 128-bit register.
    if (rmode !== 1 || xw !== 8 || opcode < 6) return false;
    if (opcode === 6) x.setX(rd, un('trunc', bin('shr', x.v(rn, 16), konst(64, 16)), 8));
    else x.setV(rd, { k: 'op', name: 'ins_d1', args: [x.v(rd, 16), x.x(rn, 8)], w: 16 });
    return true;
  }
  if ((opcode === 2 || opcode === 3) && rmode === 0) x.setV(rd, un('itof', x.x(rn, xw), fw));
  else if (opcode <= 1 || ((opcode === 4 || opcode === 5) && rmode === 0)) x.setX(rd, un('ftoi', x.v(rn, fw), xw));
  else if (opcode === 6 && rmode === 0) x.setX(rd, x.v(rn, fw));
  else if (opcode === 7 && rmode === 0) x.setV(rd, x.x(rn, fw));
  else if (opcode === 6 && rmode === 3)
    x.setX(rd, un('ftoi', x.v(rn, fw), xw)); // FJCVTZS
  else return false;
  return true;
}

/** SCVTF/UCVTF and FCVTZS/FCVTZU with a fixed-point scale. */
function fixedPoint(x: Arm64Insn, w: number, fw: number, rd: number, rn: number): boolean {
  const xw = w >>> 31 ? 8 : 4;
  const rmode = (w >>> 19) & 3;
  const opcode = (w >>> 16) & 7;
  const fraction = konst(64 - ((w >>> 10) & 0x3f), 1);
  if (fw === 0) return false;
  if (rmode === 0 && (opcode === 2 || opcode === 3))
    x.setV(rd, { k: 'op', name: 'itof_fixed', args: [x.x(rn, xw), fraction], w: fw });
  else if (rmode === 3 && opcode <= 1) x.opX(rd, 'ftoi_fixed', [x.v(rn, fw), fraction], xw);
  else return false;
  return true;
}
