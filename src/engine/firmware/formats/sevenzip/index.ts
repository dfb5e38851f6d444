// 7z archives carved from anywhere in an image: found by the signature header, whose CRC-checked fields
// give the archive's exact extent (32 bytes + the offset and size of the header at its end). Folders
// (LZMA, LZMA2, PPMd, BZip2, Deflate, Copy; BCJ, BCJ2, ARM, ARMT, ARM64, PPC, SPARC, IA64, RISCV, Delta,
// Swap filters; 7zAES with the task's password, headers too) are decoded one at a time as their files are
// reached, and each file's CRC-32 is checked.
//
// Files here: cursor.ts (header bytes), folders.ts (streams info), header.ts (signature header, file list),
// decode.ts (one folder's coder graph), coders.ts (the methods), aes.ts, bcj2.ts, riscv.ts, ppmd.ts with
// ppmd-model.ts.
// They import only the engine's decompressors, its CRC-32 and node:crypto.
import { crc32Value } from '../../../fuzzy/crc32.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { FirmwareFormat, Entry, ReadContext } from '../../format.js';
import { PasswordNeeded } from './aes.js';
import { methodName, type CoderContext } from './coders.js';
import { decodeFolder, isEncrypted } from './decode.js';
import { readHeader, SIGNATURE, signatureHeader, WrongPassword, type ArchiveHeader, type FileItem } from './header.js';

const UNIX_EXTENSION = 0x8000;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The Unix mode p7zip and 7-Zip on Unix keep in the attributes' high 16 bits, or null. */
function unixMode(f: FileItem): number | null {
  return f.attributes !== null && f.attributes & UNIX_EXTENSION ? f.attributes >>> 16 : null;
}

/** What became of the folder being read: its output, or the problem every file in it shares. */
type FolderState = { index: number; data: Uint8Array } | { index: number; problem: (name: string) => string };

function* entries(
  archive: Uint8Array,
  header: ArchiveHeader,
  ctx: ReadContext,
  coders: CoderContext,
): Generator<Entry> {
  const subStreams = header.streams?.subStreams ?? [];
  let next = 0;
  let folder: FolderState | null = null;
  for (const f of header.files) {
    if (f.isAnti) continue;
    const mode = unixMode(f);
    const perms = mode !== null ? { mode: mode & 0o7777 } : {};
    const isLink = mode !== null && (mode & S_IFMT) === S_IFLNK;
    if (!f.hasStream) {
      if (f.isDir) yield { path: f.name, kind: 'dir', ...perms };
      else yield { path: f.name, kind: 'file', data: new Uint8Array(0), ...perms };
      continue;
    }
    const sub = subStreams[next++]!;
    if (folder?.index !== sub.folder) folder = readFolder(archive, header, sub.folder, ctx, coders);
    if ('problem' in folder) {
      ctx.problem(folder.problem(f.name));
      continue;
    }
    const data = folder.data.subarray(sub.offset, sub.offset + sub.size);
    if (sub.crc !== null && crc32Value(data) !== sub.crc) {
      const encrypted = isEncrypted(header.streams!.folders[sub.folder]!);
      ctx.problem(`7z entry ${f.name}: CRC-32 mismatch${encrypted ? ' after decryption: wrong password' : ''}`);
      continue;
    }
    if (isLink) yield { path: f.name, kind: 'symlink', target: Buffer.from(data).toString('utf8'), ...perms };
    else yield { path: f.name, kind: 'file', data, ...perms };
  }
}

function readFolder(
  archive: Uint8Array,
  header: ArchiveHeader,
  index: number,
  ctx: ReadContext,
  coders: CoderContext,
): FolderState {
  const streams = header.streams!;
  try {
    return { index, data: decodeFolder(archive, streams, index, ctx.remaining(), coders) };
  } catch (err) {
    if (err instanceof PasswordNeeded)
      return { index, problem: (name) => `7z entry ${name} is encrypted: give the archive's password to extract it` };
    if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
    const message = err.message;
    if (err instanceof DecodeError && isEncrypted(streams.folders[index]!))
      return { index, problem: (name) => `7z entry ${name}: does not decrypt (${message}): wrong password` };
    return { index, problem: (name) => `7z entry ${name}: ${message}` };
  }
}

function describe(sig: { version: string }, header: ArchiveHeader): string {
  const folders = header.streams?.folders ?? [];
  const methods = new Set(folders.flatMap((f) => f.coders.map((c) => methodName(c.method))));
  const files = header.files.filter((f) => f.hasStream).length;
  const solid = header.streams && header.streams.subStreams.length > folders.length ? ', solid' : '';
  return (
    `7z ${sig.version}: ${header.files.length} entries, ${files} with data in ${folders.length} folders` +
    `${methods.size ? ` (${[...methods].join(', ')})` : ''}${solid}${header.encrypted ? ', encrypted header' : ''}`
  );
}

export const sevenZipFormat: FirmwareFormat = {
  name: '7z',
  magics: [{ bytes: [...SIGNATURE] }],
  probe(data, offset, ctx) {
    const sig = signatureHeader(data, offset);
    if (!sig) return null;
    const archive = data.subarray(offset, offset + sig.size);
    const coders: CoderContext = { password: ctx.password, keys: new Map() };
    // The header is read now for the description; what goes wrong is reported when the entries are asked for.
    let header: ArchiveHeader | null = null;
    let failure: DecodeError | OutputLimitError | null = null;
    try {
      header = readHeader(archive, sig, ctx.remaining(), coders);
    } catch (err) {
      if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
      failure = err;
    }
    const description = header
      ? describe(sig, header)
      : failure instanceof PasswordNeeded || failure instanceof WrongPassword
        ? `7z ${sig.version}: encrypted header`
        : `7z ${sig.version}: unreadable header`;
    return {
      size: sig.size,
      description,
      *entries(readCtx) {
        if (header) return yield* entries(archive, header, readCtx, coders);
        if (failure instanceof PasswordNeeded)
          readCtx.problem(`7z archive's file list is encrypted: give the archive's password to list and extract it`);
        else if (failure instanceof WrongPassword) readCtx.problem(`7z archive's file list: ${failure.message}`);
        else if (failure) throw failure;
      },
    };
  },
};
