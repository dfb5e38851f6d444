// The MIPS FPU (coprocessor 1, and COP1X's indexed loads and stores and fused multiply-adds): moves
// between general and floating-point registers (mfc1/mtc1 the low word, mfhc1/mthc1 the high word),
// arithmetic by format (s, d, w, l), conversions, conditional moves, and c.cond.fmt, which sets the
// condition code to the comparison's outcome that bc1t/bc1f branch on.
import { bin, konst, load, reg, un, type Cond, type Expr } from '../ir.js';
import { compare, fpCondition, type MipsInsn } from './insn.js';
import { FCC } from './registers.js';

/** Bytes by format field (rs): single 16, double 17, word 20, long 21. */
const FORMATS: Record<number, number> = { 16: 4, 17: 8, 20: 4, 21: 8 };
const ARITHMETIC = ['fadd', 'fsub', 'fmul', 'fdiv'] as const;
/** c.cond.fmt predicates (funct 0x30–0x3f) as conditions after comparing fs with ft; null: never true. */
const PREDICATES: readonly (Cond | null)[] = [
  null, // f
  'par', // un
  'eq',
  'eq', // ueq
  'slt', // olt
  'slt', // ult
  'sle', // ole
  'sle', // ule
  null, // sf
  'par', // ngle
  'eq', // seq
  'eq', // ngl
  'slt', // lt
  'slt', // nge
  'sle', // le
  'sle', // ngt
];

export function coprocessor1(x: MipsInsn, w: number): boolean {
  const fmt = (w >>> 21) & 31;
  const rt = (w >>> 16) & 31;
  const fs = (w >>> 11) & 31;
  switch (fmt) {
    case 0: // MFC1
      x.setR(rt, x.f(fs, 4));
      return true;
    case 2: // CFC1: the control and status word holds the condition codes
      x.setR(rt, { k: 'op', name: 'cfc1', args: [konst(fs, 4), reg(FCC, 4)], w: 4 });
      return true;
    case 3: // MFHC1
      x.setR(rt, un('trunc', bin('shr', x.f(fs, 8), konst(32, 8)), 4));
      return true;
    case 4: // MTC1
      x.setF(fs, x.r(rt));
      return true;
    case 6: // CTC1
      x.e.set(FCC, { k: 'op', name: 'ctc1', args: [konst(fs, 4), x.r(rt), reg(FCC, 4)], w: 4 });
      return true;
    case 7: // MTHC1
      x.setF(
        fs,
        bin('or', bin('and', x.f(fs, 8), konst(0xffffffffn, 8)), bin('shl', un('zext', x.r(rt), 8), konst(32, 8))),
      );
      return true;
    case 8: // BC1F, BC1T (and the likely forms)
      x.branchCondition = fpCondition(rt & 1);
      return true;
  }
  const bytes = FORMATS[fmt];
  return bytes ? arithmetic(x, w, bytes, fmt) : false;
}

function arithmetic(x: MipsInsn, w: number, bytes: number, fmt: number): boolean {
  const ft = (w >>> 16) & 31;
  const fs = (w >>> 11) & 31;
  const fd = (w >>> 6) & 31;
  const funct = w & 0x3f;
  const s = x.f(fs, bytes);
  const integer = fmt >= 20;
  if (funct >= 0x30) {
    const cc = PREDICATES[funct & 15]!;
    const c: Expr = cc
      ? { k: 'cond', cc, flags: { k: 'flags', op: 'fcmp', a: s, b: x.f(ft, bytes), w: bytes }, w: 4 }
      : konst(0, 4);
    x.e.set(FCC, c);
    return true;
  }
  if (funct < 4 && !integer) {
    x.setF(fd, bin(ARITHMETIC[funct]!, s, x.f(ft, bytes)));
    return true;
  }
  switch (funct) {
    case 4:
    case 5:
      x.setF(fd, { k: 'op', name: funct === 4 ? 'fsqrt' : 'fabs', args: [s], w: bytes });
      return true;
    case 6:
      x.setF(fd, s);
      return true;
    case 7:
      x.setF(fd, un('fneg', s, bytes));
      return true;
    case 0x11: // MOVF.fmt, MOVT.fmt
      x.setF(fd, { k: 'select', c: fpCondition(ft & 1), a: s, b: x.f(fd, bytes), w: bytes });
      return true;
    case 0x12:
    case 0x13: // MOVZ.fmt, MOVN.fmt on a general register
      x.setF(fd, {
        k: 'select',
        c: compare(funct === 0x12 ? 'eq' : 'ne', x.r(ft), konst(0, 4)),
        a: s,
        b: x.f(fd, bytes),
        w: bytes,
      });
      return true;
    case 0x20:
    case 0x21: {
      // CVT.S, CVT.D: from the other precision, or from a word or long integer.
      const to = funct === 0x20 ? 4 : 8;
      x.setF(fd, un(integer ? 'itof' : 'fconv', s, to));
      return true;
    }
    case 0x24:
    case 0x25: // CVT.W, CVT.L
      x.setF(fd, un('ftoi', s, funct === 0x24 ? 4 : 8));
      return true;
  }
  if (funct >= 0x08 && funct <= 0x0f) {
    // ROUND/TRUNC/CEIL/FLOOR to a long (0x08–0x0b) or a word (0x0c–0x0f)
    x.setF(fd, un('ftoi', s, funct < 0x0c ? 8 : 4));
    return true;
  }
  return false;
}

/** LWXC1/LDXC1/SWXC1/SDXC1 (base + index) and MADD/MSUB/NMADD/NMSUB.fmt. */
export function coprocessor1x(x: MipsInsn, w: number): boolean {
  const base = (w >>> 21) & 31;
  const index = (w >>> 16) & 31;
  const fs = (w >>> 11) & 31;
  const fd = (w >>> 6) & 31;
  const funct = w & 0x3f;
  const addr = bin('add', x.r(base), x.r(index));
  switch (funct) {
    case 0:
    case 1:
      x.setF(fd, load(addr, funct ? 8 : 4));
      return true;
    case 8:
    case 9:
      x.e.store(addr, x.f(fs, funct === 9 ? 8 : 4));
      return true;
    case 0x0f:
      return true; // PREFX
  }
  const bytes = (funct & 7) === 0 ? 4 : (funct & 7) === 1 ? 8 : 0;
  const kind = funct >>> 3; // 4 madd, 5 msub, 6 nmadd, 7 nmsub
  if (!bytes || kind < 4) return false;
  const product = bin('fmul', x.f(fs, bytes), x.f((w >>> 16) & 31, bytes));
  const r = x.f(base, bytes); // fr
  let e = kind & 1 ? bin('fsub', product, r) : bin('fadd', product, r);
  if (kind >= 6) e = un('fneg', e, bytes);
  x.setF(fd, e);
  return true;
}
