// The compressors a SquashFS 4.0 superblock names by id (squashfs_fs.h), each one of our bounded decoders.
// Every metadata block, data block and fragment of an image uses the same one; options a compressor may
// store after the superblock only tune compression (levels, dictionary, BCJ choice kept in the xz stream).
import { inflateZlib } from '../../compression/deflate.js';
import type { Decoded } from '../../compression/errors.js';
import { decodeLz4Block } from '../../compression/lz4.js';
import { decodeLzmaAlone } from '../../compression/lzma.js';
import { decodeLzo1x } from '../../compression/lzo.js';
import { decodeXz } from '../../compression/xz.js';
import { decodeZstd } from '../../compression/zstd.js';

export interface Compressor {
  name: string;
  decode: (input: Uint8Array, maxOutput: number) => Decoded;
}

export const COMPRESSORS: Readonly<Record<number, Compressor>> = {
  // A zlib stream (header and Adler-32), not gzip's framing.
  1: { name: 'gzip', decode: inflateZlib },
  // lzma-alone: 13-byte header (properties, dictionary, 64-bit size) then the raw stream.
  2: { name: 'lzma', decode: decodeLzmaAlone },
  // A bare LZO1X block, as lzo1x_decompress_safe takes it.
  3: { name: 'lzo', decode: decodeLzo1x },
  // A whole .xz stream (its filters, BCJ included, are in its block headers).
  4: { name: 'xz', decode: decodeXz },
  // A bare LZ4 block, as LZ4_decompress_safe takes it.
  5: { name: 'lz4', decode: (input, maxOutput) => decodeLz4Block(input, maxOutput) },
  6: { name: 'zstd', decode: decodeZstd },
};
