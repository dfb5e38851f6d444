// The compressors a JFFS2 data node may name (its `compr` byte). Each node holds one independently
// compressed run of at most a page (4 KiB by default) that decodes to exactly `dsize` bytes.
import { inflateZlib } from '../../compression/deflate.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import { decodeLzmaRaw, type LzmaProps } from '../../compression/lzma.js';
import { decodeLzo1x } from '../../compression/lzo.js';

const COMPR_NONE = 0x00;
const COMPR_ZERO = 0x01;
const COMPR_RTIME = 0x02;
const COMPR_COPY = 0x04;
const COMPR_ZLIB = 0x06;
const COMPR_LZO = 0x07;
const COMPR_LZMA = 0x08;

/** JFFS2's LZMA (an OpenWrt patch) stores no properties: its compressor always uses these. */
const JFFS2_LZMA: LzmaProps = { lc: 0, lp: 0, pb: 0, dictSize: 0x2000 };

const NAMES: Record<number, string> = { 0x03: 'rubinmips', 0x05: 'dynrubin' };

/**
 * rtime, JFFS2's own run-length-against-history scheme: pairs of (literal byte, repeat count), the repeat
 * copying bytes from just after the previous occurrence of that literal. Positions are 16-bit as in the
 * kernel, so pages over 64 KiB wrap the same way the compressor did.
 */
function rtimeDecode(input: Uint8Array, dsize: number): Uint8Array {
  const out = new Uint8Array(dsize);
  const positions = new Uint16Array(256);
  let inPos = 0;
  let outPos = 0;
  while (outPos < dsize) {
    if (inPos + 2 > input.length) throw new DecodeError(`rtime data ends after ${outPos} of ${dsize} bytes`);
    const value = input[inPos++]!;
    let repeat = input[inPos++]!;
    out[outPos++] = value;
    let back = positions[value]!;
    positions[value] = outPos;
    if (outPos + repeat > dsize) throw new DecodeError(`rtime run passes the node's ${dsize} bytes`);
    // Each source byte is already written (back < outPos), and overlapping runs repeat as in the kernel.
    while (repeat-- > 0) out[outPos++] = out[back++]!;
  }
  return out;
}

/** A node's data, decompressed to exactly `dsize` bytes (the caller has checked dsize against its budget). */
export function decompressNode(compr: number, input: Uint8Array, dsize: number): Uint8Array {
  switch (compr) {
    case COMPR_NONE:
    case COMPR_COPY:
      if (input.length < dsize) throw new DecodeError(`stored node holds ${input.length} of ${dsize} bytes`);
      return input.subarray(0, dsize);
    case COMPR_ZERO:
      return new Uint8Array(dsize);
    case COMPR_RTIME:
      return rtimeDecode(input, dsize);
    case COMPR_ZLIB:
      return exact(() => inflateZlib(input, dsize).data, dsize);
    case COMPR_LZO:
      return exact(() => decodeLzo1x(input, dsize).data, dsize);
    case COMPR_LZMA:
      return exact(() => decodeLzmaRaw(input, JFFS2_LZMA, dsize, dsize).data, dsize);
    default:
      throw new DecodeError(`compressor ${NAMES[compr] ?? `0x${compr.toString(16)}`} is not supported`);
  }
}

/** A decoder's output, which must be `dsize` bytes: more or fewer means the node is corrupt. */
function exact(decode: () => Uint8Array, dsize: number): Uint8Array {
  let data: Uint8Array;
  try {
    data = decode();
  } catch (err) {
    if (err instanceof OutputLimitError) throw new DecodeError(`node decodes to more than its ${dsize} bytes`);
    throw err;
  }
  if (data.length !== dsize) throw new DecodeError(`node decodes to ${data.length} of its ${dsize} bytes`);
  return data;
}
