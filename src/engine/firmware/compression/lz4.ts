// LZ4 in its three containers: the raw block (SquashFS, UBIFS, and the unit of the other two), the frame
// (magic 0x184D2204: descriptor, sized blocks, xxHash32 checksums) and the legacy stream (0x184C2102: 8 MiB
// blocks, no checksums; Linux kernels and initramfs images use it). Every length comes from the input and is
// checked against it; the output grows by doubling and never past the caller's bound.
import { DecodeError, OutputLimitError, type Decoded } from './errors.js';

export const LZ4_FRAME_MAGIC = 0x184d2204;
export const LZ4_LEGACY_MAGIC = 0x184c2102;
/** Skippable frames carry 0x184D2A50 … 0x184D2A5F: user data the decoder steps over. */
export const LZ4_SKIPPABLE_MAGIC = 0x184d2a50;
const SKIPPABLE_MASK = 0xfffffff0;

const MIN_MATCH = 4;
/** A match reaches at most 65535 bytes back (its offset is 16 bits): the most of a dictionary that counts. */
const WINDOW = 0xffff;
/** LZ4 cannot expand more than 255:1 (one length byte adds at most 255): a bound on what a block can hold. */
const MAX_RATIO = 255;
/** Legacy blocks each hold 8 MiB of output; the last may hold less. */
const LEGACY_BLOCK = 8 << 20;
/** LZ4_compressBound(8 MiB): no legacy block's compressed size exceeds it (8388608 + 8388608/255 + 16). */
const LEGACY_BOUND = LEGACY_BLOCK + Math.floor(LEGACY_BLOCK / 255) + 16;
/** Block maximum sizes by the BD byte's 3-bit code: 4 → 64 KiB, 5 → 256 KiB, 6 → 1 MiB, 7 → 4 MiB. */
const BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

const FLG_VERSION_MASK = 0xc0;
const FLG_VERSION_01 = 0x40;
const FLG_BLOCK_INDEPENDENT = 0x20;
const FLG_BLOCK_CHECKSUM = 0x10;
const FLG_CONTENT_SIZE = 0x08;
const FLG_CONTENT_CHECKSUM = 0x04;
const FLG_RESERVED = 0x02;
const FLG_DICT_ID = 0x01;
const BD_RESERVED = 0x8f;
const BLOCK_UNCOMPRESSED = 0x80000000;

const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/**
 * The decoded bytes so far in one buffer that doubles as it fills. `base` bytes at its start are a dictionary
 * (not output): the limit counts only what follows them.
 */
class Output {
  buf: Uint8Array;
  length: number;

  constructor(
    readonly limit: number,
    sizeHint: number,
    readonly base = 0,
  ) {
    this.buf = new Uint8Array(Math.max(64, Math.min(sizeHint, limit) + base));
    this.length = base;
  }

  /**
   * Grows the buffer once to what the stream's block headers say it can hold at most (within the limit), so
   * a large stream is not copied at every doubling.
   */
  expect(size: number): void {
    const need = Math.min(this.length + size, this.limit + this.base);
    if (need > this.buf.length) this.room(this.length, need);
  }

  /** A buffer with room for `need` bytes in all, holding the first `used` of the current one. */
  room(used: number, need: number): Uint8Array {
    if (need - this.base > this.limit) throw new OutputLimitError(this.limit);
    if (need <= this.buf.length) return this.buf;
    const next = new Uint8Array(Math.min(Math.max(need, this.buf.length * 2), this.limit + this.base));
    next.set(this.buf.subarray(0, used));
    return (this.buf = next);
  }

  /** The output (without the dictionary), copied out when the buffer holds a dictionary or much unused room. */
  result(): Uint8Array {
    const data = this.buf.subarray(this.base, this.length);
    return this.base > 0 || this.buf.length - this.length > this.length >> 2 ? data.slice() : data;
  }
}

/**
 * Decodes the sequences of one compressed block, src[ip, end), onto `out`; matches may reach back to `floor`
 * (the block's own start for independent blocks, the frame's start for linked ones, 0 with a dictionary).
 */
function decodeSequences(src: Uint8Array, ip: number, end: number, out: Output, floor: number): void {
  let buf = out.buf;
  let op = out.length;
  if (ip >= end) throw new DecodeError('lz4: empty block');
  for (;;) {
    if (ip >= end) throw new DecodeError('lz4: block ends after a match (the last sequence must be literals)');
    const token = src[ip++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      // A nibble of 15 says more length follows, in bytes that add 255 each until one is less.
      let b: number;
      do {
        if (ip >= end) throw new DecodeError('lz4: block ends inside a literal length');
        literals += b = src[ip++]!;
      } while (b === 255);
    }
    if (literals > end - ip) throw new DecodeError('lz4: literals run past the block');
    if (op + literals > buf.length) buf = out.room(op, op + literals);
    if (literals < 32) for (const stop = ip + literals; ip < stop;) buf[op++] = src[ip++]!;
    else {
      buf.set(src.subarray(ip, ip + literals), op);
      ip += literals;
      op += literals;
    }
    if (ip === end) break;
    if (end - ip < 2) throw new DecodeError('lz4: block ends inside a match offset');
    const distance = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (distance === 0 || distance > op - floor) throw new DecodeError(`lz4: match offset ${distance} out of reach`);
    let length = (token & 15) + MIN_MATCH;
    if (length === 15 + MIN_MATCH) {
      let b: number;
      do {
        if (ip >= end) throw new DecodeError('lz4: block ends inside a match length');
        length += b = src[ip++]!;
      } while (b === 255);
    }
    if (op + length > buf.length) buf = out.room(op, op + length);
    let from = op - distance;
    if (length < 32) for (const stop = op + length; op < stop;) buf[op++] = buf[from++]!;
    else if (distance >= length) {
      buf.copyWithin(op, from, from + length);
      op += length;
    } else {
      // An overlapping match repeats its last `distance` bytes: copy in doubling runs of whole periods.
      for (let left = length; left > 0;) {
        const run = Math.min(left, op - from);
        buf.copyWithin(op, from, from + run);
        op += run;
        left -= run;
      }
    }
  }
  out.length = op;
}

/**
 * One raw LZ4 block as LZ4_decompress_safe reads it (the whole input is the block). A `dictionary` (its last
 * 64 KiB count) is the history the block's first matches may reach into.
 */
export function decodeLz4Block(input: Uint8Array, maxOutput: number, dictionary?: Uint8Array): Decoded {
  const dict = dictionary ? dictionary.subarray(Math.max(0, dictionary.length - WINDOW)) : new Uint8Array(0);
  const out = new Output(maxOutput, input.length * 4 + 64, dict.length);
  out.buf.set(dict);
  decodeSequences(input, 0, input.length, out, 0);
  return { data: out.result(), consumed: input.length };
}

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;
const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
const round = (acc: number, lane: number) => Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);

/** xxHash32 of b[start, end) with seed 0: the checksum of LZ4 frame headers, blocks and contents. */
export function xxHash32(b: Uint8Array, start = 0, end = b.length): number {
  // DataView reads of unaligned little-endian words run about twice as fast as assembling them from bytes.
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = start;
  let h: number;
  if (end - start >= 16) {
    let v1 = (P1 + P2) | 0;
    let v2 = P2;
    let v3 = 0;
    let v4 = -P1 | 0;
    for (const limit = end - 16; at <= limit; at += 16) {
      v1 = round(v1, v.getInt32(at, true));
      v2 = round(v2, v.getInt32(at + 4, true));
      v3 = round(v3, v.getInt32(at + 8, true));
      v4 = round(v4, v.getInt32(at + 12, true));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else h = P5;
  h = (h + (end - start)) | 0;
  for (; at + 4 <= end; at += 4) h = Math.imul(rotl((h + Math.imul(v.getInt32(at, true), P3)) | 0, 17), P4);
  for (; at < end; at++) h = Math.imul(rotl((h + Math.imul(b[at]!, P5)) | 0, 11), P1);
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The most a frame's blocks from src[at…) can decode to, from their headers alone: a compressed block gives
 * at most the frame's block size, or 255 bytes per input byte if less. Walks only what is there.
 */
function frameBound(src: Uint8Array, at: number, blockMax: number, checksummed: boolean): number {
  let bound = 0;
  while (at + 4 <= src.length) {
    const word = u32(src, at);
    if (word === 0) break;
    const size = word & ~BLOCK_UNCOMPRESSED;
    bound += word & BLOCK_UNCOMPRESSED ? size : Math.min(blockMax, size * MAX_RATIO);
    at += 4 + size + (checksummed ? 4 : 0);
  }
  return bound;
}

/** Decodes the frame at src[at…) onto `out`; returns where it ends. */
function frameInto(src: Uint8Array, at: number, out: Output): number {
  if (at + 7 > src.length || u32(src, at) !== LZ4_FRAME_MAGIC) throw new DecodeError('lz4: not a frame');
  const flg = src[at + 4]!;
  const bd = src[at + 5]!;
  if ((flg & FLG_VERSION_MASK) !== FLG_VERSION_01 || flg & FLG_RESERVED || bd & BD_RESERVED)
    throw new DecodeError(`lz4: unknown frame version or reserved bits (FLG ${flg}, BD ${bd})`);
  const blockMax = BLOCK_MAX[(bd >> 4) & 7]!;
  if (!blockMax) throw new DecodeError(`lz4: reserved block size code ${(bd >> 4) & 7}`);
  const descriptorEnd = at + 6 + (flg & FLG_CONTENT_SIZE ? 8 : 0) + (flg & FLG_DICT_ID ? 4 : 0);
  if (descriptorEnd >= src.length) throw new DecodeError('lz4: frame descriptor truncated');
  if (((xxHash32(src, at + 4, descriptorEnd) >>> 8) & 0xff) !== src[descriptorEnd])
    throw new DecodeError('lz4: frame descriptor checksum mismatch');
  if (flg & FLG_DICT_ID) throw new DecodeError(`lz4: frame needs dictionary ${u32(src, descriptorEnd - 4)}`);
  let contentSize = -1;
  if (flg & FLG_CONTENT_SIZE) {
    contentSize = u32(src, at + 6) + u32(src, at + 10) * 2 ** 32;
    if (out.length - out.base + contentSize > out.limit) throw new OutputLimitError(out.limit);
  }
  const checksummed = (flg & FLG_BLOCK_CHECKSUM) !== 0;
  out.expect(
    Math.min(contentSize < 0 ? Infinity : contentSize, frameBound(src, descriptorEnd + 1, blockMax, checksummed)),
  );
  const start = out.length;
  const independent = (flg & FLG_BLOCK_INDEPENDENT) !== 0;
  let ip = descriptorEnd + 1;
  for (;;) {
    if (ip + 4 > src.length) throw new DecodeError('lz4: frame truncated before its end mark');
    const word = u32(src, ip);
    ip += 4;
    if (word === 0) break;
    const size = word & ~BLOCK_UNCOMPRESSED;
    if (size > blockMax) throw new DecodeError(`lz4: block of ${size} bytes passes the frame's ${blockMax}`);
    const dataEnd = ip + size;
    if (dataEnd + (checksummed ? 4 : 0) > src.length) throw new DecodeError('lz4: block truncated');
    if (checksummed && xxHash32(src, ip, dataEnd) !== u32(src, dataEnd))
      throw new DecodeError('lz4: block checksum mismatch');
    if (word & BLOCK_UNCOMPRESSED) {
      const buf = out.room(out.length, out.length + size);
      buf.set(src.subarray(ip, dataEnd), out.length);
      out.length += size;
    } else {
      const blockStart = out.length;
      decodeSequences(src, ip, dataEnd, out, independent ? blockStart : start);
      if (out.length - blockStart > blockMax) throw new DecodeError('lz4: block decodes past the frame block size');
    }
    ip = dataEnd + (checksummed ? 4 : 0);
  }
  if (contentSize >= 0 && out.length - start !== contentSize)
    throw new DecodeError(`lz4: frame decodes to ${out.length - start} bytes, its header says ${contentSize}`);
  if (flg & FLG_CONTENT_CHECKSUM) {
    if (ip + 4 > src.length) throw new DecodeError('lz4: content checksum truncated');
    if (xxHash32(out.buf, start, out.length) !== u32(src, ip)) throw new DecodeError('lz4: content checksum mismatch');
    ip += 4;
  }
  return ip;
}

/** Decodes the legacy stream at src[at…) onto `out`; returns where it ends. */
function legacyInto(src: Uint8Array, at: number, out: Output): number {
  if (at + 8 > src.length || u32(src, at) !== LZ4_LEGACY_MAGIC) throw new DecodeError('lz4: not a legacy stream');
  let bound = 0;
  for (let scan = at + 4; scan + 4 <= src.length;) {
    const size = u32(src, scan);
    if (size === 0 || size > LEGACY_BOUND) break;
    bound += Math.min(LEGACY_BLOCK, size * MAX_RATIO);
    scan += 4 + size;
    if (size * MAX_RATIO < LEGACY_BLOCK) break; // too small to be a full block: the last one
  }
  out.expect(bound);
  let ip = at + 4;
  for (let first = true; ip + 4 <= src.length; first = false) {
    const size = u32(src, ip);
    // Zero, or more than 8 MiB can compress to (every magic is), is no block: the stream ended before it.
    if (size === 0 || size > LEGACY_BOUND) {
      if (first) throw new DecodeError('lz4: legacy stream without a block');
      break;
    }
    if (ip + 4 + size > src.length) throw new DecodeError('lz4: legacy block truncated');
    const blockStart = out.length;
    decodeSequences(src, ip + 4, ip + 4 + size, out, blockStart);
    ip += 4 + size;
    const produced = out.length - blockStart;
    if (produced > LEGACY_BLOCK) throw new DecodeError('lz4: legacy block decodes past 8 MiB');
    // Only the last block holds less than 8 MiB: what follows a short one is not this stream's.
    if (produced < LEGACY_BLOCK) break;
  }
  return ip;
}

const run = (input: Uint8Array, maxOutput: number, decode: typeof frameInto): Decoded => {
  const out = new Output(maxOutput, 0);
  const consumed = decode(input, 0, out);
  return { data: out.result(), consumed };
};

/** One LZ4 frame (magic 0x184D2204), checksums verified; `consumed` ends after its end mark and checksum. */
export const decodeLz4Frame = (input: Uint8Array, maxOutput: number): Decoded => run(input, maxOutput, frameInto);

/** One legacy LZ4 stream (magic 0x184C2102): up to the input's end, the next magic, or a short last block. */
export const decodeLz4Legacy = (input: Uint8Array, maxOutput: number): Decoded => run(input, maxOutput, legacyInto);

/**
 * Concatenated frames as the lz4 tool writes and reads them: LZ4 frames, legacy streams and skippable frames
 * (stepped over), up to the first thing that is none of them.
 */
export function decodeLz4Stream(input: Uint8Array, maxOutput: number): Decoded {
  const out = new Output(maxOutput, 0);
  let at = 0;
  while (at + 4 <= input.length) {
    const magic = u32(input, at);
    if (magic === LZ4_FRAME_MAGIC) at = frameInto(input, at, out);
    else if (magic === LZ4_LEGACY_MAGIC) at = legacyInto(input, at, out);
    else if ((magic & SKIPPABLE_MASK) >>> 0 === LZ4_SKIPPABLE_MAGIC) {
      if (at + 8 > input.length) throw new DecodeError('lz4: skippable frame truncated');
      const next = at + 8 + u32(input, at + 4);
      if (next > input.length) throw new DecodeError('lz4: skippable frame runs past the input');
      at = next;
    } else break;
  }
  if (at === 0) throw new DecodeError('lz4: no frame at the start');
  return { data: out.result(), consumed: at };
}
