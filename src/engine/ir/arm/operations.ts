// What A32 and Thumb instructions do, shared by both decoders: data processing with its flags, shifted
// operands, loads and stores (offset, pre- and post-indexed, dual), register-list transfers (ldm/stm,
// push/pop), multiplies, extensions and bitfields.
import { bin, konst, load, reg, un, type BinOp, type Expr, type FlagOp } from '../ir.js';
import type { ArmInsn } from './insn.js';
import { FLAGS, PC, TEMP } from './registers.js';

/** Data-processing operations (A32 opcode order, then Thumb-2's orn). */
export type DpOp =
  | 'and'
  | 'eor'
  | 'sub'
  | 'rsb'
  | 'add'
  | 'adc'
  | 'sbc'
  | 'rsc'
  | 'tst'
  | 'teq'
  | 'cmp'
  | 'cmn'
  | 'orr'
  | 'mov'
  | 'bic'
  | 'mvn'
  | 'orn';

export const A32_DP: readonly DpOp[] = [
  'and',
  'eor',
  'sub',
  'rsb',
  'add',
  'adc',
  'sbc',
  'rsc',
  'tst',
  'teq',
  'cmp',
  'cmn',
  'orr',
  'mov',
  'bic',
  'mvn',
];

const carry = (): Expr => reg(FLAGS, 4);

/** Rd ← Rn `op` operand2, and the flags when `setsFlags` (always for tst, teq, cmp, cmn). */
export function dataProcessing(x: ArmInsn, op: DpOp, setsFlags: boolean, rd: number, a: Expr, b: Expr): void {
  let v: Expr | null = null;
  let flags: [FlagOp, Expr, Expr] | null = null;
  switch (op) {
    case 'and':
    case 'tst':
      v = bin('and', a, b);
      flags = [op === 'tst' ? 'and' : 'logic', a, b];
      break;
    case 'eor':
    case 'teq':
      v = bin('xor', a, b);
      flags = op === 'teq' ? ['sub', a, b] : ['logic', a, b];
      break;
    case 'sub':
    case 'cmp':
      v = bin('sub', a, b);
      flags = ['sub', a, b];
      break;
    case 'rsb':
      v = b.k === 'const' && b.v === 0n ? un('neg', a, 4) : bin('sub', b, a);
      flags = ['sub', b, a];
      break;
    case 'add':
    case 'cmn':
      v = bin('add', a, b);
      flags = ['add', a, b];
      break;
    case 'adc':
    case 'sbc':
    case 'rsc':
      v = { k: 'op', name: op, args: [a, b, carry()], w: 4 };
      flags = op === 'adc' ? ['add', a, b] : op === 'sbc' ? ['sub', a, b] : ['sub', b, a];
      break;
    case 'orr':
      v = bin('or', a, b);
      flags = ['logic', a, b];
      break;
    case 'orn':
      v = bin('or', a, un('not', b, 4));
      flags = ['logic', a, un('not', b, 4)];
      break;
    case 'bic':
      v = bin('and', a, un('not', b, 4));
      flags = ['logic', a, un('not', b, 4)];
      break;
    case 'mov':
      v = b;
      flags = ['logic', b, konst(0, 4)];
      break;
    case 'mvn':
      v = un('not', b, 4);
      flags = ['logic', v, konst(0, 4)];
      break;
  }
  const compare = op === 'tst' || op === 'teq' || op === 'cmp' || op === 'cmn';
  if (setsFlags || compare) x.setFlags(...flags);
  if (!compare) x.setR(rd, v);
}

const SHIFTS: readonly BinOp[] = ['shl', 'shr', 'sar', 'ror'];

/** `m` shifted by an immediate (DecodeImmShift): lsr and asr #0 mean #32, ror #0 is rrx (through the carry). */
export function shiftImmediate(m: Expr, type: number, amount: number): Expr {
  if (type === 0) return amount ? bin('shl', m, konst(amount, 4)) : m;
  if (type === 3 && amount === 0) return { k: 'op', name: 'rrx', args: [m, carry()], w: 4 };
  return bin(SHIFTS[type]!, m, konst(amount || 32, 4));
}

/** `m` shifted by the low byte of register `rs`. */
export function shiftRegister(x: ArmInsn, m: Expr, type: number, rs: number): Expr {
  return bin(SHIFTS[type]!, m, un('zext', rs === PC ? konst(x.pc, 1) : reg(rs, 1), 4));
}

export interface Access {
  load: boolean;
  bytes: number;
  /** A narrower load sign-extends (ldrsb, ldrsh). */
  signed: boolean;
}

export const WORD_LOAD: Access = { load: true, bytes: 4, signed: false };
const WORD_STORE: Access = { load: false, bytes: 4, signed: false };

/** Base ± offset: the base itself for a zero offset, a constant for a literal (pc-relative) address. */
export function offsetFrom(base: Expr, offset: Expr, add: boolean): Expr {
  if (offset.k !== 'const') return bin(add ? 'add' : 'sub', base, offset);
  if (offset.v === 0n) return base;
  if (base.k === 'const') return konst(add ? base.v + offset.v : base.v - offset.v, 4);
  return bin(add ? 'add' : 'sub', base, offset);
}

/** Register `rt` loaded from, or stored to, `addr`. */
function transfer(x: ArmInsn, a: Access, rt: number, addr: Expr): void {
  if (a.load) {
    const v = load(addr, a.bytes);
    x.setR(rt, a.bytes < 4 ? un(a.signed ? 'sext' : 'zext', v, 4) : v);
  } else x.e.store(addr, a.bytes < 4 && rt !== PC ? reg(rt, a.bytes) : x.r(rt));
}

/**
 * LDR/STR and their byte, halfword and signed forms: the access at Rn ± offset (`pre`) or at Rn
 * (post-indexed), and Rn ← Rn ± offset when it writes back.
 */
export function loadStore(
  x: ArmInsn,
  a: Access,
  rt: number,
  rn: number,
  offset: Expr,
  add: boolean,
  pre: boolean,
  writeback: boolean,
): void {
  const base = x.base(rn);
  const moved = offsetFrom(base, offset, add);
  transfer(x, a, rt, pre ? moved : base);
  if (writeback && rn !== PC) x.setR(rn, moved);
}

/** LDRD/STRD: Rt at the address, Rt2 four bytes above. */
export function loadStoreDual(
  x: ArmInsn,
  isLoad: boolean,
  rt: number,
  rt2: number,
  rn: number,
  offset: Expr,
  add: boolean,
  pre: boolean,
  writeback: boolean,
): void {
  const base = x.base(rn);
  const moved = offsetFrom(base, offset, add);
  const addr = pre ? moved : base;
  const a = isLoad ? WORD_LOAD : WORD_STORE;
  transfer(x, a, rt, addr);
  transfer(x, a, rt2, bin('add', addr, konst(4, 4)));
  if (writeback && rn !== PC) x.setR(rn, moved);
}

/**
 * LDM/STM (push is stmdb sp!, pop ldmia sp!): the listed registers in ascending order at ascending
 * addresses from Rn (increment after), Rn + 4 (increment before), Rn − 4n + 4 (decrement after) or Rn − 4n
 * (decrement before). A load that lists its base register does not write it back.
 */
export function blockTransfer(
  x: ArmInsn,
  isLoad: boolean,
  rn: number,
  list: number,
  increment: boolean,
  before: boolean,
  writeback: boolean,
): void {
  const count = bitCount(list);
  const base = x.r(rn);
  let offset = increment ? (before ? 4 : 0) : before ? -4 * count : -4 * count + 4;
  const a = isLoad ? WORD_LOAD : WORD_STORE;
  for (let r = 0; r < 16; r++) {
    if (!(list & (1 << r))) continue;
    transfer(x, a, r, offset ? bin('add', base, konst(offset, 4)) : base);
    offset += 4;
  }
  if (writeback && !(isLoad && list & (1 << rn))) x.setR(rn, bin(increment ? 'add' : 'sub', base, konst(4 * count, 4)));
}

function bitCount(v: number): number {
  let n = 0;
  for (let b = v; b; b &= b - 1) n++;
  return n;
}

/** MUL/MLA/MLS: Rd ← (Ra ±) Rn × Rm; MULS sets the flags from the result. */
export function multiply(
  x: ArmInsn,
  rd: number,
  rn: number,
  rm: number,
  ra: number | null,
  sub: boolean,
  setsFlags: boolean,
): void {
  const product = bin('mul', x.r(rn), x.r(rm));
  const v = ra === null ? product : bin(sub ? 'sub' : 'add', x.r(ra), product);
  if (setsFlags) x.setFlags('logic', v, konst(0, 4));
  x.setR(rd, v);
}

/**
 * UMULL/SMULL (and with `accumulate` UMLAL/SMLAL): the 64-bit product, computed once into the scratch
 * register, split into RdLo and RdHi.
 */
export function multiplyLong(
  x: ArmInsn,
  signed: boolean,
  accumulate: boolean,
  rdLo: number,
  rdHi: number,
  rn: number,
  rm: number,
  setsFlags = false,
): void {
  const ext = signed ? 'sext' : 'zext';
  let v: Expr = bin('mul', un(ext, x.r(rn), 8), un(ext, x.r(rm), 8));
  if (accumulate)
    v = bin('add', v, bin('or', un('zext', x.r(rdLo), 8), bin('shl', un('zext', x.r(rdHi), 8), konst(32, 8))));
  x.e.first({ k: 'set', r: TEMP + 1, ver: -1, e: v, at: x.vaddr });
  const wide = reg(TEMP + 1, 8);
  if (setsFlags) x.setFlags('logic', un('trunc', bin('shr', wide, konst(32, 8)), 4), konst(0, 4));
  x.setR(rdLo, un('trunc', wide, 4));
  x.setR(rdHi, un('trunc', bin('shr', wide, konst(32, 8)), 4));
}

/**
 * SXTB/SXTH/UXTB/UXTH (rotated by 0, 8, 16 or 24 bits), and with Rn the add forms (sxtab…): Rd ← Rn +
 * extend(Rm ror rot). The byte-pair forms (uxtb16) are ops.
 */
export function extend(
  x: ArmInsn,
  rd: number,
  rn: number | null,
  rm: number,
  bytes: 1 | 2,
  signed: boolean,
  rotation: number,
): void {
  const source = rotation
    ? un('trunc', bin('ror', x.r(rm), konst(rotation, 4)), bytes)
    : rm === PC
      ? konst(x.pc, bytes)
      : reg(rm, bytes);
  const v = un(signed ? 'sext' : 'zext', source, 4);
  x.setR(rd, rn === null ? v : bin('add', x.r(rn), v));
}

const ones = (n: number): Expr => konst(n >= 32 ? 0xffffffffn : (1n << BigInt(n)) - 1n, 4);

/** UBFX/SBFX: the `width`-bit field at `lsb` of Rn, zero- or sign-extended. */
export function extractField(x: ArmInsn, rd: number, rn: number, lsb: number, width: number, signed: boolean): void {
  const n = x.r(rn);
  if (signed) x.setR(rd, bin('sar', bin('shl', n, konst(32 - lsb - width, 4)), konst(32 - width, 4)));
  else x.setR(rd, bin('and', lsb ? bin('shr', n, konst(lsb, 4)) : n, ones(width)));
}

/** BFI (Rn's low bits into Rd at lsb..msb) and BFC (Rn = pc: clear them); Rd's other bits stay. */
export function insertField(x: ArmInsn, rd: number, rn: number, lsb: number, msb: number): void {
  if (msb < lsb) return;
  const mask = ((1n << BigInt(msb - lsb + 1)) - 1n) << BigInt(lsb);
  const kept = bin('and', x.r(rd), konst(~mask & 0xffffffffn, 4));
  if (rn === PC) x.setR(rd, kept);
  else x.setR(rd, bin('or', kept, bin('and', bin('shl', x.r(rn), konst(lsb, 4)), konst(mask, 4))));
}

/** An operation the IR does not model: Rd ← name(reads). */
export function opInto(x: ArmInsn, rd: number, name: string, reads: number[]): void {
  x.setR(rd, { k: 'op', name, args: reads.map((r) => x.r(r)), w: 4 });
}
