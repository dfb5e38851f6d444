// Immediates that are values, not addresses or frame offsets: masks, magic numbers, sizes, hash
// multipliers. They survive every compiler and architecture (0x9E3779B1 is the same in lz4's xxhash on
// x86-64 and MIPS), so they are among the strongest cross-architecture features.
import { DIALECTS, type IsaFamily } from '../isa/index.js';

/** Memory operands (`[rbx+8]`, `[sp, #0x10]`, MIPS `-32(sp)`): their offsets are layout, not values. */
export const MEMORY = /\[[^\]]*\]|-?(0x[0-9a-f]+|\d+)?\([^)]*\)/g;
/** Stack and frame registers: immediates next to them are frame sizes, which follow register pressure. */
export const FRAME = /\b([re]?sp|[re]?bp|sp|fp|x29|s8)\b/;
/** Instructions that form addresses (pages, PC-relative offsets). */
export const ADDRESSING = /^(adrp?|lea)$/;
const NUMBER = /(?<![\w.])#?(-?)(0x[0-9a-f]+|\d+)\b/g;

/**
 * -1, 0, 1 and 2 index, step and test everywhere; they tell functions apart no better than `add` does.
 * Values are read as signed 64-bit, and 32-bit patterns as signed 32-bit (x86-64 prints the sign-extended
 * `0xfffffffffffffff0` or `0xfffffff0` where AArch64 prints `#-16`).
 */
function canonical(negative: boolean, value: bigint): string | null {
  let v = BigInt.asIntN(64, negative ? -value : value);
  if (v >= 0x80000000n && v <= 0xffffffffn) v -= 0x1_0000_0000n;
  return v > -2n && v < 3n ? null : String(v);
}

/** The value immediates of one instruction, canonical signed decimal; addresses dropped by `isAddress`. */
export function operandConstants(
  family: IsaFamily,
  mnemonic: string,
  operands: string,
  isAddress: (v: number) => boolean,
): string[] {
  const m = mnemonic.toLowerCase();
  const ops = operands.toLowerCase();
  if (DIALECTS[family].transfer.test(m) || ADDRESSING.test(m) || FRAME.test(ops)) return [];
  // MIPS `lui` sets the upper half: its value is the operand shifted left by 16.
  const shift = family === 'mips' && m === 'lui' ? 16n : 0n;
  const out: string[] = [];
  for (const [, sign, digits] of ops.replace(MEMORY, ' ').matchAll(NUMBER)) {
    const value = BigInt(digits!) << shift;
    if (!sign && isAddress(Number(value))) continue;
    const c = canonical(sign === '-', value);
    if (c !== null) out.push(c);
  }
  return out;
}
