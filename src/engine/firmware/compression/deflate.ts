// zlib, raw deflate and gzip through Node's zlib (the reference implementation, in C), bounded by
// maxOutputLength; `info` gives the compressed bytes the stream took, which carving needs.
import { inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { DecodeError, OutputLimitError, type Decoded } from './errors.js';

type Inflate = (input: Uint8Array, options: ZlibOptions & { info: true }) => unknown;

function run(inflate: Inflate, input: Uint8Array, maxOutput: number): Decoded {
  try {
    const r = inflate(input, { info: true, maxOutputLength: Math.max(1, maxOutput) }) as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    return {
      data: new Uint8Array(r.buffer.buffer, r.buffer.byteOffset, r.buffer.length),
      consumed: r.engine.bytesWritten,
    };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new OutputLimitError(maxOutput);
    throw new DecodeError((err as Error).message);
  }
}

/** A raw deflate stream (zip entries, gzip members). */
export const inflateRaw = (input: Uint8Array, maxOutput: number): Decoded => run(inflateRawSync, input, maxOutput);

/** A zlib stream (header, deflate, Adler-32): SquashFS and JFFS2 "gzip", PNG, bare zlib blobs. */
export const inflateZlib = (input: Uint8Array, maxOutput: number): Decoded => run(inflateSync, input, maxOutput);

const FTEXT_MASK = 0xe0;
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;

/** One gzip member's header: where its deflate data starts and the name it carries (FNAME), if any. */
export function gzipHeader(input: Uint8Array): { dataAt: number; name: string | null } | null {
  if (input.length < 18 || input[0] !== 0x1f || input[1] !== 0x8b || input[2] !== 8) return null;
  const flags = input[3]!;
  if (flags & FTEXT_MASK) return null;
  let at = 10;
  if (flags & FEXTRA) at += 2 + (input[at]! | (input[at + 1]! << 8));
  const zeroEnded = () => {
    const end = input.indexOf(0, at);
    if (end < 0) return null;
    const text = Buffer.from(input.subarray(at, end)).toString('latin1');
    at = end + 1;
    return text;
  };
  let name: string | null = null;
  if (flags & FNAME) name = zeroEnded();
  if (flags & FCOMMENT) zeroEnded();
  if (flags & FHCRC) at += 2;
  return at < input.length ? { dataAt: at, name } : null;
}

/** Every member of a gzip stream, concatenated (as gunzip does); `consumed` ends after the last trailer. */
export function gunzip(input: Uint8Array, maxOutput: number): Decoded & { name: string | null } {
  const first = gzipHeader(input);
  if (!first) throw new DecodeError('not a gzip member (bad magic, method or flags)');
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  for (let header: ReturnType<typeof gzipHeader> = first; header; header = gzipHeader(input.subarray(at))) {
    const body = run(inflateRawSync, input.subarray(at + header.dataAt), maxOutput - total);
    parts.push(body.data);
    total += body.data.length;
    at += header.dataAt + body.consumed + 8;
    if (at > input.length) throw new DecodeError('gzip member truncated before its trailer');
  }
  return { data: parts.length === 1 ? parts[0]! : Buffer.concat(parts), consumed: at, name: first.name };
}
