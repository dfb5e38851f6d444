// The .xz container: streams (header, blocks, index, footer) that may follow one another with zero padding
// between them. Every block is LZMA2 behind up to three filters (BCJ, Delta) and carries a check of its
// output; the index repeats each block's sizes and the footer points back at the index, and all of it is
// verified here, so a carved stream is taken only when it is whole and consistent.
import { createHash } from 'node:crypto';
import { crc32Value } from '../../fuzzy/crc32.js';
import { DecodeError, type Decoded } from './errors.js';
import { LzmaDecoder } from './lzma.js';
import { decodeLzma2Into } from './lzma2.js';
import { blockFilter, FILTER_LZMA2, type BlockFilter } from './xz-filters.js';

export const XZ_MAGIC = Uint8Array.of(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00);
const FOOTER_MAGIC = [0x59, 0x5a];
const HEADER_SIZE = 12;
const FOOTER_SIZE = 12;
const CHECK_NONE = 0;
const CHECK_CRC32 = 1;
const CHECK_CRC64 = 4;
const CHECK_SHA256 = 10;
/** Check bytes by check type; xz reserves the types in between, which no encoder writes. */
const CHECK_SIZES = new Map([
  [CHECK_NONE, 0],
  [CHECK_CRC32, 4],
  [CHECK_CRC64, 8],
  [CHECK_SHA256, 32],
]);
/** LZMA2's dictionary-size byte goes up to 40 (4 GiB − 1). */
const MAX_DICT_BYTE = 40;
/** Variable-length integers take at most 9 bytes (63 bits); past 2^53 they cannot be sizes here anyway. */
const VLI_MAX_BYTES = 9;
const MIN_HINT = 1 << 20;

// CRC-64/XZ (ECMA-182 polynomial, reflected: 0xC96C5795D7870F42) over two 32-bit halves, sliced by 8: table
// k holds the CRC of byte b followed by k zero bytes, so 8 input bytes fold with 16 independent lookups
// (about 3× one byte a step; at a byte a step the check took a tenth of an xz decode's time).
const CRC64_LO = new Int32Array(8 * 256);
const CRC64_HI = new Int32Array(8 * 256);
for (let b = 0; b < 256; b++) {
  let lo = b;
  let hi = 0;
  for (let k = 0; k < 8; k++) {
    const carry = lo & 1;
    lo = (lo >>> 1) | (hi << 31);
    hi >>>= 1;
    if (carry) {
      lo ^= 0xd7870f42;
      hi ^= 0xc96c5795;
    }
  }
  CRC64_LO[b] = lo;
  CRC64_HI[b] = hi;
}
for (let i = 256; i < 8 * 256; i++) {
  const lo = CRC64_LO[i - 256]!;
  const hi = CRC64_HI[i - 256]!;
  CRC64_LO[i] = ((lo >>> 8) | (hi << 24)) ^ CRC64_LO[lo & 0xff]!;
  CRC64_HI[i] = (hi >>> 8) ^ CRC64_HI[lo & 0xff]!;
}

/** CRC-64 of `bytes`, as [low, high] 32-bit halves (unsigned). */
export function crc64(bytes: Uint8Array): [number, number] {
  const L = CRC64_LO;
  const H = CRC64_HI;
  let lo = -1;
  let hi = -1;
  let i = 0;
  for (const end = bytes.length - (bytes.length % 8); i < end; i += 8) {
    const a = lo ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    const b = hi ^ (bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24));
    const t7 = 1792 + (a & 0xff);
    const t6 = 1536 + ((a >>> 8) & 0xff);
    const t5 = 1280 + ((a >>> 16) & 0xff);
    const t4 = 1024 + (a >>> 24);
    const t3 = 768 + (b & 0xff);
    const t2 = 512 + ((b >>> 8) & 0xff);
    const t1 = 256 + ((b >>> 16) & 0xff);
    const t0 = b >>> 24;
    lo = L[t7]! ^ L[t6]! ^ L[t5]! ^ L[t4]! ^ L[t3]! ^ L[t2]! ^ L[t1]! ^ L[t0]!;
    hi = H[t7]! ^ H[t6]! ^ H[t5]! ^ H[t4]! ^ H[t3]! ^ H[t2]! ^ H[t1]! ^ H[t0]!;
  }
  for (; i < bytes.length; i++) {
    const t = (lo ^ bytes[i]!) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ L[t]!;
    hi = (hi >>> 8) ^ H[t]!;
  }
  return [~lo >>> 0, ~hi >>> 0];
}

const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** A little cursor over input[at, end) for the variable-length integers of block headers and the index. */
class Reader {
  constructor(
    readonly input: Uint8Array,
    public at: number,
    readonly end: number,
    readonly what: string,
  ) {}

  byte(): number {
    if (this.at >= this.end) throw new DecodeError(`xz ${this.what} truncated`);
    return this.input[this.at++]!;
  }

  /** A VLI: 7 bits a byte, low first; the shortest encoding only (a final 0x00 byte is invalid). */
  vli(): number {
    let value = 0;
    for (let k = 0; k < VLI_MAX_BYTES; k++) {
      const b = this.byte();
      value += (b & 0x7f) * 2 ** (7 * k);
      if (!(b & 0x80)) {
        if (b === 0 && k > 0) throw new DecodeError(`xz ${this.what}: integer not minimally encoded`);
        if (value > Number.MAX_SAFE_INTEGER) throw new DecodeError(`xz ${this.what}: integer too large`);
        return value;
      }
    }
    throw new DecodeError(`xz ${this.what}: integer longer than 9 bytes`);
  }
}

interface StreamFlags {
  bytes: number;
  check: number;
  checkSize: number;
}

/** The two stream-flag bytes (the header's and the footer's copies are checked by their own CRC32s). */
function streamFlags(input: Uint8Array, at: number, where: string): StreamFlags {
  const flags = (input[at]! << 8) | input[at + 1]!;
  const check = flags & 0x0f;
  const checkSize = CHECK_SIZES.get(check);
  if (flags & 0xfff0 || checkSize === undefined)
    throw new DecodeError(`xz stream ${where} flags 0x${flags.toString(16)} are reserved`);
  return { bytes: flags, check, checkSize };
}

/** Whether input[at] starts with the xz magic. */
export function isXzAt(input: Uint8Array, at: number): boolean {
  if (at + XZ_MAGIC.length > input.length) return false;
  for (let k = 0; k < XZ_MAGIC.length; k++) if (input[at + k] !== XZ_MAGIC[k]) return false;
  return true;
}

interface BlockHeader {
  size: number;
  compressedSize: number | null;
  uncompressedSize: number | null;
  dictSize: number;
  /** The non-last filters, in the order their decoders run (last listed first). */
  filters: BlockFilter[];
}

function blockHeader(input: Uint8Array, at: number): BlockHeader {
  const size = (input[at]! + 1) * 4;
  if (at + size > input.length) throw new DecodeError('xz block header truncated');
  if (crc32Value(input.subarray(at, at + size - 4)) !== u32(input, at + size - 4))
    throw new DecodeError('xz block header fails its CRC32');
  const r = new Reader(input, at + 2, at + size - 4, 'block header');
  const flags = input[at + 1]!;
  if (flags & 0x3c) throw new DecodeError('xz block header uses reserved flags');
  const compressedSize = flags & 0x40 ? r.vli() : null;
  const uncompressedSize = flags & 0x80 ? r.vli() : null;
  if (compressedSize === 0) throw new DecodeError('xz block header gives a compressed size of 0');
  const count = (flags & 3) + 1;
  const filters: BlockFilter[] = [];
  let dictSize = -1;
  for (let k = 0; k < count; k++) {
    const id = r.vli();
    const propsSize = r.vli();
    if (propsSize > r.end - r.at) throw new DecodeError('xz filter properties run past the block header');
    const props = input.subarray(r.at, r.at + propsSize);
    r.at += propsSize;
    const last = k === count - 1;
    if (id === FILTER_LZMA2) {
      if (!last) throw new DecodeError('xz LZMA2 filter is not last in its chain');
      if (propsSize !== 1 || props[0]! > MAX_DICT_BYTE) throw new DecodeError('xz LZMA2 filter: bad properties');
      const d = props[0]!;
      dictSize = d === MAX_DICT_BYTE ? 0xffffffff : (2 | (d & 1)) * 2 ** ((d >>> 1) + 11);
    } else if (last) throw new DecodeError(`xz filter chain ends in 0x${id.toString(16)}, not LZMA2`);
    else filters.unshift(blockFilter(id, props));
  }
  for (let k = r.at; k < r.end; k++) if (input[k] !== 0) throw new DecodeError('xz block header padding not zero');
  return { size, compressedSize, uncompressedSize, dictSize, filters };
}

function verifyCheck(check: number, data: Uint8Array, input: Uint8Array, at: number): void {
  let ok = true;
  if (check === CHECK_CRC32) ok = crc32Value(data) === u32(input, at);
  else if (check === CHECK_CRC64) {
    const [lo, hi] = crc64(data);
    ok = lo === u32(input, at) && hi === u32(input, at + 4);
  } else if (check === CHECK_SHA256) {
    const digest = createHash('sha256').update(data).digest();
    ok = Buffer.compare(digest, input.subarray(at, at + 32)) === 0;
  }
  if (!ok) throw new DecodeError('xz block check does not match its data');
}

/** One block at input[at]: decoded into `dec`; returns its end and its index record. */
function decodeBlock(
  input: Uint8Array,
  at: number,
  dec: LzmaDecoder,
  flags: StreamFlags,
): { end: number; unpadded: number; uncompressed: number } {
  const header = blockHeader(input, at);
  const dataAt = at + header.size;
  let dataEnd = input.length;
  if (header.compressedSize !== null) {
    if (header.compressedSize > input.length - dataAt) throw new DecodeError('xz block data truncated');
    dataEnd = dataAt + header.compressedSize;
  }
  const outStart = dec.pos;
  dec.dictSize = header.dictSize;
  const end = decodeLzma2Into(dec, input, dataAt, dataEnd);
  if (header.compressedSize !== null && end !== dataEnd)
    throw new DecodeError('xz block data is not its declared compressed size');
  const uncompressed = dec.pos - outStart;
  if (header.uncompressedSize !== null && uncompressed !== header.uncompressedSize)
    throw new DecodeError('xz block output is not its declared size');
  const output = dec.out.subarray(outStart, dec.pos);
  for (const undo of header.filters) undo(output);

  let next = end;
  for (; (next - dataAt) % 4 !== 0; next++)
    if (next >= input.length || input[next] !== 0) throw new DecodeError('xz block padding missing or not zero');
  if (input.length - next < flags.checkSize) throw new DecodeError('xz block check truncated');
  verifyCheck(flags.check, output, input, next);
  return { end: next + flags.checkSize, unpadded: header.size + (end - dataAt) + flags.checkSize, uncompressed };
}

/** The index at input[at] against the blocks decoded; returns its end. */
function readIndex(input: Uint8Array, at: number, records: number[]): number {
  const r = new Reader(input, at + 1, input.length, 'index');
  const count = r.vli();
  if (count * 2 !== records.length) throw new DecodeError('xz index does not list the blocks decoded');
  for (let k = 0; k < records.length; k++)
    if (r.vli() !== records[k]) throw new DecodeError('xz index sizes differ from the blocks decoded');
  while ((r.at - at) % 4 !== 0) if (r.byte() !== 0) throw new DecodeError('xz index padding not zero');
  if (input.length - r.at < 4) throw new DecodeError('xz index truncated');
  if (crc32Value(input.subarray(at, r.at)) !== u32(input, r.at)) throw new DecodeError('xz index fails its CRC32');
  return r.at + 4;
}

/** One stream at input[at] (which starts with the magic), decoded into `dec`; returns the end of its footer. */
function decodeStream(input: Uint8Array, at: number, dec: LzmaDecoder): number {
  if (input.length - at < HEADER_SIZE + FOOTER_SIZE) throw new DecodeError('xz stream truncated');
  if (crc32Value(input.subarray(at + 6, at + 8)) !== u32(input, at + 8))
    throw new DecodeError('xz stream header fails its CRC32');
  const flags = streamFlags(input, at + XZ_MAGIC.length, 'header');
  let pos = at + HEADER_SIZE;
  // Unpadded and uncompressed size of each block, flat, to compare with the index.
  const records: number[] = [];
  for (;;) {
    if (pos >= input.length) throw new DecodeError('xz stream truncated before its index');
    if (input[pos] === 0) break;
    const block = decodeBlock(input, pos, dec, flags);
    records.push(block.unpadded, block.uncompressed);
    pos = block.end;
  }
  const indexAt = pos;
  pos = readIndex(input, indexAt, records);

  if (input.length - pos < FOOTER_SIZE) throw new DecodeError('xz stream footer truncated');
  if (input[pos + 10] !== FOOTER_MAGIC[0] || input[pos + 11] !== FOOTER_MAGIC[1])
    throw new DecodeError('xz stream footer magic missing');
  if (crc32Value(input.subarray(pos + 4, pos + 10)) !== u32(input, pos))
    throw new DecodeError('xz stream footer fails its CRC32');
  if ((u32(input, pos + 4) + 1) * 4 !== pos - indexAt) throw new DecodeError('xz footer does not point at the index');
  if (streamFlags(input, pos + 8, 'footer').bytes !== flags.bytes)
    throw new DecodeError('xz stream footer flags differ from the header');
  return pos + FOOTER_SIZE;
}

/**
 * One or more concatenated xz streams. `consumed` ends after the last stream's footer, plus zero padding
 * only when it runs to the end of the input (in a raw image trailing zeros may as well be the next thing).
 */
export function decodeXz(input: Uint8Array, maxOutput: number): Decoded {
  if (!isXzAt(input, 0)) throw new DecodeError('not an xz stream (magic missing)');
  const dec = new LzmaDecoder(maxOutput, Math.max(MIN_HINT, input.length * 4), 0);
  let end = decodeStream(input, 0, dec);
  for (;;) {
    // Stream padding: groups of four zero bytes, then another stream or the end of the input.
    let next = end;
    while (input.length - next >= 4 && u32(input, next) === 0) next += 4;
    if (isXzAt(input, next)) end = decodeStream(input, next, dec);
    else {
      if (next === input.length) end = next;
      break;
    }
  }
  return { data: dec.take(), consumed: end };
}
