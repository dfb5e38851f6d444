// Bounds-checked reads over a file prefix. Every read is range-checked so format parsers fed hostile or
// truncated input can never throw a RangeError: out-of-range reads yield 0 and callers check `has` first.

/** Longest string we ever read (interpreter paths, section names): keeps hostile inputs from costing much. */
export const MAX_STRING = 4096;

export class ByteView {
  private readonly dv: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly little: boolean,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  /** True when [offset, offset+size) lies inside the view; rejects negative, fractional and non-finite values. */
  has(offset: number, size: number): boolean {
    return (
      Number.isSafeInteger(offset) &&
      Number.isSafeInteger(size) &&
      offset >= 0 &&
      size >= 0 &&
      offset + size <= this.bytes.length
    );
  }

  u8(offset: number): number {
    return this.has(offset, 1) ? this.dv.getUint8(offset) : 0;
  }

  u16(offset: number): number {
    return this.has(offset, 2) ? this.dv.getUint16(offset, this.little) : 0;
  }

  u32(offset: number): number {
    return this.has(offset, 4) ? this.dv.getUint32(offset, this.little) : 0;
  }

  /** 64-bit values become numbers: addresses above 2^53 lose low bits, which identity reporting tolerates. */
  u64(offset: number): number {
    return this.has(offset, 8) ? Number(this.dv.getBigUint64(offset, this.little)) : 0;
  }

  /** Word of the file's class: 4 bytes for 32-bit formats, 8 for 64-bit. */
  word(offset: number, is64: boolean): number {
    return is64 ? this.u64(offset) : this.u32(offset);
  }

  /** NUL-terminated ASCII at offset, at most `max` bytes and never past the view; '' when out of range. */
  cstring(offset: number, max = MAX_STRING): string {
    if (!this.has(offset, 0)) return '';
    const end = Math.min(this.bytes.length, offset + Math.max(0, Math.min(max, MAX_STRING)));
    let out = '';
    for (let i = offset; i < end; i++) {
      const c = this.bytes[i] ?? 0;
      if (c === 0) break;
      out += String.fromCharCode(c);
    }
    return out;
  }

  /** Fixed-width, NUL-padded name (Mach-O segment names). */
  fixedString(offset: number, width: number): string {
    return this.has(offset, width) ? this.cstring(offset, width) : '';
  }
}

/** Base addresses are reported page-aligned, as loaders map them. */
export const PAGE_SIZE = 0x1000;

export function alignDown(value: number, align: number): number {
  return Math.floor(value / align) * align;
}
