// LZO1X (what lzo1x_decompress_safe reads: the output of LZO1X-1, -1(15) and -999; JFFS2, UBIFS and SquashFS
// "lzo"), and lzop files, the format of the lzop tool: a header, then blocks each with its sizes and checksums.
// Instruction layout as Linux's Documentation/staging/lzo.rst describes it (version 0, no RLE extension).
import { crc32 } from 'node:zlib';
import { DecodeError, OutputLimitError, type Decoded } from './errors.js';

export const LZOP_MAGIC = [0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** lzop refuses blocks past 64 MiB as corrupt (its writer uses 256 KiB). */
const LZOP_MAX_BLOCK = 64 << 20;
/** A block size of all ones marks a split (multi-volume) file, which lzop never implemented. */
const LZOP_SPLIT = 0xffffffff;
/** Header version 0x0940 added the version-needed, level and mtime-high fields. */
const LZOP_V0940 = 0x0940;
const LZOP_FIRST_VERSION = 0x0900;

const F_ADLER32_D = 0x0001;
const F_ADLER32_C = 0x0002;
const F_H_EXTRA_FIELD = 0x0040;
const F_CRC32_D = 0x0100;
const F_CRC32_C = 0x0200;
const F_H_FILTER = 0x0800;
const F_H_CRC32 = 0x1000;
/** Flag bits 14–19 are reserved (0–13 are flags, 20–23 the charset, 24–31 the OS). */
const F_RESERVED = 0x000fc000;
/** Methods 1, 2 and 3 (LZO1X-1, LZO1X-1(15), LZO1X-999) all write the same LZO1X stream. */
const LZOP_METHODS = new Set([1, 2, 3]);

/** Matches of the 0..15 instructions after a literal run of 4 or more start 2049 bytes back (M2_MAX_OFFSET + 1). */
const M1_AFTER_RUN_BASE = 2049;
/** The 0001HLLL instructions reach 16 KiB + H·16 KiB + D back; a distance of exactly 16 KiB ends the stream. */
const M4_BASE = 16384;

const truncated = () => new DecodeError('lzo: stream truncated');

/** The output so far in a buffer that doubles as it fills, never past `limit` bytes. */
class Output {
  buf: Uint8Array;
  /** Where the stream being decoded must stop: the caller's bound, or an lzop block's declared end. */
  stop: number;

  constructor(
    readonly limit: number,
    sizeHint: number,
  ) {
    this.buf = new Uint8Array(Math.max(64, Math.min(sizeHint, limit)));
    this.stop = limit;
  }

  /** Grows the buffer once to `need` bytes (within the limit), so a large stream is not copied at every doubling. */
  expect(used: number, need: number): void {
    if (need > this.buf.length) this.room(used, Math.min(need, this.limit));
  }

  /** A buffer with room for `need` bytes in all, holding the first `used` of the current one. */
  room(used: number, need: number): Uint8Array {
    if (need > this.stop)
      throw this.stop < this.limit
        ? new DecodeError('lzo: block decodes past its declared size')
        : new OutputLimitError(this.limit);
    if (need <= this.buf.length) return this.buf;
    const next = new Uint8Array(Math.min(Math.max(need, this.buf.length * 2), this.limit));
    next.set(this.buf.subarray(0, used));
    return (this.buf = next);
  }

  /** The first `length` bytes, copied out when the buffer holds much unused room. */
  result(length: number): Uint8Array {
    const data = this.buf.subarray(0, length);
    return this.buf.length - length > length >> 2 ? data.slice() : data;
  }
}

/**
 * Decodes the LZO1X stream src[start…) onto out.buf from `op`, matches reaching back to `floor`. Returns
 * where the stream ends (after its end marker) and the output's new length. (Hot loop: no closures, so that
 * ip, op and buf stay in registers.)
 */
function decodeInto(src: Uint8Array, start: number, out: Output, op: number, floor: number): [number, number] {
  const end = src.length;
  let buf = out.buf;
  let ip = start;
  // Literals copied after the last instruction: 0, 1–3, or 4 for a long run. It decides what 0..15 means.
  let state = 0;
  // A literal run waiting to be copied (the first byte's, or a 0000LLLL instruction's).
  let run = 0;

  if (ip >= end) throw truncated();
  if (src[ip]! > 17) {
    // A first byte past 17 is a literal run of byte - 17 (no dictionary yet, so nothing else makes sense).
    run = src[ip++]! - 17;
    state = run < 4 ? run : 4;
  }
  for (;;) {
    if (run) {
      if (run > end - ip) throw truncated();
      if (op + run > buf.length) buf = out.room(op, op + run);
      if (run < 32) for (const stop = ip + run; ip < stop;) buf[op++] = src[ip++]!;
      else {
        buf.set(src.subarray(ip, ip + run), op);
        ip += run;
        op += run;
      }
      run = 0;
    }
    if (ip >= end) throw truncated();
    const t = src[ip++]!;
    let distance: number;
    let length: number;
    let next: number;
    if (t >= 64) {
      // 01LDDDSS / 1LLDDDSS + one byte: 3–8 bytes from up to 2 KiB back.
      if (ip >= end) throw truncated();
      distance = ((t >> 2) & 7) + (src[ip++]! << 3) + 1;
      length = (t >> 5) + 1;
      next = t & 3;
    } else if (t >= 16 || state === 0) {
      // 001LLLLL (up to 16 KiB back), 0001HLLL (16–48 KiB back) or, after no literals, 0000LLLL (a literal
      // run of 4 or more). A length field of all zero bits continues: each zero byte adds 255, then the first
      // non-zero byte adds itself.
      const bits = t >= 32 ? 31 : t >= 16 ? 7 : 15;
      length = t & bits;
      if (length === 0) {
        length = bits;
        for (;;) {
          if (ip >= end) throw truncated();
          const b = src[ip++]!;
          if (b) {
            length += b;
            break;
          }
          length += 255;
        }
      }
      if (t < 16) {
        run = length + 3;
        state = 4;
        continue;
      }
      length += 2;
      if (end - ip < 2) throw truncated();
      const word = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      next = word & 3;
      if (t >= 32) distance = (word >> 2) + 1;
      else {
        distance = M4_BASE + ((t & 8) << 11) + (word >> 2);
        if (distance === M4_BASE) return [ip, op];
      }
    } else {
      // 0000DDSS + one byte: 2 bytes from up to 1 KiB back, or after a long run 3 bytes from 2–3 KiB back.
      if (ip >= end) throw truncated();
      const far = state === 4;
      distance = (t >> 2) + (src[ip++]! << 2) + (far ? M1_AFTER_RUN_BASE : 1);
      length = far ? 3 : 2;
      next = t & 3;
    }
    if (distance > op - floor) throw new DecodeError(`lzo: match distance ${distance} before the start`);
    if (op + length + next > buf.length) buf = out.room(op, op + length + next);
    let from = op - distance;
    if (length < 32) for (const stop = op + length; op < stop;) buf[op++] = buf[from++]!;
    else {
      // An overlapping match repeats its last `distance` bytes: copy in doubling runs of whole periods.
      for (let left = length; left > 0;) {
        const chunk = Math.min(left, op - from);
        buf.copyWithin(op, from, from + chunk);
        op += chunk;
        left -= chunk;
      }
    }
    if (next > end - ip) throw truncated();
    for (let i = 0; i < next; i++) buf[op++] = src[ip++]!;
    state = next;
  }
}

/**
 * One LZO1X stream, as lzo1x_decompress_safe reads it; `consumed` runs through the end marker (11 00 00),
 * so whatever follows it is left alone.
 */
export function decodeLzo1x(input: Uint8Array, maxOutput: number): Decoded {
  const out = new Output(maxOutput, input.length * 3 + 64);
  const [consumed, length] = decodeInto(input, 0, out, 0, 0);
  return { data: out.result(length), consumed };
}

/** Adler-32 (zlib's), the checksum lzop uses unless told CRC-32. */
export function adler32(b: Uint8Array, start = 0, end = b.length, seed = 1): number {
  let a = seed & 0xffff;
  let s = seed >>> 16;
  // Sums are reduced every 5552 bytes, the most after which they still fit 32 bits (zlib's NMAX): cheaper than
  // a modulo per byte.
  for (let at = start; at < end;) {
    const stop = Math.min(end, at + 5552);
    for (; at < stop; at++) {
      a += b[at]!;
      s += a;
    }
    a %= 65521;
    s %= 65521;
  }
  return ((s << 16) | a) >>> 0;
}

const be32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const be16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;

const isLzopMagic = (b: Uint8Array, at: number) =>
  at + LZOP_MAGIC.length <= b.length && LZOP_MAGIC.every((m, i) => b[at + i] === m);

interface LzopHeader {
  flags: number;
  name: string;
  /** Where the first block begins. */
  end: number;
}

/** The lzop header at src[at…) (after its magic), its checksums verified. */
function lzopHeader(src: Uint8Array, at: number): LzopHeader {
  const need = (n: number) => {
    if (at + n > src.length) throw new DecodeError('lzop: header truncated');
  };
  const start = at;
  need(2 + 2 + 1 + 4);
  const version = be16(src, at);
  if (version < LZOP_FIRST_VERSION) throw new DecodeError(`lzop: header version 0x${version.toString(16)} unknown`);
  at += 4; // version, library version
  const newer = version >= LZOP_V0940;
  if (newer) at += 2; // version needed to extract
  need(2);
  const method = src[at++]!;
  if (newer) at++; // level
  need(4);
  const flags = be32(src, at);
  at += 4;
  if (!LZOP_METHODS.has(method)) throw new DecodeError(`lzop: method ${method} is not LZO1X`);
  if (flags & F_RESERVED) throw new DecodeError(`lzop: reserved flags 0x${flags.toString(16)}`);
  if (flags & F_H_FILTER) throw new DecodeError('lzop: filtered files are not supported');
  at += 4 + 4 + (newer ? 4 : 0); // mode, mtime low, mtime high
  need(1);
  const nameLength = src[at++]!;
  need(nameLength + 4);
  const name = Buffer.from(src.subarray(at, at + nameLength)).toString('latin1');
  at += nameLength;
  const checksum = (from: number, to: number) =>
    flags & F_H_CRC32 ? crc32(src.subarray(from, to)) >>> 0 : adler32(src, from, to);
  if (checksum(start, at) !== be32(src, at)) throw new DecodeError('lzop: header checksum mismatch');
  at += 4;
  if (flags & F_H_EXTRA_FIELD) {
    need(4);
    const length = be32(src, at);
    need(4 + length + 4);
    if (checksum(at, at + 4 + length) !== be32(src, at + 4 + length))
      throw new DecodeError('lzop: extra field checksum mismatch');
    at += 4 + length + 4;
  }
  return { flags, name, end: at };
}

/** The blocks of one lzop member from src[at…) onto `out`; returns where the member ends and the output length. */
function lzopBlocks(src: Uint8Array, at: number, flags: number, out: Output, op: number): [number, number] {
  const checks = (d: number) => (flags & d ? 4 : 0);
  // The block headers give the member's size: room for it at once (only for headers the input holds).
  let total = 0;
  for (let scan = at; scan + 8 <= src.length;) {
    const size = be32(src, scan);
    const packed = be32(src, scan + 4);
    if (size === 0 || size > LZOP_MAX_BLOCK || packed > size) break;
    // Each input byte of a length field adds at most 255 output bytes: a block cannot expand much past 255:1,
    // so a header that claims more buys no room before its data proves it.
    total += Math.min(size, packed * 256 + 64);
    scan += 8 + checks(F_ADLER32_D) + checks(F_CRC32_D) + (packed < size ? checks(F_ADLER32_C) + checks(F_CRC32_C) : 0);
    scan += packed;
  }
  out.expect(op, op + total);
  for (;;) {
    if (at + 4 > src.length) throw new DecodeError('lzop: truncated before the end marker');
    const size = be32(src, at);
    at += 4;
    if (size === 0) return [at, op];
    if (size === LZOP_SPLIT || size > LZOP_MAX_BLOCK) throw new DecodeError(`lzop: block size ${size} is corrupt`);
    if (at + 4 > src.length) throw new DecodeError('lzop: block header truncated');
    const packed = be32(src, at);
    at += 4;
    if (packed === 0 || packed > size) throw new DecodeError(`lzop: block packs ${size} bytes into ${packed}`);
    const stored = packed === size;
    const sums = at;
    at += checks(F_ADLER32_D) + checks(F_CRC32_D) + (stored ? 0 : checks(F_ADLER32_C) + checks(F_CRC32_C));
    if (at + packed > src.length) throw new DecodeError('lzop: block truncated');
    let sumAt = sums;
    const expect = () => {
      const v = be32(src, sumAt);
      sumAt += 4;
      return v;
    };
    const adlerD = flags & F_ADLER32_D ? expect() : null;
    const crcD = flags & F_CRC32_D ? expect() : null;
    if (!stored) {
      if (flags & F_ADLER32_C && adler32(src, at, at + packed) !== expect())
        throw new DecodeError('lzop: compressed block Adler-32 mismatch');
      if (flags & F_CRC32_C && crc32(src.subarray(at, at + packed)) >>> 0 !== expect())
        throw new DecodeError('lzop: compressed block CRC-32 mismatch');
    }
    const blockStart = op;
    if (stored) {
      const buf = out.room(op, op + size);
      buf.set(src.subarray(at, at + packed), op);
      op += size;
    } else {
      // The block is one whole LZO1X stream: its matches stay inside it, its output inside its declared size.
      if (op + size > out.limit) throw new OutputLimitError(out.limit);
      out.stop = op + size;
      const [used, length] = decodeInto(src.subarray(at, at + packed), 0, out, op, blockStart);
      out.stop = out.limit;
      if (length - blockStart !== size || used !== packed)
        throw new DecodeError(`lzop: block of ${packed} bytes decodes to ${length - blockStart}, not ${size}`);
      op = length;
    }
    if (adlerD !== null && adler32(out.buf, blockStart, op) !== adlerD)
      throw new DecodeError('lzop: block Adler-32 mismatch');
    if (crcD !== null && crc32(out.buf.subarray(blockStart, op)) >>> 0 !== crcD)
      throw new DecodeError('lzop: block CRC-32 mismatch');
    at += packed;
  }
}

/**
 * An lzop file: every member of it (lzop writes several when given several files), each block's checksums
 * verified; `consumed` ends after the last member's end marker. `name` is the first member's stored name.
 */
export function decodeLzop(input: Uint8Array, maxOutput: number): Decoded & { name: string | null } {
  if (!isLzopMagic(input, 0)) throw new DecodeError('lzop: bad magic');
  const out = new Output(maxOutput, 0);
  let name: string | null = null;
  let at = 0;
  let op = 0;
  do {
    const header = lzopHeader(input, at + LZOP_MAGIC.length);
    if (at === 0) name = header.name || null;
    [at, op] = lzopBlocks(input, header.end, header.flags, out, op);
  } while (isLzopMagic(input, at));
  return { data: out.result(op), consumed: at, name };
}
