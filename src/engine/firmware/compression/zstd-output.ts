// A Zstandard frame's output: one buffer that the sequence loop writes into directly, 8 bytes at a time and
// past the end of each copy (which BoundedOutput's byte-wise copyMatch cannot give: byte loops take twice as
// long), grown by doubling, never past the caller's bound nor the frame's declared content size.
import { DecodeError, OutputLimitError } from './errors.js';

/** Spare bytes past the buffer's capacity that the sequence loop's wide copies may overwrite (16 at most). */
export const WILDCOPY_SLACK = 32;
/** The first buffer when the frame's size is not known in advance: 256 KiB, two full blocks. */
const FIRST_CAPACITY = 256 << 10;

export class FrameOutput {
  buf: Uint8Array;
  length = 0;
  /** The most bytes the frame may produce: the caller's limit, or the declared content size below it. */
  private readonly max: number;

  /**
   * `bound` is what the frame's block headers allow at most (raw and RLE sizes, a full block for each
   * compressed one): the buffer is never grown past it, so a tiny frame declaring a huge size costs nothing.
   */
  constructor(
    readonly limit: number,
    private readonly contentSize: number | null,
    private readonly bound: number,
  ) {
    this.max = Math.min(limit, contentSize ?? Infinity);
    const first = contentSize !== null && contentSize <= bound ? contentSize : FIRST_CAPACITY;
    this.buf = new Uint8Array(Math.min(this.max, bound, first) + WILDCOPY_SLACK);
  }

  /** Room for `n` more bytes, or the error for passing the limit (or the declared size). */
  reserve(n: number): void {
    const need = this.length + n;
    if (need > this.max) this.refuse();
    if (need > this.buf.length - WILDCOPY_SLACK) this.grow(need);
  }

  /** Room for up to `n` more bytes (what one compressed block may add); returns the end index it reaches. */
  reserveUpTo(n: number): number {
    const end = Math.min(this.length + n, this.max);
    if (end > this.buf.length - WILDCOPY_SLACK) this.grow(end);
    return end;
  }

  /** Throws for output past `max`: corrupt if the frame declared less, else the caller's limit. */
  refuse(): never {
    if (this.contentSize !== null && this.contentSize < this.limit)
      throw new DecodeError(`zstd: frame decodes to more than its declared ${this.contentSize} bytes`);
    throw new OutputLimitError(this.limit);
  }

  /** The bytes decoded, copied out only when the buffer holds much unused room. */
  result(): Uint8Array {
    const data = this.buf.subarray(0, this.length);
    return this.buf.length - WILDCOPY_SLACK - this.length > this.length >> 3 ? data.slice() : data;
  }

  private grow(need: number): void {
    const size = Math.min(Math.max(need, (this.buf.length - WILDCOPY_SLACK) * 2), this.max, Math.max(need, this.bound));
    const next = new Uint8Array(size + WILDCOPY_SLACK);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
}
