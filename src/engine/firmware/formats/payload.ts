// A payload whose compression a boot-image header names (uImage, FIT): decoded as that compression says,
// bounded by the task's budget. A payload that does not decode is recorded and kept as it is.
import { decodeBzip2 } from '../compression/bzip2.js';
import { gunzip } from '../compression/deflate.js';
import { DecodeError, OutputLimitError, type Decoded } from '../compression/errors.js';
import { decodeLz4Frame } from '../compression/lz4.js';
import { decodeLzmaAlone } from '../compression/lzma.js';
import { decodeLzop } from '../compression/lzo.js';
import { decodeXz } from '../compression/xz.js';
import { decodeZstd } from '../compression/zstd.js';
import type { ReadContext } from '../format.js';

export type CompressionName = 'none' | 'gzip' | 'bzip2' | 'lzma' | 'lzo' | 'lz4' | 'zstd' | 'xz';

const DECODERS: Record<Exclude<CompressionName, 'none'>, (input: Uint8Array, max: number) => Decoded> = {
  gzip: gunzip,
  bzip2: decodeBzip2,
  lzma: decodeLzmaAlone,
  lzo: decodeLzop,
  lz4: decodeLz4Frame,
  zstd: decodeZstd,
  xz: decodeXz,
};

/** The payload decoded; null (with a problem naming `what`) when it does not decode. */
export function decompressAs(
  name: CompressionName,
  payload: Uint8Array,
  ctx: ReadContext,
  what: string,
): Uint8Array | null {
  if (name === 'none') return payload;
  try {
    return DECODERS[name](payload, ctx.remaining()).data;
  } catch (err) {
    if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
    ctx.problem(`${what}: ${name} payload does not decode: ${err.message}`);
    return null;
  }
}
