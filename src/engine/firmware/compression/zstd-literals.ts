// The literals section of a compressed block (RFC 8878 §3.1.1.3.1): raw bytes, one byte repeated, or
// Huffman-coded with a new tree or the frame's previous one ("treeless").
import { DecodeError } from './errors.js';
import { WILDCOPY_SLACK } from './zstd-output.js';
import { decodeHuffmanLiterals, readHuffmanTable, type HuffmanTable } from './zstd-huffman.js';

/** What literals sections of one frame share: the last Huffman table, and a buffer for decoded literals. */
export class LiteralsState {
  huffman: HuffmanTable | null = null;
  private buffer: Uint8Array | null = null;

  constructor(private readonly blockMax: number) {}

  /** The literals buffer: one block's worth at most, and room for the sequence loop's wide reads. */
  scratch(): Uint8Array {
    return (this.buffer ??= new Uint8Array(this.blockMax + WILDCOPY_SLACK));
  }
}

/** A block's literals: src[start, end); `next` is where the sequences section begins. */
export interface Literals {
  src: Uint8Array;
  start: number;
  end: number;
  next: number;
}

const RAW = 0;
const RLE = 1;
const COMPRESSED = 2;

/** Reads the literals section at src[at, end) (the block's bytes); raw literals stay where they are. */
export function readLiterals(
  src: Uint8Array,
  at: number,
  end: number,
  state: LiteralsState,
  blockMax: number,
): Literals {
  if (at >= end) throw new DecodeError('zstd: empty compressed block');
  const b0 = src[at]!;
  const type = b0 & 3;
  const format = (b0 >> 2) & 3;
  // Header bytes are read only after the header's size is checked against the block.
  const byte = (i: number) => src[at + i]!;

  if (type === RAW || type === RLE) {
    // Size formats 0 and 2: 5-bit size in a 1-byte header; 1: 12 bits in 2 bytes; 3: 20 bits in 3 bytes.
    const headerSize = format === 1 ? 2 : format === 3 ? 3 : 1;
    if (at + headerSize > end) throw new DecodeError('zstd: literals header truncated');
    let size = b0 >> 3;
    if (format === 1) size = (b0 >> 4) | (byte(1) << 4);
    else if (format === 3) size = (b0 >> 4) | (byte(1) << 4) | (byte(2) << 12);
    if (size > blockMax) throw new DecodeError(`zstd: ${size} literals in a block of at most ${blockMax}`);
    const start = at + headerSize;
    if (type === RAW) {
      if (start + size > end) throw new DecodeError('zstd: raw literals run past the block');
      return { src, start, end: start + size, next: start + size };
    }
    if (start >= end) throw new DecodeError('zstd: RLE literals byte missing');
    const buffer = state.scratch();
    buffer.fill(src[start]!, 0, size);
    return { src: buffer, start: 0, end: size, next: start + 1 };
  }

  // Huffman: format 0 is one stream, 1-3 are four; sizes of 10, 10, 14, 18 bits (regenerated, then compressed).
  const headerSize = format < 2 ? 3 : format + 2;
  if (at + headerSize > end) throw new DecodeError('zstd: literals header truncated');
  let size: number;
  let compressedSize: number;
  if (format < 2) {
    const v = b0 | (byte(1) << 8) | (byte(2) << 16);
    size = (v >> 4) & 0x3ff;
    compressedSize = v >> 14;
  } else {
    const v = (b0 | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24)) >>> 0;
    if (format === 2) {
      size = (v >>> 4) & 0x3fff;
      compressedSize = v >>> 18;
    } else {
      size = (v >>> 4) & 0x3ffff;
      compressedSize = (v >>> 22) | (byte(4) << 10);
    }
  }
  if (size > blockMax) throw new DecodeError(`zstd: ${size} literals in a block of at most ${blockMax}`);
  let start = at + headerSize;
  const next = start + compressedSize;
  if (next > end) throw new DecodeError('zstd: compressed literals run past the block');
  if (type === COMPRESSED) {
    const tree = readHuffmanTable(src, start, next);
    state.huffman = tree.table;
    start = tree.end;
  } else if (!state.huffman) throw new DecodeError('zstd: treeless literals without an earlier Huffman table');
  const buffer = state.scratch();
  decodeHuffmanLiterals(state.huffman, src, start, next, format !== 0, buffer, size);
  return { src: buffer, start: 0, end: size, next };
}
