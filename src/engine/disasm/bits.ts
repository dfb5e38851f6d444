// Byte and bit helpers shared by the table-driven decoders. Callers check bounds first; these never do.

export const u16le = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8);

export const u32le = (b: Uint8Array, o: number): number =>
  (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;

export const u32be = (b: Uint8Array, o: number): number =>
  ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;

/** Sign-extends the low `bits` bits of `value` (bits ≤ 32). */
export const signExtend = (value: number, bits: number): number => (value << (32 - bits)) >> (32 - bits);

/** True when `offset` is an integer with `size` bytes available from it. */
export const fits = (bytes: Uint8Array, offset: number, size: number): boolean =>
  Number.isInteger(offset) && offset >= 0 && offset + size <= bytes.length;

/** A 64-bit architecture's address; an address that wrapped below 0 is none (-1). */
export const addr64 = (a: number): number => (a >= 0 ? a : -1);

/** A 32-bit architecture's address wraps modulo 2^32. */
export const addr32 = (a: number): number => a >>> 0;
