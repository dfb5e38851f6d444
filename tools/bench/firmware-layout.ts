// Byte-level pieces of the firmware benchmark's hand-built images (firmware-images.ts): seeded noise, a flash
// layout that records where each part was put, and the Broadcom TRX header, which no Debian tool writes.
import { crc32 } from 'node:zlib';

/** Bytes from a seeded xorshift32, so every run builds byte-identical images. */
export function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A part put into an image: where it starts and what it is. */
export interface PlacedPart {
  offset: number;
  label: string;
}

/** A flash image assembled part by part, with filler between; `parts` says where each part starts. */
export class FlashLayout {
  readonly parts: PlacedPart[] = [];
  private readonly pieces: Uint8Array[] = [];
  private length = 0;

  get size(): number {
    return this.length;
  }

  /** A part whose offset the benchmark checks. */
  part(label: string, bytes: Uint8Array): this {
    this.parts.push({ offset: this.length, label });
    return this.append(bytes);
  }

  /** Bytes whose offset is not checked: filler, or what a container's own header already locates. */
  filler(bytes: Uint8Array): this {
    return this.append(bytes);
  }

  /** Filler: `byte` (0xff as erased flash, 0x00) up to the next multiple of `boundary`. */
  padTo(boundary: number, byte: number): this {
    return this.append(new Uint8Array((boundary - (this.length % boundary)) % boundary).fill(byte));
  }

  /** Filler: `length` bytes of seeded noise (a boot loader's code, a calibration block). */
  noise(length: number, seed: number): this {
    return this.append(noise(length, seed));
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.pieces);
  }

  private append(bytes: Uint8Array): this {
    this.pieces.push(bytes);
    this.length += bytes.length;
    return this;
  }
}

/** TRX v1: "HDR0", length, CRC-32, flags, version, three partition offsets. */
export const TRX_HEADER_SIZE = 28;

/**
 * Writes a TRX v1 header into the first 28 bytes of `image` (which holds the partitions after them) naming
 * up to three partition offsets. The CRC covers bytes 12 to the end (offsets included), seeded with
 * 0xffffffff and stored as the register stands, without CRC-32's final inversion.
 */
export function writeTrxHeader(image: Uint8Array, partitionOffsets: readonly number[]): void {
  if (partitionOffsets.length > 3) throw new Error('TRX v1 names at most three partitions');
  const v = new DataView(image.buffer, image.byteOffset, image.byteLength);
  image.set([0x48, 0x44, 0x52, 0x30], 0);
  v.setUint32(4, image.length, true);
  v.setUint16(12, 0, true);
  v.setUint16(14, 1, true);
  for (let i = 0; i < 3; i++) v.setUint32(16 + 4 * i, partitionOffsets[i] ?? 0, true);
  v.setUint32(8, (crc32(image.subarray(12)) ^ 0xffffffff) >>> 0, true);
}
