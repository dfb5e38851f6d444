// cramfs, the compressed ROM file system: a 76-byte superblock, 12-byte inodes packed as bit fields, each
// directory's inodes (with their names) in one run, and each file as a table of block end pointers
// followed by its 4 KiB pages, zlib-compressed one by one. Little-endian as mkfs.cramfs writes it, or
// big-endian (cramfsswap, mkfs.cramfs -N big), where the bit fields fill each word from the top. With
// mkfs.cramfs -p the superblock sits 512 bytes in (room for boot code) and offsets still count from 0.
import { crc32 } from 'node:zlib';
import { inflateZlib } from '../compression/deflate.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import { type FirmwareFormat, type Entry, type ReadContext, unixKind } from '../format.js';

const MAGIC = 0x28cd3d45;
const SIGNATURE = 'Compressed ROMFS';
const SUPERBLOCK = 76;
const INODE = 12;
/** Boot code room before the superblock (mkfs.cramfs -p). */
const BOOT_PAD = 512;
/** Pages are the kernel's page size; mkfs.cramfs refuses any other block size. */
const PAGE = 4096;

const FLAG_FSID_V2 = 0x1;
const FLAG_EXT_BLOCK_POINTERS = 0x800;
/** FSID v2, sorted dirs, holes, wrong signature, shifted root, extended pointers: what the kernel mounts. */
const KNOWN_FLAGS = 0xff | 0x100 | 0x200 | 0x400 | FLAG_EXT_BLOCK_POINTERS;
/** With extended pointers: the block is stored, and/or the pointer gives its start (÷4) instead of its end. */
const BLK_UNCOMPRESSED = 0x80000000;
const BLK_DIRECT = 0x40000000;
/** Directory levels followed: real trees are a dozen deep; a hostile one stops here. */
const MAX_DEPTH = 64;

interface Inode {
  mode: number;
  /** Bytes of a file or link target, bytes of a directory's inode run, or a device's number. */
  size: number;
  /** Byte offset of a file's block pointers or a directory's first inode (0 when empty). */
  offset: number;
  /** Bytes the name takes after the inode (a multiple of 4). */
  nameBytes: number;
}

/** The file system's bytes (from its start, boot pad included) and its byte order. */
class Image {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
    readonly flags: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u32 = (at: number) => this.view.getUint32(at, this.littleEndian);
  u16 = (at: number) => this.view.getUint16(at, this.littleEndian);

  /** The inode at `at`: mode:16 uid:16 | size:24 gid:8 | namelen:6 offset:26, packed per byte order. */
  inode(at: number): Inode {
    if (at + INODE > this.bytes.length) throw new DecodeError(`cramfs: inode at ${at} is past the end`);
    const [w0, w1, w2] = [this.u32(at), this.u32(at + 4), this.u32(at + 8)];
    return this.littleEndian
      ? { mode: w0 & 0xffff, size: w1 & 0xffffff, nameBytes: (w2 & 0x3f) * 4, offset: (w2 >>> 6) * 4 }
      : { mode: w0 >>> 16, size: w1 >>> 8, nameBytes: (w2 >>> 26) * 4, offset: (w2 & 0x3ffffff) * 4 };
  }
}

/**
 * A file's (or link target's) bytes: page i ends where pointer i says and starts where page i − 1 ended
 * (page 0 right after the pointer table); a page of no bytes is a hole. Extended pointers may instead give
 * a page's start, its compressed length in its first two bytes. A page that does not decode is a problem
 * and stays zero.
 */
function readData(img: Image, node: Inode, ctx: ReadContext, path: string): Uint8Array {
  const size = node.size;
  if (size > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
  const out = new Uint8Array(size);
  const pages = Math.ceil(size / PAGE);
  const table = node.offset;
  if (size > 0 && (table === 0 || table + pages * 4 > img.bytes.length))
    throw new DecodeError(`cramfs: ${path}: block pointers at ${table} are past the end`);
  const ext = (img.flags & FLAG_EXT_BLOCK_POINTERS) !== 0;
  let next = table + pages * 4;
  for (let i = 0; i < pages; i++) {
    const raw = img.u32(table + i * 4);
    const flags = ext ? raw & (BLK_UNCOMPRESSED | BLK_DIRECT) : 0;
    const ptr = (raw & ~flags) >>> 0;
    const want = Math.min(PAGE, size - i * PAGE);
    const stored = (flags & BLK_UNCOMPRESSED) !== 0;
    let start: number;
    let length: number;
    if (flags & BLK_DIRECT) {
      start = ptr * 4;
      if (stored) length = want;
      else {
        if (start + 2 > img.bytes.length) throw new DecodeError(`cramfs: ${path}: page ${i} is past the end`);
        length = img.u16(start);
        start += 2;
      }
      next = start + (stored ? PAGE : length);
    } else {
      start = next;
      length = ptr - start;
      next = ptr;
    }
    if (length < 0 || start + length > img.bytes.length || length > (stored ? PAGE : 2 * PAGE))
      throw new DecodeError(`cramfs: ${path}: page ${i} has bad bounds (${start}, ${length} bytes)`);
    if (length === 0) continue;
    const block = img.bytes.subarray(start, start + length);
    if (stored) {
      out.set(block.subarray(0, want), i * PAGE);
      continue;
    }
    try {
      const page = inflateZlib(block, PAGE).data;
      if (page.length !== want) ctx.problem(`cramfs: ${path}: page ${i} holds ${page.length} of ${want} bytes`);
      out.set(page.subarray(0, want), i * PAGE);
    } catch (err) {
      if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
      ctx.problem(`cramfs: ${path}: page ${i} does not decode: ${err.message}`);
    }
  }
  return out;
}

/** A file's bytes, or null (a problem) when its block pointers are unreadable. */
function fileData(img: Image, node: Inode, ctx: ReadContext, path: string): Uint8Array | null {
  try {
    return readData(img, node, ctx, path);
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err;
    ctx.problem(err.message);
    return null;
  }
}

function* entries(img: Image, root: Inode, ctx: ReadContext): Generator<Entry> {
  const dirsSeen = new Set<number>();
  // Every inode is read once in a sound image: an image whose directories overlap stops here.
  let budget = Math.floor(img.bytes.length / INODE);
  const names = new TextDecoder('utf-8');

  /** One directory's entries; damage in its inode run is a problem that ends this directory only. */
  function* walk(dir: Inode, prefix: string, depth: number): Generator<Entry> {
    const end = dir.offset + dir.size;
    if (dir.size === 0) return;
    if (dirsSeen.has(dir.offset) || end > img.bytes.length) {
      ctx.problem(`cramfs: directory ${prefix || '/'} repeats inodes or runs past the end (${dir.offset}…${end})`);
      return;
    }
    dirsSeen.add(dir.offset);
    for (let at = dir.offset; at < end;) {
      if (--budget < 0) throw new DecodeError('cramfs: more inodes than the image holds');
      const node = at + INODE <= end ? img.inode(at) : null;
      const nameAt = at + INODE;
      at = nameAt + (node?.nameBytes ?? 0);
      if (!node || node.nameBytes === 0 || at > end) {
        ctx.problem(`cramfs: bad inode in directory ${prefix || '/'} at ${nameAt - INODE}`);
        return;
      }
      const raw = img.bytes.subarray(nameAt, at);
      const nul = raw.indexOf(0);
      const path = prefix + names.decode(nul < 0 ? raw : raw.subarray(0, nul));
      const kind = unixKind(node.mode);
      const mode = node.mode & 0o7777;
      if (!kind) ctx.problem(`cramfs: ${path} has unknown type bits 0o${(node.mode & 0o170000).toString(8)}`);
      else if (kind === 'dir') {
        yield { path, kind, mode };
        if (depth >= MAX_DEPTH) ctx.problem(`cramfs: ${path} is deeper than ${MAX_DEPTH} levels; not followed`);
        else yield* walk(node, `${path}/`, depth + 1);
      } else if (kind === 'file' || kind === 'symlink') {
        const data = fileData(img, node, ctx, path);
        if (data && kind === 'file') yield { path, kind, mode, data };
        else if (data) yield { path, kind, mode, target: Buffer.from(data).toString('utf8') };
      } else yield { path, kind, mode };
    }
  }

  yield* walk(root, '', 1);
}

/** The CRC-32 mkfs.cramfs stores: from the superblock to the end, with the CRC field itself read as zero. */
function crcMatches(img: Image, superAt: number): boolean {
  const b = img.bytes;
  const crcAt = superAt + 32;
  let c = crc32(b.subarray(superAt, crcAt));
  c = crc32(new Uint8Array(4), c);
  c = crc32(b.subarray(crcAt + 4), c);
  return c >>> 0 === img.u32(crcAt);
}

function probeAt(data: Uint8Array, base: number, superAt: number) {
  if (superAt + SUPERBLOCK > data.length) return null;
  const view = new DataView(data.buffer, data.byteOffset + superAt, SUPERBLOCK);
  const littleEndian = view.getUint32(0, true) === MAGIC;
  if (!littleEndian && view.getUint32(0, false) !== MAGIC) return null;
  if (Buffer.from(data.subarray(superAt + 16, superAt + 32)).toString('latin1') !== SIGNATURE) return null;
  const flags = view.getUint32(8, littleEndian);
  if (flags & ~KNOWN_FLAGS) return null;
  // Version 1 images (before 2001) carry no size: without it there is no extent to claim.
  const size = view.getUint32(4, littleEndian);
  if (!(flags & FLAG_FSID_V2) || size < superAt - base + SUPERBLOCK + INODE) return null;
  const available = data.length - base;
  const img = new Image(data.subarray(base, base + Math.min(size, available)), littleEndian, flags);
  const root = img.inode(superAt - base + 64);
  // The kernel's own test: the root's entries follow the superblock, at 76 or (boot pad) at 588.
  if ((root.mode & 0o170000) !== 0o040000 || (root.size > 0 && root.offset !== superAt - base + SUPERBLOCK))
    return null;
  const truncated = size > available;
  const crcOk = !truncated && crcMatches(img, superAt - base);
  const files = view.getUint32(44, littleEndian);
  return {
    size: img.bytes.length,
    description: `${littleEndian ? 'little' : 'big'}-endian, ${files} files${truncated ? ', truncated' : crcOk ? '' : ', CRC mismatch'}`,
    *entries(ctx: ReadContext): Generator<Entry> {
      if (truncated) ctx.problem(`cramfs: image truncated: ${available} of its ${size} bytes`);
      else if (!crcOk) ctx.problem('cramfs: the image CRC does not match');
      yield* entries(img, root, ctx);
    },
  };
}

export const cramfsFormat: FirmwareFormat = {
  name: 'cramfs',
  magics: [
    { bytes: [0x45, 0x3d, 0xcd, 0x28] },
    { bytes: [0x28, 0xcd, 0x3d, 0x45] },
    { bytes: [0x45, 0x3d, 0xcd, 0x28], at: BOOT_PAD },
    { bytes: [0x28, 0xcd, 0x3d, 0x45], at: BOOT_PAD },
  ],
  probe(data, offset) {
    // A superblock right here, or 512 bytes in behind boot code; either way offsets count from `offset`.
    return probeAt(data, offset, offset) ?? probeAt(data, offset, offset + BOOT_PAD);
  },
};
