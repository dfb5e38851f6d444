// C spellings the decompiler writes: the exact-width types every value has (unsigned by default, signed
// where an operation reads it so), constants of a width, and the 16-byte register struct.
export class Unsupported extends Error {}

/** Names the output gives things of its own (parameters, locals, saved flags, the switch value, helpers). */
export const RESERVED = /^(a\d+|t\d*|local_\w+|f[abc]_\d+|bl_\w+|reg_\w+)$/;

/** Widths of integer values C has a type for. */
const WIDTHS = new Set([1, 2, 4, 8]);

/** The unsigned type of a `w`-byte value (`struct v128` for a 16-byte vector register). */
export function uType(w: number): string {
  if (w === 16) return 'struct v128';
  if (!WIDTHS.has(w)) throw new Unsupported(`a ${w}-byte value`);
  return `uint${w * 8}_t`;
}

export function sType(w: number): string {
  if (!WIDTHS.has(w)) throw new Unsupported(`a signed ${w}-byte value`);
  return `int${w * 8}_t`;
}

/** A constant of width `w`, as an expression of type uType(w). */
export function constant(v: bigint, w: number): string {
  if (w === 16) {
    const u = BigInt.asUintN(128, v);
    return `((struct v128){${constant(u & 0xffffffffffffffffn, 8)}, ${constant(u >> 64n, 8)}})`;
  }
  const u = BigInt.asUintN(w * 8, v);
  const text = u < 10n ? u.toString() : `0x${u.toString(16)}`;
  if (w === 8) return `${text}ull`;
  if (w === 4) return `${text}u`;
  return `((${uType(w)})${text})`;
}

/** The mask of a `w`-byte value's bits. */
export const mask = (w: number): bigint => (1n << BigInt(w * 8)) - 1n;
