// Every SquashFS field is read through this view: 4.0 is little endian as Linux writes it, but vendor
// tools (Broadcom, Realtek SDKs) write the same layout big endian, so the byte order is the image's, not ours.
import { DecodeError } from '../../compression/errors.js';

export class EndianView {
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  /** The same byte order over other bytes (a metadata read, a block list). */
  over(bytes: Uint8Array): EndianView {
    return new EndianView(bytes, this.littleEndian);
  }

  private check(at: number, n: number): void {
    if (at < 0 || at + n > this.bytes.length)
      throw new DecodeError(`squashfs: a ${n}-byte field at ${at} lies past the ${this.bytes.length} bytes there`);
  }

  u16(at: number): number {
    this.check(at, 2);
    return this.view.getUint16(at, this.littleEndian);
  }

  i16(at: number): number {
    this.check(at, 2);
    return this.view.getInt16(at, this.littleEndian);
  }

  u32(at: number): number {
    this.check(at, 4);
    return this.view.getUint32(at, this.littleEndian);
  }

  /** A 64-bit field as a number: exact below 2^53, and anything above is far past any image's end anyway. */
  u64(at: number): number {
    this.check(at, 8);
    const lo = this.view.getUint32(at + (this.littleEndian ? 0 : 4), this.littleEndian);
    const hi = this.view.getUint32(at + (this.littleEndian ? 4 : 0), this.littleEndian);
    return hi * 0x1_0000_0000 + lo;
  }
}
