// One ext volume being read: its bytes (block numbers count from its first byte), its superblock, and the
// group descriptors that say where each group's inode table is. Every block and inode read goes through
// here and is checked against blocks_count and the bytes actually there.
import { DecodeError } from '../../compression/errors.js';
import type { ReadContext } from '../../format.js';
import {
  INCOMPAT_64BIT,
  INCOMPAT_META_BG,
  RO_COMPAT_GDT_CSUM,
  RO_COMPAT_METADATA_CSUM,
  RO_COMPAT_SPARSE_SUPER,
  type Superblock,
} from './superblock.js';

/** bg_flags: the group's inode table was never written (valid only when descriptors are checksummed). */
const BG_INODE_UNINIT = 0x1;

/** With sparse_super, backups of the superblock and descriptors sit in groups 0, 1 and powers of 3, 5, 7. */
function hasSuperBackup(group: number, sparse: boolean): boolean {
  if (!sparse || group <= 1) return true;
  for (const base of [3, 5, 7]) {
    let n = base;
    while (n < group) n *= base;
    if (n === group) return true;
  }
  return false;
}

export class Volume {
  private readonly view: DataView;
  readonly blockSize: number;
  private readonly descPerBlock: number;
  private readonly checksummed: boolean;

  constructor(
    readonly bytes: Uint8Array,
    readonly sb: Superblock,
    readonly ctx: ReadContext,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.blockSize = sb.blockSize;
    this.descPerBlock = sb.blockSize / sb.descSize;
    this.checksummed = (sb.roCompat & (RO_COMPAT_GDT_CSUM | RO_COMPAT_METADATA_CSUM)) !== 0;
  }

  private u16 = (at: number) => this.view.getUint16(at, true);
  private u32 = (at: number) => this.view.getUint32(at, true);

  /** Whether blocks [first, first + count) lie inside the volume and its bytes; otherwise why not. */
  blocksProblem(first: number, count: number): string | null {
    if (first + count > this.sb.blocksCount) return `blocks ${first}+${count} past blocks_count ${this.sb.blocksCount}`;
    if ((first + count) * this.blockSize > this.bytes.length)
      return `blocks ${first}+${count} past the end of the data (truncated image)`;
    return null;
  }

  /** The bytes of `count` blocks from block `first`; DecodeError when they are not all there. */
  blocks(first: number, count = 1): Uint8Array {
    const problem = this.blocksProblem(first, count);
    if (problem) throw new DecodeError(`ext: ${problem}`);
    return this.bytes.subarray(first * this.blockSize, (first + count) * this.blockSize);
  }

  /** Byte offset of group `g`'s descriptor: in the table after the superblock, or per meta group (meta_bg). */
  private descriptorAt(group: number): number {
    const { sb } = this;
    const index = Math.floor(group / this.descPerBlock);
    // The superblock's own block: 1 with 1 KiB blocks (even when bigalloc starts the groups at block 0).
    const superBlock = this.blockSize === 1024 ? 1 : 0;
    let block: number;
    if (!(sb.incompat & INCOMPAT_META_BG) || index < sb.firstMetaBg) block = superBlock + 1 + index;
    else {
      // A meta group's descriptors fill one block at the start of its first group, after any superblock copy
      // (in group 0, after the superblock's block wherever the group starts).
      const first = index * this.descPerBlock;
      const firstBlock = sb.firstDataBlock + first * sb.blocksPerGroup;
      const backup = hasSuperBackup(first, (sb.roCompat & RO_COMPAT_SPARSE_SUPER) !== 0) ? 1 : 0;
      block = first === 0 ? superBlock + 1 : firstBlock + backup;
    }
    const at = block * this.blockSize + (group % this.descPerBlock) * sb.descSize;
    if (this.blocksProblem(block, 1)) throw new DecodeError(`ext: descriptor of group ${group}: block ${block} absent`);
    return at;
  }

  /** Inode `n`'s bytes (inode_size of them). Numbers start at 1; the root directory is 2. */
  inode(n: number): Uint8Array {
    const { sb } = this;
    if (!Number.isInteger(n) || n < 1 || n > sb.inodesCount) throw new DecodeError(`ext: inode ${n} out of range`);
    const group = Math.floor((n - 1) / sb.inodesPerGroup);
    const index = (n - 1) % sb.inodesPerGroup;
    const desc = this.descriptorAt(group);
    const wide = (sb.incompat & INCOMPAT_64BIT) !== 0;
    const table = this.u32(desc + 8) + (wide ? this.u32(desc + 0x28) * 2 ** 32 : 0);
    if (this.checksummed && this.u16(desc + 0x12) & BG_INODE_UNINIT)
      throw new DecodeError(`ext: inode ${n} lies in group ${group}, whose inode table is uninitialised`);
    const at = table * this.blockSize + index * sb.inodeSize;
    const tableBlocks = Math.ceil((sb.inodesPerGroup * sb.inodeSize) / this.blockSize);
    if (table + tableBlocks > sb.blocksCount)
      throw new DecodeError(`ext: inode table of group ${group} at block ${table} runs past blocks_count`);
    if (at + sb.inodeSize > this.bytes.length) throw new DecodeError(`ext: inode ${n} past the end of the data`);
    return this.bytes.subarray(at, at + sb.inodeSize);
  }
}
