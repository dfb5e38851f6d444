// Zstandard frames (RFC 8878): the frame header, raw, RLE and compressed blocks, and the XXH64 content
// checksum. Every size comes from the input and is checked against it and against the format's limits, each
// loop is bounded by the input or by a block's 128 KiB, and the output never passes the caller's bound.
// Dictionaries and skippable frames are not read here.
import { DecodeError, OutputLimitError, type Decoded } from './errors.js';
import { LiteralsState, readLiterals } from './zstd-literals.js';
import { FrameOutput } from './zstd-output.js';
import { decodeSequences, SequenceState } from './zstd-sequences.js';
import { xxh64 } from './zstd-xxh64.js';

export const ZSTD_MAGIC = 0xfd2fb528;
const BLOCK_RAW = 0;
const BLOCK_RLE = 1;
const BLOCK_COMPRESSED = 2;
const BLOCK_RESERVED = 3;
/** No block decodes to more than 128 KiB (nor more than the window). */
const BLOCK_SIZE_MAX = 128 << 10;
const CHECKSUM_SIZE = 4;

const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** Frame header descriptor bits and the sizes of the fields they announce. */
const FHD_CHECKSUM = 0x04;
const FHD_RESERVED = 0x08;
const FHD_SINGLE_SEGMENT = 0x20;
const DICTIONARY_ID_BYTES = [0, 1, 2, 4];

/** The content size field's bytes, by the descriptor's top two bits (a single segment always has one). */
const contentSizeBytes = (fhd: number) => [fhd & FHD_SINGLE_SEGMENT ? 1 : 0, 2, 4, 8][fhd >> 6]!;

/** Magic, descriptor, window descriptor (unless single-segment), dictionary ID and content size. */
const frameHeaderSize = (fhd: number) =>
  5 + (fhd & FHD_SINGLE_SEGMENT ? 0 : 1) + DICTIONARY_ID_BYTES[fhd & 3]! + contentSizeBytes(fhd);

/** Bytes from the frame's start to its end (checksum included), or null when it is no valid frame. */
export function zstdFrameSize(input: Uint8Array): number | null {
  if (input.length < 9 || u32(input, 0) !== ZSTD_MAGIC) return null;
  const fhd = input[4]!;
  if (fhd & FHD_RESERVED) return null;
  const blocks = walkBlocks(input, frameHeaderSize(fhd), BLOCK_SIZE_MAX);
  if (!blocks) return null;
  const end = blocks.end + (fhd & FHD_CHECKSUM ? CHECKSUM_SIZE : 0);
  return end <= input.length ? end : null;
}

/**
 * Walks the block headers from `at`: where the last block ends, and the most the blocks can decode to (raw
 * and RLE sizes, `blockMax` for each compressed block). Null when a block is cut off or reserved. Each
 * step takes at least the 3-byte header.
 */
function walkBlocks(input: Uint8Array, at: number, blockMax: number): { end: number; bound: number } | null {
  let bound = 0;
  for (;;) {
    if (at + 3 > input.length) return null;
    const header = input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16);
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === BLOCK_RESERVED) return null;
    bound += type === BLOCK_COMPRESSED ? blockMax : size;
    at += 3 + (type === BLOCK_RLE ? 1 : size);
    if (at > input.length) return null;
    if (header & 1) return { end: at, bound };
  }
}

interface FrameHeader {
  /** The byte after the header. */
  end: number;
  window: number;
  contentSize: number | null;
  checksum: boolean;
}

function readFrameHeader(input: Uint8Array): FrameHeader {
  if (input.length < 5 || u32(input, 0) !== ZSTD_MAGIC) throw new DecodeError('not a Zstandard frame');
  const fhd = input[4]!;
  if (fhd & FHD_RESERVED) throw new DecodeError('zstd: reserved frame header bit set');
  const end = frameHeaderSize(fhd);
  if (end > input.length) throw new DecodeError('zstd: frame header truncated');
  const single = (fhd & FHD_SINGLE_SEGMENT) !== 0;
  let at = 5;
  let window = 0;
  if (!single) {
    // Window: 2^(10 + exponent) plus mantissa eighths of it.
    const descriptor = input[at++]!;
    const base = 2 ** (10 + (descriptor >> 3));
    window = base + (base / 8) * (descriptor & 7);
  }
  const dictBytes = DICTIONARY_ID_BYTES[fhd & 3]!;
  let dictionary = 0;
  for (let i = dictBytes - 1; i >= 0; i--) dictionary = dictionary * 256 + input[at + i]!;
  if (dictionary !== 0) throw new DecodeError('zstd: dictionaries are not supported');
  at += dictBytes;
  // Content size: little-endian; the 2-byte form counts from 256. A single segment's window is its size.
  const fcsBytes = contentSizeBytes(fhd);
  let contentSize: number | null = null;
  if (fcsBytes > 0) {
    contentSize = 0;
    for (let i = fcsBytes - 1; i >= 0; i--) contentSize = contentSize * 256 + input[at + i]!;
    if (fcsBytes === 2) contentSize += 256;
  }
  if (single) window = contentSize!;
  return { end, window, contentSize, checksum: (fhd & FHD_CHECKSUM) !== 0 };
}

/** One Zstandard frame: its bytes, and its size (`consumed`) up to and including the checksum. */
export function decodeZstd(input: Uint8Array, maxOutput: number): Decoded {
  const frame = readFrameHeader(input);
  const blockMax = Math.min(frame.window, BLOCK_SIZE_MAX);
  const blocks = walkBlocks(input, frame.end, blockMax);
  if (!blocks) throw new DecodeError('zstd: block headers truncated or reserved');
  const limit = Math.max(0, maxOutput);
  if (frame.contentSize !== null) {
    if (frame.contentSize > blocks.bound)
      throw new DecodeError(`zstd: declares ${frame.contentSize} bytes but its blocks hold at most ${blocks.bound}`);
    if (frame.contentSize > limit) throw new OutputLimitError(limit);
  }
  const out = new FrameOutput(limit, frame.contentSize, blocks.bound);
  const literals = new LiteralsState(blockMax);
  const sequences = new SequenceState();
  let at = frame.end;
  for (let last = false; !last;) {
    // walkBlocks has checked every header and that each block's bytes (but not the checksum) are present.
    const header = input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16);
    last = (header & 1) !== 0;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    at += 3;
    if (size > blockMax) throw new DecodeError(`zstd: block of ${size} bytes above the ${blockMax}-byte maximum`);
    if (type === BLOCK_RAW) {
      out.reserve(size);
      out.buf.set(input.subarray(at, at + size), out.length);
      out.length += size;
      at += size;
    } else if (type === BLOCK_RLE) {
      out.reserve(size);
      out.buf.fill(input[at]!, out.length, out.length + size);
      out.length += size;
      at += 1;
    } else {
      const lits = readLiterals(input, at, at + size, literals, blockMax);
      decodeSequences(input, lits.next, at + size, sequences, lits, out, frame.window, blockMax);
      at += size;
    }
  }
  if (frame.contentSize !== null && out.length !== frame.contentSize)
    throw new DecodeError(`zstd: frame decodes to ${out.length} bytes, not its declared ${frame.contentSize}`);
  if (frame.checksum) {
    if (at + CHECKSUM_SIZE > input.length) throw new DecodeError('zstd: content checksum truncated');
    if (u32(input, at) !== xxh64(out.buf.subarray(0, out.length))[0])
      throw new DecodeError('zstd: content checksum does not match');
    at += CHECKSUM_SIZE;
  }
  return { data: out.result(), consumed: at };
}
