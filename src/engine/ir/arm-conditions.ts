// The condition field of ARM, Thumb and AArch64 (the same sixteen codes in all three) as IR conditions:
// what the code means after `cmp a, b`.
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
