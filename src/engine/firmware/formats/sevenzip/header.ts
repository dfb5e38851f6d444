// The 7z archive's frame and file list. A 32-byte signature header (magic, version, a CRC of the next 20
// bytes, then where the header lies past it, its size and its CRC) starts the archive; the header ends it.
// The header is usually itself packed ("encoded header": a streams info whose one folder decodes to the real
// header), and encrypted too with `-mhe=on`. It holds the main streams info and the files info: names
// (UTF-16LE), which files have no data (empty files, directories, anti-items) and attributes.
import { crc32Value } from '../../../fuzzy/crc32.js';
import { DecodeError } from '../../compression/errors.js';
import { PasswordNeeded } from './aes.js';
import type { CoderContext } from './coders.js';
import { HeaderCursor, Id } from './cursor.js';
import { decodeFolder, isEncrypted } from './decode.js';
import { folderSize, readStreamsInfo, SIGNATURE_HEADER_SIZE, type StreamsInfo } from './folders.js';

export const SIGNATURE = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] as const;
/** An encoded header may decode to another encoded header once; 7-Zip never nests them at all. */
const MAX_HEADER_DECODES = 2;

export interface SignatureHeader {
  version: string;
  headerOffset: number;
  headerSize: number;
  headerCrc: number;
  /** The archive's extent: the signature header, the packed streams and the header. */
  size: number;
}

export interface FileItem {
  name: string;
  hasStream: boolean;
  isDir: boolean;
  /** An "anti-item" deletes the file when an update archive is applied; it is nothing to extract. */
  isAnti: boolean;
  /** Windows attributes; with bit 15 set, the high 16 bits are a Unix mode (p7zip, 7-Zip on Unix). */
  attributes: number | null;
}

export interface ArchiveHeader {
  streams: StreamsInfo | null;
  files: FileItem[];
  /** The header was encrypted (`-mhe=on`): even the names needed the password. */
  encrypted: boolean;
}

/** The header's folder decodes but not to valid data: with encryption, the password is wrong. */
export class WrongPassword extends DecodeError {}

/** The signature header at `offset`, if its magic, version and CRC hold and the archive fits in `data`. */
export function signatureHeader(data: Uint8Array, offset: number): SignatureHeader | null {
  if (data.length - offset < SIGNATURE_HEADER_SIZE) return null;
  for (let i = 0; i < SIGNATURE.length; i++) if (data[offset + i] !== SIGNATURE[i]) return null;
  const v = new DataView(data.buffer, data.byteOffset + offset, SIGNATURE_HEADER_SIZE);
  if (v.getUint8(6) !== 0) return null;
  if (crc32Value(data.subarray(offset + 12, offset + 32)) !== v.getUint32(8, true)) return null;
  const high = (at: number) => v.getUint32(at + 4, true);
  // Offsets at or past 2^53 fit no image (and would lose bits as numbers).
  if (high(12) >= 0x200000 || high(20) >= 0x200000) return null;
  const headerOffset = high(12) * 2 ** 32 + v.getUint32(12, true);
  const headerSize = high(20) * 2 ** 32 + v.getUint32(20, true);
  const size = SIGNATURE_HEADER_SIZE + headerOffset + headerSize;
  if (size > data.length - offset) return null;
  return { version: `0.${v.getUint8(7)}`, headerOffset, headerSize, headerCrc: v.getUint32(28, true), size };
}

/** The archive's header (decoded and decrypted as needed); `archive` spans the archive exactly. */
export function readHeader(
  archive: Uint8Array,
  sig: SignatureHeader,
  budget: number,
  ctx: CoderContext,
): ArchiveHeader {
  if (sig.headerSize === 0) return { streams: null, files: [], encrypted: false };
  const start = SIGNATURE_HEADER_SIZE + sig.headerOffset;
  let bytes = archive.subarray(start, start + sig.headerSize);
  if (crc32Value(bytes) !== sig.headerCrc) throw new DecodeError('7z header CRC-32 mismatch');
  let encrypted = false;
  for (let decodes = 0; ; decodes++) {
    const cur = new HeaderCursor(bytes);
    const type = cur.number();
    if (type === Id.header) return { ...readMainHeader(cur, archive.length), encrypted };
    if (type !== Id.encodedHeader) throw new DecodeError(`7z header starts with property 0x${type.toString(16)}`);
    if (decodes === MAX_HEADER_DECODES) throw new DecodeError('7z encoded headers nest too deep');
    const streams = readStreamsInfo(cur, archive.length);
    if (streams.folders.length !== 1) throw new DecodeError('7z encoded header is not one folder');
    const folder = streams.folders[0]!;
    encrypted ||= isEncrypted(folder);
    bytes = decodeHeaderFolder(archive, streams, budget, ctx);
    if (folder.crc !== null && crc32Value(bytes) !== folder.crc) {
      if (isEncrypted(folder)) throw new WrongPassword('7z header does not decrypt: wrong password');
      throw new DecodeError('7z encoded header CRC-32 mismatch');
    }
    if (bytes.length !== folderSize(folder)) throw new DecodeError('7z encoded header has the wrong size');
  }
}

function decodeHeaderFolder(archive: Uint8Array, streams: StreamsInfo, budget: number, ctx: CoderContext) {
  try {
    return decodeFolder(archive, streams, 0, budget, ctx);
  } catch (err) {
    if (err instanceof DecodeError && !(err instanceof PasswordNeeded) && isEncrypted(streams.folders[0]!))
      throw new WrongPassword(`7z header does not decrypt (${err.message}): wrong password`);
    throw err;
  }
}

function readMainHeader(cur: HeaderCursor, archiveSize: number): Omit<ArchiveHeader, 'encrypted'> {
  let type = cur.number();
  if (type === Id.archiveProperties) {
    for (let t = cur.number(); t !== Id.end; t = cur.number()) cur.skipData();
    type = cur.number();
  }
  if (type === Id.additionalStreamsInfo) throw new DecodeError('7z additional streams are not read');
  let streams: StreamsInfo | null = null;
  if (type === Id.mainStreamsInfo) {
    streams = readStreamsInfo(cur, archiveSize);
    type = cur.number();
  }
  let files: FileItem[] = [];
  if (type === Id.filesInfo) {
    files = readFilesInfo(cur);
    type = cur.number();
  }
  if (type !== Id.end) throw new DecodeError(`7z header has property 0x${type.toString(16)} out of place`);
  const withData = files.reduce((n, f) => n + (f.hasStream ? 1 : 0), 0);
  if (withData !== (streams?.subStreams.length ?? 0))
    throw new DecodeError(`7z header lists ${withData} files with data for ${streams?.subStreams.length ?? 0} streams`);
  return { streams, files };
}

function readFilesInfo(cur: HeaderCursor): FileItem[] {
  // A file takes at least one bit (of the empty-stream vector) of the header.
  const count = cur.count('files', 1 / 8);
  let emptyStream: Uint8Array | null = null;
  let empties = 0;
  let emptyFile: Uint8Array | null = null;
  let anti: Uint8Array | null = null;
  let names: string[] | null = null;
  let attributes: (number | null)[] | null = null;
  for (let type = cur.number(); type !== Id.end; type = cur.number()) {
    const size = cur.number();
    const prop = new HeaderCursor(cur.bytes, cur.pos, cur.pos + size);
    cur.skip(size);
    if (type === Id.emptyStream) {
      emptyStream = prop.bits(count);
      empties = emptyStream.reduce((n, b) => n + b, 0);
    } else if (type === Id.emptyFile) emptyFile = prop.bits(empties);
    else if (type === Id.anti) anti = prop.bits(empties);
    else if (type === Id.name) names = readNames(prop, count);
    else if (type === Id.winAttributes) {
      const defined = prop.defined(count);
      if (prop.byte() !== 0) throw new DecodeError('7z attributes stored elsewhere are not read');
      attributes = [];
      for (let i = 0; i < count; i++) attributes.push(defined[i] ? prop.u32() : null);
    }
  }
  const files: FileItem[] = [];
  for (let i = 0, empty = 0; i < count; i++) {
    const hasStream = !emptyStream?.[i];
    let isDir = false;
    let isAnti = false;
    if (!hasStream) {
      isDir = !emptyFile?.[empty];
      isAnti = !!anti?.[empty];
      empty++;
    }
    files.push({ name: names?.[i] ?? `file${i}`, hasStream, isDir, isAnti, attributes: attributes?.[i] ?? null });
  }
  return files;
}

/** `count` NUL-terminated UTF-16LE names, after an "external" byte that must be 0. */
function readNames(prop: HeaderCursor, count: number): string[] {
  if (prop.byte() !== 0) throw new DecodeError('7z names stored elsewhere are not read');
  const bytes = prop.take(prop.left);
  if (bytes.length % 2 !== 0) throw new DecodeError('7z names are not UTF-16');
  const parts = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf16le').split('\0');
  if (parts.length !== count + 1 || parts[count] !== '') throw new DecodeError('7z name count differs from files');
  return parts.slice(0, count);
}
