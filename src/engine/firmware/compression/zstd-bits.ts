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
 * Backward reader over src[start, end). The bits not yet taken sit in a 32-bit container topped up a byte at
 * a time to more than 24 bits, so any read of up to 25 bits needs at most one refill. Past the first byte it
 * loads zeros but keeps count: `remaining()` goes negative, and each caller checks it when its (bounded)
 * loop ends, so an overrun is a DecodeError and never a stream of endless zeros.
 */
export class BackwardBits {
  /** Bits not yet taken are the low `avail` bits of `bits`; src[pos - 1] is the next byte to load. */
  bits: number;
  avail: number;
  pos: number;

  constructor(
    readonly src: Uint8Array,
    readonly start: number,
    end: number,
  ) {
    const last = end > start ? src[end - 1]! : 0;
    if (last === 0) throw new DecodeError('zstd: bitstream without its end mark');
    this.pos = end - 1;
    this.bits = last;
    this.avail = 31 - Math.clz32(last);
    this.refill();
  }

  refill(): void {
    while (this.avail <= 24) {
      const p = --this.pos;
      this.bits = (this.bits << 8) | (p >= this.start ? this.src[p]! : 0);
      this.avail += 8;
    }
  }

  /** The next `n` ≤ 25 bits as a number, first bit highest. */
  read(n: number): number {
    if (this.avail < n) this.refill();
    this.avail -= n;
    return (this.bits >>> this.avail) & ((1 << n) - 1);
  }

  /** Bits left before the stream's first bit: 0 when read exactly, negative after reading past it. */
  remaining(): number {
    return (this.pos - this.start) * 8 + this.avail;
  }
}
