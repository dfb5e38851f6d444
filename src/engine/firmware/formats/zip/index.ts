// Zip archives carved from anywhere in an image: found by their first local header, read through the
// central directory that the end record points at (zip64 too), each entry's local header checked and its
// range checked against the others — entries that overlap (the "overlapping files" zip bomb) are refused.
// Stored, deflate, bzip2, LZMA, Zstandard and xz entries; ZipCrypto and WinZip AES with the task's password.
import { ByteView } from '../../../formats/byte-view.js';
import { crc32Value } from '../../../fuzzy/crc32.js';
import { decodeBzip2 } from '../../compression/bzip2.js';
import { inflateRaw } from '../../compression/deflate.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import { decodeLzmaRaw } from '../../compression/lzma.js';
import { decodeXz } from '../../compression/xz.js';
import { decodeZstd } from '../../compression/zstd.js';
import type { FirmwareFormat, Entry, ReadContext } from '../../format.js';
import { aesDecrypt, WrongPassword, zipCryptoDecrypt } from './encryption.js';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const END_SIZE = 22;
/** End records looked at past the first local header: a zip inside a zip has several. */
const MAX_END_CANDIDATES = 64;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DESCRIPTOR = 0x8;
const FLAG_UTF8 = 0x800;
const METHOD_AES = 99;
const UNIX_HOST = 3;

interface CentralEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Local header offset from the archive's start. */
  local: number;
  unixMode: number | null;
  /** Modification time (DOS), whose high byte checks a ZipCrypto password when sizes follow the data. */
  time: number;
  aes: { strength: number; method: number } | null;
}

/** The central directory of the archive starting at 0 of `v`, and the archive's size; null if none fits. */
function centralDirectory(v: ByteView): { entries: CentralEntry[]; size: number } | null {
  let from = 30;
  for (let n = 0; n < MAX_END_CANDIDATES; n++) {
    const end = Buffer.from(v.bytes.buffer, v.bytes.byteOffset, v.bytes.length).indexOf('PK\x05\x06', from, 'latin1');
    if (end < 0 || !v.has(end, END_SIZE)) return null;
    from = end + 1;
    let count = v.u16(end + 10);
    let cdSize = v.u32(end + 12);
    let cdOffset = v.u32(end + 16);
    const size = end + END_SIZE + v.u16(end + 20);
    if (size > v.length) continue;
    if ((cdOffset === 0xffffffff || count === 0xffff) && v.u32(end - 20) === LOCATOR64) {
      const e64 = v.u64(end - 20 + 8);
      if (v.u32(e64) !== END64) continue;
      count = v.u64(e64 + 32);
      cdSize = v.u64(e64 + 40);
      cdOffset = v.u64(e64 + 48);
    }
    if (!v.has(cdOffset, cdSize) || cdOffset + cdSize > end || v.u32(cdOffset) !== CENTRAL) continue;
    const entries = readEntries(v, cdOffset, cdSize, count);
    if (entries) return { entries, size };
  }
  return null;
}

function readEntries(v: ByteView, at: number, cdSize: number, count: number): CentralEntry[] | null {
  const entries: CentralEntry[] = [];
  const end = at + cdSize;
  // Each record is at least 46 bytes: a count the directory cannot hold is a lie.
  if (count > cdSize / 46) return null;
  for (let i = 0; i < count; i++) {
    if (!v.has(at, 46) || at + 46 > end || v.u32(at) !== CENTRAL) return null;
    const nameLen = v.u16(at + 28);
    const extraLen = v.u16(at + 30);
    const next = at + 46 + nameLen + extraLen + v.u16(at + 32);
    if (next > end) return null;
    const flags = v.u16(at + 8);
    const nameBytes = Buffer.from(v.bytes.subarray(at + 46, at + 46 + nameLen));
    const e: CentralEntry = {
      name: nameBytes.toString(flags & FLAG_UTF8 ? 'utf8' : 'latin1'),
      method: v.u16(at + 10),
      flags,
      time: v.u16(at + 12),
      crc: v.u32(at + 16),
      compressedSize: v.u32(at + 20),
      size: v.u32(at + 24),
      local: v.u32(at + 42),
      unixMode: v.u8(at + 5) === UNIX_HOST ? v.u32(at + 38) >>> 16 : null,
      aes: null,
    };
    readExtra(v, at + 46 + nameLen, extraLen, e);
    entries.push(e);
    at = next;
  }
  return entries;
}

/** Zip64 sizes and offset (0x0001), and the AES header (0x9901). */
function readExtra(v: ByteView, at: number, length: number, e: CentralEntry): void {
  for (const end = at + length; at + 4 <= end;) {
    const id = v.u16(at);
    const size = v.u16(at + 2);
    let p = at + 4;
    if (id === 0x0001) {
      // Only the fields whose 32-bit value is all ones are here, in this order.
      if (e.size === 0xffffffff) {
        e.size = v.u64(p);
        p += 8;
      }
      if (e.compressedSize === 0xffffffff) {
        e.compressedSize = v.u64(p);
        p += 8;
      }
      if (e.local === 0xffffffff) e.local = v.u64(p);
    } else if (id === 0x9901 && size >= 7) e.aes = { strength: v.u8(p + 4), method: v.u16(p + 5) };
    at += 4 + size;
  }
}

function decompress(method: number, data: Uint8Array, e: CentralEntry, max: number): Uint8Array {
  switch (method) {
    case 0:
      if (data.length > max) throw new OutputLimitError(max);
      return data;
    case 8:
      return inflateRaw(data, max).data;
    case 12:
      return decodeBzip2(data, max).data;
    case 14: {
      // Two version bytes, the properties' size, then the LZMA properties (lc/lp/pb byte, dictionary size).
      const v = new ByteView(data, true);
      const propsAt = 4;
      const d = v.u8(propsAt);
      const props = { lc: d % 9, lp: Math.floor(d / 9) % 5, pb: Math.floor(d / 45), dictSize: v.u32(propsAt + 1) };
      const withEnd = (e.flags & 0x2) !== 0;
      return decodeLzmaRaw(data.subarray(propsAt + v.u16(2)), props, max, withEnd ? null : e.size).data;
    }
    case 93:
      return decodeZstd(data, max).data;
    case 95:
      return decodeXz(data, max).data;
    default:
      throw new DecodeError(`compression method ${method} is not read`);
  }
}

function* entries(v: ByteView, list: CentralEntry[], ctx: ReadContext): Generator<Entry> {
  // Entries in file order: each must end before the next begins.
  const ordered = [...list].sort((a, b) => a.local - b.local);
  let claimedTo = 0;
  for (const e of ordered) {
    const at = e.local;
    if (!v.has(at, 30) || v.u32(at) !== LOCAL) {
      ctx.problem(`zip entry ${e.name}: no local header at ${at}`);
      continue;
    }
    const dataAt = at + 30 + v.u16(at + 26) + v.u16(at + 28);
    if (at < claimedTo) {
      ctx.problem(`zip entry ${e.name} overlaps the entry before it (an overlapping-entries zip bomb): skipped`);
      continue;
    }
    if (!v.has(dataAt, e.compressedSize)) {
      ctx.problem(`zip entry ${e.name} runs past the archive`);
      continue;
    }
    claimedTo = dataAt + e.compressedSize;
    const mode = e.unixMode !== null ? e.unixMode & 0o7777 : undefined;
    if (e.name.endsWith('/')) {
      yield { path: e.name, kind: 'dir', ...(mode !== undefined ? { mode } : {}) };
      continue;
    }
    const bytes = entryBytes(v.bytes.subarray(dataAt, dataAt + e.compressedSize), e, ctx);
    if (!bytes) continue;
    if (e.unixMode !== null && (e.unixMode & 0o170000) === 0o120000)
      yield { path: e.name, kind: 'symlink', target: Buffer.from(bytes).toString('utf8'), mode: mode! };
    else yield { path: e.name, kind: 'file', data: bytes, ...(mode !== undefined ? { mode } : {}) };
  }
}

/** An entry's bytes, decrypted, decompressed and checked; null (with a problem) when that fails. */
function entryBytes(raw: Uint8Array, e: CentralEntry, ctx: ReadContext): Uint8Array | null {
  let data = raw;
  let method = e.method;
  try {
    if (e.flags & FLAG_ENCRYPTED) {
      if (ctx.password === null) {
        ctx.problem(`zip entry ${e.name} is encrypted: give the archive's password to extract it`);
        return null;
      }
      if (method === METHOD_AES && e.aes) {
        data = aesDecrypt(data, ctx.password, e.aes.strength);
        method = e.aes.method;
      } else {
        data = zipCryptoDecrypt(data, ctx.password, e.flags & FLAG_DESCRIPTOR ? e.time >>> 8 : e.crc >>> 24);
      }
    }
    // The directory's size bounds the output: an entry that decodes to more is refused as a bomb would be.
    const out = decompress(method, data, e, Math.min(ctx.remaining(), e.size));
    // AE-2 entries carry no CRC (the authentication code checked them).
    const checked = !(e.aes && e.crc === 0);
    if (out.length !== e.size || (checked && crc32Value(out) !== e.crc)) {
      ctx.problem(`zip entry ${e.name}: size or CRC-32 differs from the directory's (damaged)`);
      return null;
    }
    return out;
  } catch (err) {
    if (err instanceof WrongPassword || err instanceof DecodeError || err instanceof OutputLimitError) {
      ctx.problem(`zip entry ${e.name}: ${err.message}`);
      return null;
    }
    throw err;
  }
}

export const zipFormat: FirmwareFormat = {
  name: 'zip',
  magics: [{ bytes: [0x50, 0x4b, 0x03, 0x04] }],
  probe(data, offset) {
    const v = new ByteView(data.subarray(offset), true);
    if (v.u32(0) !== LOCAL) return null;
    const cd = centralDirectory(v);
    if (!cd) return null;
    const archive = new ByteView(v.bytes.subarray(0, cd.size), true);
    return {
      size: cd.size,
      description: `${cd.entries.length} entries${cd.entries.some((e) => e.flags & FLAG_ENCRYPTED) ? ', encrypted' : ''}`,
      entries: (ctx) => entries(archive, cd.entries, ctx),
    };
  },
};
