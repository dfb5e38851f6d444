// What ARM, Thumb and AArch64 share: the condition field (the same sixteen codes in all three) as IR
// conditions, named by what they mean after `cmp a, b`, and the 8-bit floating-point immediates of fmov
// and vmov.
import { konst, type Cond, type Expr } from './ir.js';

/** eq ne cs cc mi pl vs vc hi ls ge lt gt le; 14 (al) and 15 (nv) always hold. */
const CONDITIONS: readonly Cond[] = [
  'eq',
  'ne',
  'uge',
  'ult',
  'neg',
  'pos',
  'ov',
  'nov',
  'ugt',
  'ule',
  'sge',
  'slt',
  'sgt',
  'sle',
];

export const ALWAYS = 14;

/** 1 when condition `code` holds of the flags `flags` (a register read, or a flags expression), `w` bytes wide. */
export function armCondition(code: number, flags: Expr, w: number): Expr {
  const cc = CONDITIONS[code];
  return cc ? { k: 'cond', cc, flags, w } : konst(1, w);
}

/** VFPExpandImm: an 8-bit immediate as a half, single or double: sign, 3-bit exponent, 4-bit fraction. */
export function expandFpImmediate(imm8: number, bits: number): bigint {
  const e = bits === 16 ? 5 : bits === 32 ? 8 : 11;
  const f = bits - e - 1;
  const b6 = (imm8 >>> 6) & 1;
  const replicated = b6 ? (1n << BigInt(e - 3)) - 1n : 0n;
  const exp = (BigInt(b6 ^ 1) << BigInt(e - 1)) | (replicated << 2n) | BigInt((imm8 >>> 4) & 3);
  const frac = BigInt(imm8 & 0xf) << BigInt(f - 4);
  return (BigInt(imm8 >>> 7) << BigInt(bits - 1)) | (exp << BigInt(f)) | frac;
}
