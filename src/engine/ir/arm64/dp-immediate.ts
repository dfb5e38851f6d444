// AArch64 data processing with an immediate: adr/adrp, add/sub (cmp, cmn, mov to and from sp), logical
// (and/orr/eor/ands, tst, mov of a bitmask), move wide (movz/movn/movk), bitfield moves (lsl/lsr/asr,
// ubfx/sbfx/ubfiz/sbfiz, uxt*/sxt*, bfi/bfxil) and extr (ror).
import { bin, konst, ref, un, type Expr } from '../ir.js';
import { R31, type Arm64Insn } from './insn.js';

export function dataImmediate(x: Arm64Insn, w: number): boolean {
  const width = w >>> 31 ? 8 : 4;
  const rd = w & 31;
  const rn = (w >>> 5) & 31;
  switch ((w >>> 23) & 7) {
    case 0:
    case 1:
      // ADR and ADRP: the decoder has computed the address (the 4 KiB page for ADRP).
      x.setX(rd, ref(x.d.hiValue, 8));
      return true;
    case 2: {
      const sub = (w >>> 30) & 1;
      const setsFlags = (w >>> 29) & 1;
      const imm = ((w >>> 10) & 0xfff) * (w & (1 << 22) ? 4096 : 1);
      const a = x.x(rn, width, true);
      const b = konst(imm, width);
      if (setsFlags) x.setFlags(sub ? 'sub' : 'add', a, b);
      // `mov x29, sp` is `add x29, sp, #0`: a copy.
      x.setX(rd, imm === 0 && !sub ? a : bin(sub ? 'sub' : 'add', a, b), !setsFlags);
      return true;
    }
    case 3:
      // ADDG/SUBG (memory tagging): sp-relative tagged pointer arithmetic.
      x.opX(rd, w & (1 << 30) ? 'subg' : 'addg', [x.x(rn, 8, true)], 8, true);
      return true;
    case 4:
      return logical(x, w, width, rd, rn);
    case 5:
      return moveWide(x, w, width, rd);
    case 6:
      return bitfield(x, w, width, rd, rn);
    default:
      return extract(x, w, width, rd, rn);
  }
}

function logical(x: Arm64Insn, w: number, width: number, rd: number, rn: number): boolean {
  const mask = bitMask((w >>> 22) & 1, (w >>> 10) & 0x3f, (w >>> 16) & 0x3f, width * 8);
  if (mask === null) return false;
  const opc = (w >>> 29) & 3;
  const b = konst(mask, width);
  if (opc === 1 && rn === R31) {
    x.setX(rd, b, true); // mov xD, #bitmask
    return true;
  }
  const a = x.x(rn, width);
  if (opc === 3) {
    x.setFlags(rd === R31 ? 'and' : 'logic', a, b);
    x.setX(rd, bin('and', a, b));
    return true;
  }
  x.setX(rd, bin((['and', 'or', 'xor'] as const)[opc]!, a, b), true);
  return true;
}

/** DecodeBitMasks of the ARM ARM: a run of imms+1 ones rotated right by immr in elements of 2–64 bits. */
function bitMask(n: number, imms: number, immr: number, bits: number): bigint | null {
  const len = 31 - Math.clz32((n << 6) | (~imms & 0x3f));
  if (len < 1 || (bits === 32 && n)) return null;
  const esize = 1 << len;
  const s = imms & (esize - 1);
  const r = BigInt(immr & (esize - 1));
  if (s === esize - 1) return null;
  const e = BigInt(esize);
  const ones = (1n << BigInt(s + 1)) - 1n;
  const elem = ((ones >> r) | (ones << (e - r))) & ((1n << e) - 1n);
  let out = 0n;
  for (let i = 0; i < bits; i += esize) out |= elem << BigInt(i);
  return out;
}

function moveWide(x: Arm64Insn, w: number, width: number, rd: number): boolean {
  const opc = (w >>> 29) & 3;
  const shift = BigInt(((w >>> 21) & 3) * 16);
  if (opc === 1 || (width === 4 && shift > 16n)) return false;
  const imm = BigInt((w >>> 5) & 0xffff) << shift;
  if (opc === 0) x.setX(rd, konst(~imm, width));
  else if (opc === 2) x.setX(rd, konst(imm, width));
  else {
    // MOVK keeps the other bits of the register.
    const kept = bin('and', x.x(rd, width), konst(~(0xffffn << shift), width));
    x.setX(rd, bin('or', kept, konst(imm, width)));
  }
  return true;
}

const ones = (n: number, w: number): Expr => konst((1n << BigInt(n)) - 1n, w);

/** SBFM, BFM, UBFM by their aliases: shifts, extensions, field extracts and inserts. */
function bitfield(x: Arm64Insn, w: number, width: number, rd: number, rn: number): boolean {
  const opc = (w >>> 29) & 3;
  const immr = (w >>> 16) & 0x3f;
  const imms = (w >>> 10) & 0x3f;
  const bits = width * 8;
  if (opc === 3 || immr >= bits || imms >= bits) return false;
  const n = x.x(rn, width);
  const k = (v: number) => konst(v, width);
  if (opc === 1) {
    // BFI/BFXIL keep the destination's other bits.
    x.opX(rd, imms >= immr ? 'bfxil' : 'bfi', [x.x(rd, width), n, k(immr), k(imms)], width);
    return true;
  }
  const signed = opc === 0;
  const fieldBits = imms >= immr ? imms - immr + 1 : imms + 1;
  let e: Expr;
  if (imms === bits - 1) e = bin(signed ? 'sar' : 'shr', n, k(immr));
  else if (!signed && imms + 1 === immr) e = bin('shl', n, k(bits - immr));
  else if (imms >= immr) {
    // Extract: a field starting at bit immr. A whole byte, halfword or word at bit 0 is an extension.
    if (immr === 0 && (fieldBits === 8 || fieldBits === 16 || fieldBits === 32))
      e = un(signed ? 'sext' : 'zext', x.x(rn, fieldBits / 8), width);
    else if (signed) e = bin('sar', bin('shl', n, k(bits - 1 - imms)), k(bits - fieldBits));
    else e = bin('and', bin('shr', n, k(immr)), ones(fieldBits, width));
  } else {
    // Insert in zeros: the low imms+1 bits moved up to bit bits-immr (array indexing by an int: sbfiz).
    const field =
      fieldBits === 8 || fieldBits === 16 || fieldBits === 32
        ? un(signed ? 'sext' : 'zext', x.x(rn, fieldBits / 8), width)
        : signed
          ? bin('sar', bin('shl', n, k(bits - fieldBits)), k(bits - fieldBits))
          : bin('and', n, ones(fieldBits, width));
    e = bin('shl', field, k(bits - immr));
  }
  x.setX(rd, e);
  return true;
}

function extract(x: Arm64Insn, w: number, width: number, rd: number, rn: number): boolean {
  if ((w >>> 29) & 3 || (w >>> 21) & 1 || ((w >>> 22) & 1) !== w >>> 31) return false;
  const rm = (w >>> 16) & 31;
  const lsb = (w >>> 10) & 0x3f;
  if (lsb >= width * 8) return false;
  if (rn === rm) x.setX(rd, bin('ror', x.x(rn, width), konst(lsb, width)));
  else x.opX(rd, 'extr', [x.x(rn, width), x.x(rm, width), konst(lsb, width)], width);
  return true;
}
