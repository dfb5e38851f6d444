// A cursor over one DWARF section (or a window of it). Every read is checked against `end`; a read past it
// throws DwarfFormatError, which the unit being read catches: the damage costs that unit, not the import.

/** Malformed DWARF: a read past the data it belongs to, a LEB128 that never ends, an unknown form. */
export class DwarfFormatError extends Error {
  override name = 'DwarfFormatError';
}

/** 64-bit values need at most 10 LEB128 bytes (7 bits each); longer ones are damage, not numbers. */
export const MAX_LEB_BYTES = 10;
/** Names longer than this are cut: no C identifier or path is, and a hostile one costs nothing more. */
export const MAX_NAME = 4096;

const utf8 = new TextDecoder('utf-8');

export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    readonly little: boolean,
    public pos = 0,
    public end = bytes.length,
  ) {
    if (end > bytes.length) this.end = bytes.length;
  }

  private need(n: number): void {
    if (this.pos + n > this.end || this.pos < 0)
      throw new DwarfFormatError(`read of ${n} bytes at 0x${this.pos.toString(16)} past 0x${this.end.toString(16)}`);
  }

  skip(n: number): void {
    if (!(n >= 0)) throw new DwarfFormatError(`negative skip ${n}`);
    this.need(n);
    this.pos += n;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 2;
    return this.little ? b[p]! | (b[p + 1]! << 8) : (b[p]! << 8) | b[p + 1]!;
  }

  u24(): number {
    this.need(3);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 3;
    return this.little ? b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) : (b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!;
  }

  u32(): number {
    this.need(4);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    const v = this.little
      ? b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)
      : (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
    return v >>> 0;
  }

  /** As a number: exact below 2^53, which every address and offset of a real binary is. */
  u64(): number {
    const first = this.u32();
    const second = this.u32();
    return this.little ? second * 0x1_0000_0000 + first : first * 0x1_0000_0000 + second;
  }

  /** An unsigned integer of 1, 2, 4 or 8 bytes (addresses, offsets). */
  uint(size: number): number {
    switch (size) {
      case 1:
        return this.u8();
      case 2:
        return this.u16();
      case 4:
        return this.u32();
      case 8:
        return this.u64();
      default:
        throw new DwarfFormatError(`unsupported integer size ${size}`);
    }
  }

  uleb(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < MAX_LEB_BYTES; i++) {
      const b = this.u8();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new DwarfFormatError(`LEB128 longer than ${MAX_LEB_BYTES} bytes at 0x${this.pos.toString(16)}`);
  }

  sleb(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < MAX_LEB_BYTES; i++) {
      const b = this.u8();
      result += (b & 0x7f) * scale;
      scale *= 128;
      if ((b & 0x80) === 0) return b & 0x40 ? result - scale : result;
    }
    throw new DwarfFormatError(`LEB128 longer than ${MAX_LEB_BYTES} bytes at 0x${this.pos.toString(16)}`);
  }

  /** A type signature (DW_FORM_ref_sig8, type unit headers): the 8 bytes in hex as stored, a map key. */
  signature(): string {
    this.need(8);
    let out = '';
    for (let i = 0; i < 8; i++) out += this.bytes[this.pos++]!.toString(16).padStart(2, '0');
    return out;
  }

  /** Moves past a NUL-terminated string; a string without its NUL before `end` is damage. */
  skipString(): void {
    const at = this.bytes.indexOf(0, this.pos);
    if (at < 0 || at >= this.end) throw new DwarfFormatError(`unterminated string at 0x${this.pos.toString(16)}`);
    this.pos = at + 1;
  }

  /** Reads a NUL-terminated UTF-8 string (cut at MAX_NAME bytes) and moves past its NUL. */
  cstring(): string {
    const start = this.pos;
    this.skipString();
    return decodeName(this.bytes, start, this.pos - 1);
  }
}

/** UTF-8 text of bytes [start, end), at most MAX_NAME bytes; ASCII (nearly every name) without a decoder. */
export function decodeName(bytes: Uint8Array, start: number, end: number): string {
  const stop = Math.min(end, start + MAX_NAME);
  let out = '';
  for (let i = start; i < stop; i++) {
    const c = bytes[i]!;
    if (c >= 0x80) return utf8.decode(bytes.subarray(start, stop));
    out += String.fromCharCode(c);
  }
  return out;
}

/** The NUL-terminated string at `offset` of a string section, or null when the offset is outside it. */
export function stringAt(section: Uint8Array | null, offset: number): string | null {
  if (!section || !(offset >= 0) || offset >= section.length) return null;
  // Searched within MAX_NAME bytes only: a hostile section without NULs must not cost a scan per name.
  const window = section.subarray(offset, Math.min(section.length, offset + MAX_NAME));
  const nul = window.indexOf(0);
  return decodeName(section, offset, offset + (nul < 0 ? window.length : nul));
}
