// ElfView: the bounds-checked ByteView of a whole ELF file, with the file's class and the reads the ELF
// structures need (signed values, class-sized words, names out of string tables under a global budget).
import { ByteView } from '../byte-view.js';

/** Longest name kept from a string table; C++ names rarely pass 1 KiB. */
export const MAX_NAME = 4096;
/**
 * Characters of names kept over the whole parse: 4 per byte of file, at least 32 Mi. Real string tables
 * use each byte in about one name (linkers share only common tails), so real files never reach it; a
 * hostile table of overlapping 4 KiB names (4096 characters per byte) stops costing past it.
 */
export const NAME_BUDGET_MIN = 32 * 1024 * 1024;
const NAME_BUDGET_PER_BYTE = 4;
/** Once the budget is spent, names are cut to this many bytes rather than dropped (they still identify). */
const SHORT_NAME = 32;
const TWO_32 = 0x1_0000_0000;

const utf8 = new TextDecoder('utf-8');

export class ElfView extends ByteView {
  private readonly data: DataView;
  private nameBudget: number;
  /** True once a name had to be shortened because the budget ran out. */
  budgetExhausted = false;

  constructor(
    bytes: Uint8Array,
    little: boolean,
    readonly is64: boolean,
  ) {
    super(bytes, little);
    this.data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.nameBudget = Math.max(NAME_BUDGET_MIN, NAME_BUDGET_PER_BYTE * bytes.length);
  }

  /** Bytes in a class-sized word (addresses, st_value, r_offset). */
  get wordSize(): 4 | 8 {
    return this.is64 ? 8 : 4;
  }

  /** Two 32-bit reads instead of a BigInt: symbol and relocation loops read millions of these. */
  override u64(offset: number): number {
    if (!this.has(offset, 8)) return 0;
    const a = this.data.getUint32(offset, this.little);
    const b = this.data.getUint32(offset + 4, this.little);
    return this.little ? b * TWO_32 + a : a * TWO_32 + b;
  }

  i8(offset: number): number {
    return this.has(offset, 1) ? this.data.getInt8(offset) : 0;
  }

  i16(offset: number): number {
    return this.has(offset, 2) ? this.data.getInt16(offset, this.little) : 0;
  }

  i32(offset: number): number {
    return this.has(offset, 4) ? this.data.getInt32(offset, this.little) : 0;
  }

  i64(offset: number): number {
    if (!this.has(offset, 8)) return 0;
    const lo = this.data.getUint32(offset + (this.little ? 0 : 4), this.little);
    const hi = this.data.getInt32(offset + (this.little ? 4 : 0), this.little);
    return hi * TWO_32 + lo;
  }

  /** A class-sized word (Elf32_Addr / Elf64_Addr). */
  addr(offset: number): number {
    return this.is64 ? this.u64(offset) : this.u32(offset);
  }

  /**
   * NUL-terminated UTF-8 name at `offset`, never reading at or past `end` (the string table's end) and
   * never more than MAX_NAME bytes. '' when out of range. Charged to the name budget.
   */
  name(offset: number, end: number): string {
    const limit = Math.min(end, this.length);
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= limit) return '';
    const room = this.nameBudget > 0 ? MAX_NAME : SHORT_NAME;
    const window = this.bytes.subarray(offset, Math.min(limit, offset + room));
    const nul = window.indexOf(0);
    const raw = nul < 0 ? window : window.subarray(0, nul);
    return raw.length === 0 ? '' : this.charge(utf8.decode(raw));
  }

  /**
   * Count a name (fresh or from a cache) against the budget: the budget bounds what the result holds,
   * not only what is decoded, since a cached 4 KiB name repeated a million times is 4 GB of output.
   */
  charge(name: string): string {
    this.nameBudget -= name.length;
    if (this.nameBudget >= 0 || name.length <= SHORT_NAME) return name;
    this.budgetExhausted = true;
    return name.slice(0, SHORT_NAME);
  }
}
