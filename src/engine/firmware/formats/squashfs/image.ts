// One SquashFS image being read: its bytes (offsets in the superblock count from its first byte), its
// byte order, its compressor, and the budget its decoders share.
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { ReadContext } from '../../format.js';
import { COMPRESSORS, type Compressor } from './compressors.js';
import type { Superblock } from './superblock.js';
import { EndianView } from './view.js';

export class Image {
  readonly bytes: Uint8Array;
  readonly view: EndianView;
  private readonly decode: Compressor['decode'];
  /** Metadata decoded so far: tables stay cached while the walk runs, so they count against the budget. */
  private metadataBytes = 0;

  constructor(
    data: Uint8Array,
    offset: number,
    readonly sb: Superblock,
    readonly ctx: ReadContext,
  ) {
    this.bytes = data.subarray(offset, offset + sb.bytesUsed);
    this.view = new EndianView(this.bytes, sb.littleEndian);
    this.decode = COMPRESSORS[sb.compression]!.decode;
  }

  /** `length` stored bytes at `at`, checked against bytes_used. */
  slice(at: number, length: number, what: string): Uint8Array {
    if (at < 0 || length < 0 || at + length > this.bytes.length)
      throw new DecodeError(`squashfs: ${what} (${length} bytes at ${at}) lies past bytes_used ${this.bytes.length}`);
    return this.bytes.subarray(at, at + length);
  }

  /** A compressed block, decoded to at most `max` bytes and never past the budget. */
  decompress(input: Uint8Array, max: number): Uint8Array {
    return this.decode(input, Math.min(max, this.ctx.remaining())).data;
  }

  /** Counts a decoded metadata block against the budget (the walk keeps it cached). */
  chargeMetadata(n: number): void {
    this.metadataBytes += n;
    const remaining = this.ctx.remaining();
    if (this.metadataBytes > remaining) throw new OutputLimitError(remaining);
  }
}
