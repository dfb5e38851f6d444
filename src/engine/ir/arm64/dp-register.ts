// AArch64 data processing on registers: logical and add/sub with a shifted or extended register (mov,
// mvn, neg, cmp, cmn, tst), adc/sbc, conditional compare and select (ccmp, csel, cset, cinc, cneg…), one-
// and two-source operations (udiv, sdiv, variable shifts, clz, rev…) and multiply-add (madd, msub, mul,
// smaddl, umaddl, smull, smulh, umulh).
import { bin, konst, reg, un, type BinOp, type Expr } from '../ir.js';
import { R31, type Arm64Insn } from './insn.js';
import { FLAGS } from './registers.js';

const SHIFTS: readonly BinOp[] = ['shl', 'shr', 'sar', 'ror'];

export function dataRegister(x: Arm64Insn, w: number): boolean {
  const width = w >>> 31 ? 8 : 4;
  const rd = w & 31;
  const rn = (w >>> 5) & 31;
  const rm = (w >>> 16) & 31;
  const op2 = (w >>> 21) & 0xf;
  if (!(w & (1 << 28))) {
    if (!(op2 & 8)) return logicalShifted(x, w, width, rd, rn, rm);
    return op2 & 1 ? addSubExtended(x, w, width, rd, rn, rm) : addSubShifted(x, w, width, rd, rn, rm);
  }
  if (op2 >= 8) return multiplyAdd(x, w, width, rd, rn, rm);
  switch (op2) {
    case 0:
      return withCarry(x, w, width, rd, rn, rm);
    case 2:
      return conditionalCompare(x, w, width, rn, rm);
    case 4:
      return conditionalSelect(x, w, width, rd, rn, rm);
    case 6:
      return w & (1 << 30) ? oneSource(x, w, width, rd, rn) : twoSource(x, w, width, rd, rn, rm);
    default:
      return false;
  }
}

/** Rm shifted by the instruction's imm6 (bits 15:10) with the shift type in bits 23:22. */
function shifted(x: Arm64Insn, w: number, width: number, rm: number): Expr | null {
  const amount = (w >>> 10) & 0x3f;
  const m = x.x(rm, width);
  if (amount >= width * 8) return null;
  return amount ? bin(SHIFTS[(w >>> 22) & 3]!, m, konst(amount, width)) : m;
}

function logicalShifted(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  let b = shifted(x, w, width, rm);
  if (!b) return false;
  const opc = (w >>> 29) & 3;
  if (w & (1 << 21)) b = un('not', b, width); // BIC, ORN, EON, BICS
  if (opc === 1 && rn === R31) {
    x.setX(rd, b); // mov, mvn
    return true;
  }
  const a = x.x(rn, width);
  if (opc === 3) {
    x.setFlags(rd === R31 ? 'and' : 'logic', a, b);
    x.setX(rd, bin('and', a, b));
  } else x.setX(rd, bin((['and', 'or', 'xor'] as const)[opc]!, a, b));
  return true;
}

function addSubShifted(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  const b = shifted(x, w, width, rm);
  if (!b || ((w >>> 22) & 3) === 3) return false;
  addSub(x, w, width, rd, x.x(rn, width), b, false);
  return true;
}

/** Rm zero- or sign-extended from its low byte, halfword, word or doubleword, then shifted left by imm3. */
function addSubExtended(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  const option = (w >>> 13) & 7;
  const amount = (w >>> 10) & 7;
  if (amount > 4 || (w >>> 22) & 3) return false;
  addSub(x, w, width, rd, x.x(rn, width, true), extended(x, rm, option, amount, width), true);
  return true;
}

/** An extended register operand (also the index of register-offset loads and stores). */
export function extended(x: Arm64Insn, rm: number, option: number, amount: number, width: number): Expr {
  const from = 1 << (option & 3);
  const m = from >= width ? x.x(rm, width) : un(option & 4 ? 'sext' : 'zext', x.x(rm, from), width);
  return amount ? bin('shl', m, konst(amount, width)) : m;
}

function addSub(x: Arm64Insn, w: number, width: number, rd: number, a: Expr, b: Expr, sp: boolean): void {
  const sub = (w >>> 30) & 1;
  const setsFlags = (w >>> 29) & 1;
  if (setsFlags) x.setFlags(sub ? 'sub' : 'add', a, b);
  // neg is `sub xD, xzr, xM`.
  const value = a.k === 'const' && a.v === 0n ? (sub ? un('neg', b, width) : b) : bin(sub ? 'sub' : 'add', a, b);
  x.setX(rd, value, sp && !setsFlags);
}

function withCarry(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  if ((w >>> 10) & 0x3f) return false; // rmif, setf8/16 (flag manipulation): not in compiled C
  const sub = (w >>> 30) & 1;
  const a = x.x(rn, width);
  const b = x.x(rm, width);
  if ((w >>> 29) & 1) x.setFlags(sub ? 'sub' : 'add', a, b);
  x.opX(rd, sub ? 'sbc' : 'adc', [a, b, reg(FLAGS, 8)], width);
  return true;
}

/** CCMP/CCMN: the comparison's flags when the condition holds, else the immediate nzcv. */
function conditionalCompare(x: Arm64Insn, w: number, width: number, rn: number, rm: number): boolean {
  if (w & (1 << 10) || w & (1 << 4) || !((w >>> 29) & 1)) return false;
  const b = w & (1 << 11) ? konst(rm, width) : x.x(rm, width);
  const compare: Expr = { k: 'flags', op: w & (1 << 30) ? 'sub' : 'add', a: x.x(rn, width), b, w: width };
  x.e.set(FLAGS, { k: 'select', c: x.cond((w >>> 12) & 0xf), a: compare, b: konst(w & 0xf, width), w: width });
  return true;
}

function conditionalSelect(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  const kind = ((w >>> 29) & 2) | ((w >>> 10) & 1); // op:op2<0>: csel, csinc, csinv, csneg
  if ((w >>> 29) & 1 || (w >>> 11) & 1) return false;
  const code = (w >>> 12) & 0xf;
  if (rn === R31 && rm === R31 && (kind === 1 || kind === 2) && code < 14) {
    // cset / csetm: 1 (or all ones) when the inverted condition holds.
    const c = x.cond(code ^ 1, width);
    x.setX(rd, kind === 1 ? c : un('neg', c, width));
    return true;
  }
  const m = x.x(rm, width);
  const other = [m, bin('add', m, konst(1, width)), un('not', m, width), un('neg', m, width)][kind]!;
  x.setX(rd, { k: 'select', c: x.cond(code), a: x.x(rn, width), b: other, w: width });
  return true;
}

function twoSource(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  const opcode = (w >>> 10) & 0x3f;
  const op: BinOp | undefined = (
    { 2: 'udiv', 3: 'sdiv', 8: 'shl', 9: 'shr', 10: 'sar', 11: 'ror' } as Record<number, BinOp>
  )[opcode];
  if (op && !((w >>> 29) & 1)) {
    x.setX(rd, bin(op, x.x(rn, width), x.x(rm, width)));
    return true;
  }
  // crc32*, pacga, subp/irg/gmi (memory tagging): their operands, unmodelled.
  const name = opcode >= 0x10 && opcode < 0x18 ? 'crc32' : `dp2_${opcode}`;
  x.opX(rd, name, [x.x(rn, width, opcode < 8), x.x(rm, width, opcode < 8)], width, opcode < 8);
  return true;
}

const ONE_SOURCE = ['rbit', 'rev16', 'rev32', 'rev', 'clz', 'cls'];

function oneSource(x: Arm64Insn, w: number, width: number, rd: number, rn: number): boolean {
  const opcode = (w >>> 10) & 0x3f;
  if ((w >>> 16) & 0x1f) {
    // PAC*/AUT*/XPAC*: sign or authenticate the pointer in Rd with the modifier Rn (sp allowed).
    x.opX(rd, 'pac', [x.x(rd, 8), x.x(rn, 8, true)], 8);
    return true;
  }
  const name = opcode === 2 && width === 4 ? 'rev' : ONE_SOURCE[opcode];
  if (!name) return false;
  x.opX(rd, name, [x.x(rn, width)], width);
  return true;
}

function multiplyAdd(x: Arm64Insn, w: number, width: number, rd: number, rn: number, rm: number): boolean {
  const op31 = (w >>> 21) & 7;
  const sub = (w >>> 15) & 1;
  const ra = (w >>> 10) & 31;
  if ((w >>> 29) & 3) return false;
  let product: Expr;
  if (op31 === 0) product = bin('mul', x.x(rn, width), x.x(rm, width));
  else if ((op31 === 1 || op31 === 5) && width === 8) {
    const ext = op31 === 1 ? 'sext' : 'zext';
    product = bin('mul', un(ext, x.x(rn, 4), 8), un(ext, x.x(rm, 4), 8));
  } else if ((op31 === 2 || op31 === 6) && width === 8 && !sub) {
    x.opX(rd, op31 === 2 ? 'smulh' : 'umulh', [x.x(rn, 8), x.x(rm, 8)], 8);
    return true;
  } else return false;
  if (ra === R31) x.setX(rd, sub ? un('neg', product, width) : product);
  else x.setX(rd, bin(sub ? 'sub' : 'add', x.x(ra, width), product));
  return true;
}
