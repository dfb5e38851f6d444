// The ext2/3/4 superblock: 1024 bytes at byte 1024 of the volume, little-endian. It sizes everything else
// (block size, groups, inode size and count) and lists the features the rest of the reader must honour.
// Every field is checked against the limits mke2fs and the kernel keep, since the magic is only two bytes.

/** Where the superblock sits in the volume, and its magic's offset inside it (0x438 from the start). */
export const SUPERBLOCK_AT = 1024;
export const MAGIC_AT = SUPERBLOCK_AT + 0x38;
export const MAGIC = 0xef53;

export const COMPAT_HAS_JOURNAL = 0x4;
export const INCOMPAT_COMPRESSION = 0x1;
export const INCOMPAT_FILETYPE = 0x2;
export const INCOMPAT_RECOVER = 0x4;
export const INCOMPAT_JOURNAL_DEV = 0x8;
export const INCOMPAT_META_BG = 0x10;
export const INCOMPAT_EXTENTS = 0x40;
export const INCOMPAT_64BIT = 0x80;
export const INCOMPAT_FLEX_BG = 0x200;
export const INCOMPAT_DIRDATA = 0x1000;
export const INCOMPAT_LARGEDIR = 0x4000;
export const INCOMPAT_INLINE_DATA = 0x8000;
export const INCOMPAT_ENCRYPT = 0x10000;
export const RO_COMPAT_SPARSE_SUPER = 0x1;
export const RO_COMPAT_GDT_CSUM = 0x10;
export const RO_COMPAT_BIGALLOC = 0x200;
export const RO_COMPAT_METADATA_CSUM = 0x400;

/** Block sizes 1 KiB (log 0) to 64 KiB (log 6), the range the kernel mounts. */
const MAX_LOG_BLOCK_SIZE = 6;
/** Revision 0 (ext2 of the 1990s) has fixed 128-byte inodes. */
const GOOD_OLD_INODE_SIZE = 128;
/** 64-bit descriptors are 64 to 1024 bytes, a power of two (e2fsprogs' check). */
const MIN_DESC_SIZE_64 = 64;
const MAX_DESC_SIZE = 1024;
const DESC_SIZE_32 = 32;

export interface Superblock {
  blockSize: number;
  /** Blocks the volume spans (blocks_count, 64-bit with INCOMPAT_64BIT). */
  blocksCount: number;
  firstDataBlock: number;
  blocksPerGroup: number;
  inodesPerGroup: number;
  inodesCount: number;
  inodeSize: number;
  groupCount: number;
  descSize: number;
  firstMetaBg: number;
  compat: number;
  incompat: number;
  roCompat: number;
  revision: number;
  volumeName: string;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** The superblock of a volume starting at `offset`, or null when its fields are not a sane ext volume. */
export function readSuperblock(data: Uint8Array, offset: number): Superblock | null {
  const at = offset + SUPERBLOCK_AT;
  if (offset < 0 || at + 1024 > data.length) return null;
  const v = new DataView(data.buffer, data.byteOffset + at, 1024);
  const u16 = (o: number) => v.getUint16(o, true);
  const u32 = (o: number) => v.getUint32(o, true);
  if (u16(0x38) !== MAGIC) return null;
  const logBlockSize = u32(0x18);
  if (logBlockSize > MAX_LOG_BLOCK_SIZE) return null;
  const blockSize = 1024 << logBlockSize;
  const incompat = u32(0x60);
  const revision = u32(0x4c);
  if (revision > 1) return null;
  const is64 = (incompat & INCOMPAT_64BIT) !== 0;
  const blocksCount = u32(0x04) + (is64 ? u32(0x150) * 2 ** 32 : 0);
  const firstDataBlock = u32(0x14);
  const blocksPerGroup = u32(0x20);
  const inodesPerGroup = u32(0x28);
  const inodesCount = u32(0x00);
  const inodeSize = revision === 0 ? GOOD_OLD_INODE_SIZE : u16(0x58);
  const descSize = is64 ? u16(0xfe) : DESC_SIZE_32;
  // A bitmap is one block, so a group holds at most 8 × block size clusters (blocks, unless bigalloc
  // allocates in clusters of 2^n blocks) and as many inodes.
  const bitsPerBlock = 8 * blockSize;
  const roCompat = u32(0x64);
  const logClusterSize = u32(0x1c);
  const bigalloc = (roCompat & RO_COMPAT_BIGALLOC) !== 0;
  if (bigalloc && (logClusterSize < logBlockSize || logClusterSize > 29)) return null;
  const clusterRatio = bigalloc ? 2 ** (logClusterSize - logBlockSize) : 1;
  if (blocksPerGroup === 0 || blocksPerGroup > bitsPerBlock * clusterRatio) return null;
  if (bigalloc && u32(0x24) * clusterRatio !== blocksPerGroup) return null;
  if (inodesPerGroup === 0 || inodesPerGroup > bitsPerBlock) return null;
  if (inodeSize < GOOD_OLD_INODE_SIZE || inodeSize > blockSize || !isPowerOfTwo(inodeSize)) return null;
  if (is64 && (descSize < MIN_DESC_SIZE_64 || descSize > MAX_DESC_SIZE || !isPowerOfTwo(descSize))) return null;
  // 1 KiB volumes start at block 1 (block 0 holds the boot sector and the superblock); larger ones at 0.
  if (firstDataBlock > 1 || firstDataBlock >= blocksCount) return null;
  // Byte offsets stay exact doubles (2^53), which also caps what a hostile blocks_count can claim.
  if (blocksCount * blockSize > Number.MAX_SAFE_INTEGER) return null;
  const groupCount = Math.ceil((blocksCount - firstDataBlock) / blocksPerGroup);
  if (inodesCount === 0 || inodesCount > groupCount * inodesPerGroup) return null;
  const name = data.subarray(at + 0x78, at + 0x88);
  const nul = name.indexOf(0);
  return {
    blockSize,
    blocksCount,
    firstDataBlock,
    blocksPerGroup,
    inodesPerGroup,
    inodesCount,
    inodeSize,
    groupCount,
    descSize,
    firstMetaBg: u32(0x104),
    compat: u32(0x5c),
    incompat,
    roCompat,
    revision,
    volumeName: Buffer.from(nul < 0 ? name : name.subarray(0, nul)).toString('latin1'),
  };
}

/** A short description: the version the features suggest, block size, inode count, volume name. */
export function describe(sb: Superblock): string {
  const version =
    sb.incompat & (INCOMPAT_EXTENTS | INCOMPAT_64BIT | INCOMPAT_FLEX_BG | INCOMPAT_INLINE_DATA)
      ? 'ext4'
      : sb.compat & COMPAT_HAS_JOURNAL
        ? 'ext3'
        : 'ext2';
  const name = sb.volumeName ? `, volume "${sb.volumeName}"` : '';
  return `${version}, ${sb.blockSize >> 10} KiB blocks, ${sb.blocksCount} blocks, ${sb.inodesCount} inodes${name}`;
}
