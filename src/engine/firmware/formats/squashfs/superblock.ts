// The 96-byte SquashFS 4.0 superblock (squashfs_fs.h, struct squashfs_super_block): where each table
// starts, the block size and the compressor. Checked hard here, because the magic alone is a weak sign.
import { COMPRESSORS } from './compressors.js';
import { EndianView } from './view.js';

export const SUPERBLOCK_SIZE = 96;
/** Magic `hsqs` (little endian) and `sqsh` (big endian), as bytes. */
export const MAGIC_LE = [0x68, 0x73, 0x71, 0x73] as const;
export const MAGIC_BE = [0x73, 0x71, 0x73, 0x68] as const;
/** mksquashfs pads an image to 4 KiB with zeros (unless -nopad), so the chunk ends there. */
const PAD = 4096;
const MIN_BLOCK_LOG = 12;
const MAX_BLOCK_LOG = 20;
/** A metadata block holds 8 KiB once decoded (SQUASHFS_METADATA_SIZE). */
export const METADATA_SIZE = 8192;
const ID_SIZE = 4;
export const FRAGMENT_ENTRY_SIZE = 16;

export interface Superblock {
  littleEndian: boolean;
  inodeCount: number;
  blockSize: number;
  fragmentCount: number;
  compression: number;
  idCount: number;
  /** Reference to the root directory's inode: metadata block (from the inode table) << 16 | offset. */
  rootInode: number;
  bytesUsed: number;
  idTableStart: number;
  xattrTableStart: number;
  inodeTableStart: number;
  directoryTableStart: number;
  fragmentTableStart: number;
  exportTableStart: number;
}

/** Index entries (one u64 per metadata block) a lookup table of `count` entries of `size` bytes has. */
export const indexLength = (count: number, size: number): number => Math.ceil((count * size) / METADATA_SIZE);

/** The superblock at `offset`, or null when the bytes there are not a consistent SquashFS 4.0 image. */
export function readSuperblock(data: Uint8Array, offset: number): Superblock | null {
  if (offset < 0 || data.length - offset < SUPERBLOCK_SIZE) return null;
  const head = data.subarray(offset, offset + 4);
  const littleEndian = MAGIC_LE.every((b, i) => head[i] === b);
  if (!littleEndian && !MAGIC_BE.every((b, i) => head[i] === b)) return null;
  const v = new EndianView(data.subarray(offset, offset + SUPERBLOCK_SIZE), littleEndian);
  const sb: Superblock = {
    littleEndian,
    inodeCount: v.u32(4),
    blockSize: v.u32(12),
    fragmentCount: v.u32(16),
    compression: v.u16(20),
    idCount: v.u16(26),
    rootInode: v.u64(32),
    bytesUsed: v.u64(40),
    idTableStart: v.u64(48),
    xattrTableStart: v.u64(56),
    inodeTableStart: v.u64(64),
    directoryTableStart: v.u64(72),
    fragmentTableStart: v.u64(80),
    exportTableStart: v.u64(88),
  };
  const blockLog = v.u16(22);
  if (v.u16(28) !== 4 || v.u16(30) !== 0) return null;
  if (blockLog < MIN_BLOCK_LOG || blockLog > MAX_BLOCK_LOG || sb.blockSize !== 2 ** blockLog) return null;
  if (!COMPRESSORS[sb.compression] || sb.inodeCount === 0 || sb.idCount === 0) return null;
  const used = sb.bytesUsed;
  if (used < SUPERBLOCK_SIZE || offset + used > data.length) return null;
  if (sb.inodeTableStart < SUPERBLOCK_SIZE || sb.directoryTableStart <= sb.inodeTableStart) return null;
  if (sb.directoryTableStart > used) return null;
  if (sb.idTableStart + 8 * indexLength(sb.idCount, ID_SIZE) > used) return null;
  const fragmentIndex = 8 * indexLength(sb.fragmentCount, FRAGMENT_ENTRY_SIZE);
  if (sb.fragmentCount > 0 && sb.fragmentTableStart + fragmentIndex > used) return null;
  const rootBlock = Math.floor(sb.rootInode / 0x10000);
  if (sb.rootInode % 0x10000 >= METADATA_SIZE || sb.inodeTableStart + rootBlock >= sb.directoryTableStart) return null;
  return sb;
}

/** The chunk's extent: bytes_used, or up to the next 4 KiB when the zero padding mksquashfs adds is there. */
export function chunkSize(data: Uint8Array, offset: number, sb: Superblock): number {
  const padded = Math.ceil(sb.bytesUsed / PAD) * PAD;
  if (offset + padded > data.length) return sb.bytesUsed;
  for (let i = offset + sb.bytesUsed; i < offset + padded; i++) if (data[i] !== 0) return sb.bytesUsed;
  return padded;
}

/**
 * Where the directory table ends: the next table after it (fragments, exports, ids, xattrs, whichever
 * comes first), else bytes_used. Lookup tables keep their metadata blocks before their index, so this
 * bound may take in a few of those blocks; it only keeps reads inside the image's tables.
 */
export function directoryTableEnd(sb: Superblock): number {
  let end = sb.bytesUsed;
  for (const start of [sb.fragmentTableStart, sb.exportTableStart, sb.idTableStart, sb.xattrTableStart])
    if (start > sb.directoryTableStart && start < end) end = start;
  return end;
}
