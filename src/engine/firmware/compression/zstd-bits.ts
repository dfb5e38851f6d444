// Zstandard's two bit orders. Table descriptions are read forward, low bit of each byte first. Entropy-coded
// streams (Huffman literals, FSE weights, sequences) are written forward and read backward: from the last
// byte's highest bit, below an end mark (the highest set bit of the last byte), towards the first byte.
import { DecodeError } from './errors.js';

/** Forward reader over src[start, end), least significant bit first (FSE table descriptions). */
export class ForwardBits {
  private pos: number;
  private readonly endBit: number;

  constructor(
    private readonly src: Uint8Array,
    start: number,
    end: number,
  ) {
    this.pos = start * 8;
    this.endBit = end * 8;
  }

  /** The next `n` ≤ 24 bits without taking them (zeros past the end; `skip` refuses to go there). */
  peek(n: number): number {
    const at = this.pos >>> 3;
    const last = this.endBit >>> 3;
    const src = this.src;
    let word = 0;
    for (let i = 3; i >= 0; i--) word = (word << 8) | (at + i < last ? src[at + i]! : 0);
    return (word >>> (this.pos & 7)) & ((1 << n) - 1);
  }

  skip(n: number): void {
    this.pos += n;
    if (this.pos > this.endBit) throw new DecodeError('zstd: table description runs past its end');
  }

  read(n: number): number {
    const value = this.peek(n);
    this.skip(n);
    return value;
  }

  /** The byte just past the last bit taken. */
  byteEnd(): number {
    return (this.pos + 7) >>> 3;
  }
}

/**
 * Backward streams over src[start, end) are read by position: a reader keeps `p`, the bits not yet read
 * (the next bit read is bit p - 1, bit 0 being the low bit of src[start]), and takes `n` bits with
 * `p -= n; value = bitsAt(view, start, end, p, n)`. There is no refill state to carry between reads, so
 * the hot loops keep everything in local variables. Past the stream's first bit `p` goes negative and
 * `bitsAt` gives zeros; each reader checks `p` when its (bounded) loop ends, so an overrun is a
 * DecodeError, never a stream of endless zeros.
 */

/** The bits below the end mark (the highest set bit of the last byte): where a backward read starts. */
export function backwardStart(src: Uint8Array, start: number, end: number): number {
  const last = end > start ? src[end - 1]! : 0;
  if (last === 0) throw new DecodeError('zstd: bitstream without its end mark');
  return (end - 1 - start) * 8 + 31 - Math.clz32(last);
}

/** The `n` ≤ 25 bits from bit `low` up of the stream at [start, end) of `view`, as a number. */
export function bitsAt(view: DataView, start: number, end: number, low: number, n: number): number {
  const i = start + (low >> 3);
  const word = i >= start && i + 4 <= end ? view.getInt32(i, true) : edgeWord(view, start, end, i);
  return (word >>> (low & 7)) & ((1 << n) - 1);
}

/** Four bytes at i, those outside the stream read as zeros. */
function edgeWord(view: DataView, start: number, end: number, i: number): number {
  let word = 0;
  for (let k = 3; k >= 0; k--) word = (word << 8) | (i + k >= start && i + k < end ? view.getUint8(i + k) : 0);
  return word;
}

/** A DataView over the same bytes as `bytes`. */
export const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
