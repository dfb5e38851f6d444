// Zstandard frames: the extent read from the frame's own block headers (carving needs where it ends), the
// bytes decoded by fzstd's streaming decoder so the output bound holds while it decodes.
import { Decompress } from 'fzstd';
import { DecodeError, OutputLimitError, type Decoded } from './errors.js';

export const ZSTD_MAGIC = 0xfd2fb528;
const BLOCK_RLE = 1;
const BLOCK_RESERVED = 3;

/** Bytes from the frame's start to its end (checksum included), or null when it is no valid frame. */
export function zstdFrameSize(input: Uint8Array): number | null {
  const v = new DataView(input.buffer, input.byteOffset, input.byteLength);
  if (input.length < 9 || v.getUint32(0, true) !== ZSTD_MAGIC) return null;
  const fhd = input[4]!;
  if (fhd & 0x08) return null; // reserved bit
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  const dictFlag = fhd & 3;
  const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag]!;
  let at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][dictFlag]! + fcsBytes;
  for (;;) {
    if (at + 3 > input.length) return null;
    const header = input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16);
    const type = (header >> 1) & 3;
    if (type === BLOCK_RESERVED) return null;
    at += 3 + (type === BLOCK_RLE ? 1 : header >>> 3);
    if (header & 1) break;
  }
  at += fhd & 0x04 ? 4 : 0;
  return at <= input.length ? at : null;
}

/** One Zstandard frame. */
export function decodeZstd(input: Uint8Array, maxOutput: number): Decoded {
  const size = zstdFrameSize(input);
  if (size === null) throw new DecodeError('not a whole Zstandard frame');
  const parts: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > maxOutput) throw new OutputLimitError(maxOutput);
    parts.push(chunk.slice());
  });
  try {
    stream.push(input.subarray(0, size), true);
  } catch (err) {
    if (err instanceof OutputLimitError) throw err;
    throw new DecodeError(`zstd: ${(err as Error).message}`);
  }
  return { data: parts.length === 1 ? parts[0]! : Buffer.concat(parts), consumed: size };
}
