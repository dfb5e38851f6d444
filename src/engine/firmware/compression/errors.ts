// The two ways a decompressor gives up: the input is not (or no longer) a valid stream, or its output would
// pass the bound its caller set. Both are typed so the unpacker records the right problem and goes on.

/** The input is corrupt or truncated, or uses a feature this decoder does not read (the message says which). */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

/** The stream decodes to more than `limit` bytes: a decompression bomb, or a budget spent. */
export class OutputLimitError extends Error {
  override readonly name = 'OutputLimitError';
  constructor(readonly limit: number) {
    super(`decompressed output passes ${limit} bytes`);
  }
}

/** What a decompressor returns: the bytes, and how many input bytes the stream took (its extent, for carving). */
export interface Decoded {
  data: Uint8Array;
  consumed: number;
}

/**
 * A growable output buffer that never holds more than `limit` bytes: decoders append to it and read back
 * from it (LZ77 matches), and it throws OutputLimitError the moment the stream would pass the limit.
 */
export class BoundedOutput {
  private buf: Uint8Array;
  length = 0;

  constructor(
    readonly limit: number,
    sizeHint = 64 << 10,
  ) {
    this.buf = new Uint8Array(Math.max(16, Math.min(sizeHint, limit)));
  }

  /** Room for `n` more bytes, growing by doubling (never past the limit). */
  reserve(n: number): void {
    const need = this.length + n;
    if (need > this.limit) throw new OutputLimitError(this.limit);
    if (need <= this.buf.length) return;
    let size = this.buf.length;
    while (size < need) size *= 2;
    const next = new Uint8Array(Math.min(size, this.limit));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  push(byte: number): void {
    if (this.length === this.buf.length) this.reserve(1);
    this.buf[this.length++] = byte;
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Copies `length` bytes from `distance` back (overlapping copies repeat, as LZ77 means them). */
  copyMatch(distance: number, length: number): void {
    if (distance <= 0 || distance > this.length) throw new DecodeError(`match distance ${distance} before the start`);
    this.reserve(length);
    const b = this.buf;
    let from = this.length - distance;
    let to = this.length;
    for (const end = to + length; to < end;) b[to++] = b[from++]!;
    this.length = to;
  }

  at(i: number): number {
    return this.buf[i]!;
  }

  /** The bytes written so far (a view: copy before appending more if it must stay). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
