// The byte vocabulary of a 7z header: property ids, the variable-length NUMBER (one to nine bytes, the first
// byte's leading one bits saying how many follow), bit vectors (most significant bit first) and digest lists.
// Every read is checked against the header's end; a count is checked against the bytes left that could hold
// it before anything is allocated for it.
import { DecodeError } from '../../compression/errors.js';

/** Property ids (7zFormat.txt). */
export const Id = {
  end: 0x00,
  header: 0x01,
  archiveProperties: 0x02,
  additionalStreamsInfo: 0x03,
  mainStreamsInfo: 0x04,
  filesInfo: 0x05,
  packInfo: 0x06,
  unpackInfo: 0x07,
  subStreamsInfo: 0x08,
  size: 0x09,
  crc: 0x0a,
  folder: 0x0b,
  codersUnpackSize: 0x0c,
  numUnpackStream: 0x0d,
  emptyStream: 0x0e,
  emptyFile: 0x0f,
  anti: 0x10,
  name: 0x11,
  winAttributes: 0x15,
  encodedHeader: 0x17,
  dummy: 0x19,
} as const;

export class HeaderCursor {
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get left(): number {
    return this.end - this.pos;
  }

  byte(): number {
    if (this.pos >= this.end) throw truncated();
    return this.bytes[this.pos++]!;
  }

  /** A 7z NUMBER; values past 2^53 (no archive has them) are refused rather than rounded. */
  number(): number {
    const first = this.byte();
    let mask = 0x80;
    let n = 0;
    while (n < 8 && first & mask) {
      n++;
      mask >>>= 1;
    }
    if (this.left < n) throw truncated();
    let value = 0;
    for (let i = 0; i < n; i++) value += this.bytes[this.pos + i]! * 2 ** (8 * i);
    this.pos += n;
    if (n < 8) value += (first & (mask - 1)) * 2 ** (8 * n);
    if (!Number.isSafeInteger(value)) throw new DecodeError('7z header number past 2^53');
    return value;
  }

  /** A NUMBER counting things each at least `bytesEach` header bytes long: more than the bytes left can hold is a lie. */
  count(what: string, bytesEach = 1): number {
    const n = this.number();
    if (n * bytesEach > this.left) throw new DecodeError(`7z header claims ${n} ${what}, more than it holds`);
    return n;
  }

  u32(): number {
    if (this.left < 4) throw truncated();
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  take(n: number): Uint8Array {
    if (n > this.left) throw truncated();
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(n: number): void {
    if (n > this.left) throw truncated();
    this.pos += n;
  }

  /** Skips a property's size-prefixed data. */
  skipData(): void {
    this.skip(this.number());
  }

  /** `n` bits, most significant first. */
  bits(n: number): Uint8Array {
    const packed = this.take(Math.ceil(n / 8));
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = (packed[i >>> 3]! >>> (7 - (i & 7))) & 1;
    return out;
  }

  /** An "all defined" byte, then (when it is 0) a bit vector of which of the `n` items are. */
  defined(n: number): Uint8Array {
    return this.byte() !== 0 ? new Uint8Array(n).fill(1) : this.bits(n);
  }

  /** Digests: which of `n` are defined, then a CRC-32 for each defined one; null for the others. */
  digests(n: number): (number | null)[] {
    const defined = this.defined(n);
    const out: (number | null)[] = [];
    for (let i = 0; i < n; i++) out.push(defined[i] ? this.u32() : null);
    return out;
  }

  /** Reads ids, skipping other properties' data, until `id` (DecodeError at the end of the list). */
  waitFor(id: number): void {
    for (;;) {
      const type = this.number();
      if (type === id) return;
      if (type === Id.end) throw new DecodeError(`7z header lacks property 0x${id.toString(16)}`);
      this.skipData();
    }
  }
}

const truncated = () => new DecodeError('7z header truncated');
