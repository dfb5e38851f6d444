/** The 32-bit word at `off`, little-endian, or -1 past the end (padding tests compare whole words). */
export const littleWord = (b: Uint8Array, off: number): number =>
  off + 4 <= b.length ? (b[off]! | (b[off + 1]! << 8) | (b[off + 2]! << 16) | (b[off + 3]! << 24)) >>> 0 : -1;
