// Android sparse images (libsparse; what fastboot flashes and OTA packages carry as system.img): a header, then
// chunks that each cover whole blocks of the expanded image: RAW (the bytes), FILL (a 4-byte pattern),
// DONT_CARE (a hole, read as zeros) and CRC32 (the CRC-32 of the image so far). One entry: the expanded image.
import { crc32 } from 'node:zlib';
import { OutputLimitError } from '../compression/errors.js';
import type { FirmwareFormat, Entry, ReadContext } from '../format.js';

const MAGIC = 0xed26ff3a;
const MAJOR_VERSION = 1;
const FILE_HEADER_SIZE = 28;
const CHUNK_HEADER_SIZE = 12;
const CHUNK_RAW = 0xcac1;
const CHUNK_FILL = 0xcac2;
const CHUNK_DONT_CARE = 0xcac3;
const CHUNK_CRC32 = 0xcac4;

interface Sparse {
  blockSize: number;
  totalBlocks: number;
  chunkCount: number;
  checksum: number;
  /** Bytes from the header's start to the last chunk's end. */
  size: number;
}

/** Called for each chunk: its type, the image blocks it covers, and where its data starts in the input. */
type Visit = (type: number, blocks: number, dataAt: number) => void;

/**
 * The header and every chunk header, checked against each other and the input; null if any disagrees. The
 * chunks are walked again (with `visit`) to expand them, rather than kept: a hostile image of 12-byte
 * chunks would otherwise hold millions of objects.
 */
function walk(b: Uint8Array, visit?: Visit): Sparse | null {
  if (b.length < FILE_HEADER_SIZE) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (v.getUint32(0, true) !== MAGIC || v.getUint16(4, true) !== MAJOR_VERSION) return null;
  const fileHeaderSize = v.getUint16(8, true);
  const chunkHeaderSize = v.getUint16(10, true);
  const blockSize = v.getUint32(12, true);
  const totalBlocks = v.getUint32(16, true);
  const chunkCount = v.getUint32(20, true);
  // libsparse writes 28 and 12 and reads larger headers by skipping their tails; blocks are multiples of 4.
  if (fileHeaderSize < FILE_HEADER_SIZE || chunkHeaderSize < CHUNK_HEADER_SIZE) return null;
  if (blockSize === 0 || blockSize % 4 !== 0) return null;
  // Every chunk takes a header's worth of input, so the count cannot pass what is there.
  if (chunkCount > (b.length - fileHeaderSize) / chunkHeaderSize) return null;
  let at = fileHeaderSize;
  let blocks = 0;
  for (let i = 0; i < chunkCount; i++) {
    if (at + chunkHeaderSize > b.length) return null;
    const type = v.getUint16(at, true);
    const count = v.getUint32(at + 4, true);
    const total = v.getUint32(at + 8, true);
    const dataSize =
      type === CHUNK_RAW
        ? count * blockSize
        : type === CHUNK_FILL || type === CHUNK_CRC32
          ? 4
          : type === CHUNK_DONT_CARE
            ? 0
            : -1;
    if (total - chunkHeaderSize !== dataSize || at + total > b.length) return null;
    if (type === CHUNK_CRC32 && count !== 0) return null;
    visit?.(type, count, at + chunkHeaderSize);
    blocks += count;
    at += total;
  }
  if (blocks !== totalBlocks) return null;
  return { blockSize, totalBlocks, chunkCount, checksum: v.getUint32(24, true), size: at };
}

function* expand(b: Uint8Array, s: Sparse, ctx: ReadContext): Generator<Entry> {
  const size = s.totalBlocks * s.blockSize;
  if (size > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
  const image = new Uint8Array(size);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let op = 0;
  // The CRC-32 of image[0, crcAt), carried forward so each byte is hashed once however many CRC32 chunks come.
  let crc = 0;
  let crcAt = 0;
  walk(b, (type, blocks, dataAt) => {
    const length = blocks * s.blockSize;
    if (type === CHUNK_RAW) image.set(b.subarray(dataAt, dataAt + length), op);
    else if (type === CHUNK_FILL && length > 0) {
      image.set(b.subarray(dataAt, dataAt + 4), op);
      // Doubling copies spread the pattern over the chunk in log2(length / 4) steps.
      for (let filled = 4; filled < length; filled *= 2)
        image.copyWithin(op + filled, op, op + Math.min(filled, length - filled));
    } else if (type === CHUNK_CRC32) {
      crc = crc32(image.subarray(crcAt, op), crc);
      crcAt = op;
      if (crc >>> 0 !== v.getUint32(dataAt, true))
        ctx.problem(`android sparse CRC32 chunk disagrees with the image's first ${op} bytes`);
    }
    op += length;
  });
  if (s.checksum !== 0 && crc32(image.subarray(crcAt), crc) >>> 0 !== s.checksum)
    ctx.problem('android sparse header checksum disagrees with the expanded image');
  yield { path: 'image.raw', kind: 'file', data: image };
}

export const androidSparseFormat: FirmwareFormat = {
  name: 'android-sparse',
  magics: [{ bytes: [0x3a, 0xff, 0x26, 0xed] }],
  probe(data, offset) {
    const b = data.subarray(offset);
    const s = walk(b);
    if (!s) return null;
    const expanded = s.totalBlocks * s.blockSize;
    return {
      size: s.size,
      description: `${s.chunkCount} chunks, ${s.totalBlocks} blocks of ${s.blockSize} bytes (${expanded} expanded)`,
      entries: (ctx) => expand(b.subarray(0, s.size), s, ctx),
    };
  },
};
