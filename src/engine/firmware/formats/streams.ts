// Compressed streams as containers of one file: gzip, bzip2, xz, LZMA (.lzma), Zstandard, LZ4 (frame and
// legacy), lzop and bare zlib. Probing decodes the stream (its extent is where the decoder stopped) within
// the task's budget; the decoded bytes are the one entry, named as the stream names them where it does.
import { decodeBzip2 } from '../compression/bzip2.js';
import { gunzip, inflateZlib } from '../compression/deflate.js';
import { DecodeError, OutputLimitError, type Decoded } from '../compression/errors.js';
import { decodeLz4Frame, decodeLz4Legacy } from '../compression/lz4.js';
import { decodeLzmaAlone, lzmaAloneHeader } from '../compression/lzma.js';
import { decodeLzop, LZOP_MAGIC } from '../compression/lzo.js';
import { decodeXz } from '../compression/xz.js';
import { decodeZstd } from '../compression/zstd.js';
import type { FirmwareFormat, ReadContext } from '../format.js';

/** A zlib stream shorter than this is more likely a false hit of its two-byte header than data. */
const MIN_ZLIB_OUTPUT = 64;

type Decode = (input: Uint8Array, maxOutput: number) => Decoded & { name?: string | null };

function stream(
  name: string,
  magics: readonly number[][],
  decode: Decode,
  plausible: (b: Uint8Array) => boolean = () => true,
): FirmwareFormat {
  return {
    name,
    magics: magics.map((bytes) => ({ bytes })),
    probe(data: Uint8Array, offset: number, ctx: ReadContext) {
      const input = data.subarray(offset);
      if (!plausible(input)) return null;
      let out: ReturnType<Decode>;
      try {
        out = decode(input, ctx.remaining());
      } catch (err) {
        if (err instanceof OutputLimitError) ctx.problem(`${name} stream at ${offset}: ${err.message}`);
        if (err instanceof DecodeError || err instanceof OutputLimitError) return null;
        throw err;
      }
      if (name === 'zlib' && out.data.length < MIN_ZLIB_OUTPUT) return null;
      const entry = out.name ? out.name : 'decompressed';
      return {
        size: out.consumed,
        description: `${out.data.length} bytes decompressed`,
        entries: () => [{ path: entry, kind: 'file', data: out.data }],
      };
    },
  };
}

/** A zlib header: deflate, a window of at most 32 KiB, the check bits right, no preset dictionary. */
const zlibHeader = (b: Uint8Array) =>
  b.length > 2 && (b[0]! & 0x0f) === 8 && b[0]! >> 4 <= 7 && ((b[0]! << 8) | b[1]!) % 31 === 0 && !(b[1]! & 0x20);

export const STREAM_FORMATS: FirmwareFormat[] = [
  stream('gzip', [[0x1f, 0x8b, 0x08]], gunzip),
  stream(
    'bzip2',
    [[0x42, 0x5a, 0x68]],
    decodeBzip2,
    (b) => b[3]! >= 0x31 && b[3]! <= 0x39 && b[4] === 0x31 && b[5] === 0x41,
  ),
  stream('xz', [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]], decodeXz),
  stream('zstd', [[0x28, 0xb5, 0x2f, 0xfd]], decodeZstd),
  stream('lz4', [[0x04, 0x22, 0x4d, 0x18]], decodeLz4Frame),
  stream('lz4-legacy', [[0x02, 0x21, 0x4c, 0x18]], decodeLz4Legacy),
  stream('lzop', [[...LZOP_MAGIC]], decodeLzop),
  // .lzma has no magic: the common properties byte and a dictionary of 64 KiB–16 MiB, then a strict header.
  stream('lzma', [[0x5d, 0x00, 0x00]], decodeLzmaAlone, (b) => lzmaAloneHeader(b) !== null),
  stream(
    'zlib',
    [
      [0x78, 0x01],
      [0x78, 0x5e],
      [0x78, 0x9c],
      [0x78, 0xda],
    ],
    inflateZlib,
    zlibHeader,
  ),
];
