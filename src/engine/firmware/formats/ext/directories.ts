// Directory listings: records of inode (u32), record length (u16), name length (u8) and file type (u8, or
// the name length's high byte before the filetype feature), then the name. Records tile each block; an
// inode of 0 is an unused slot. Hashed (htree) directories are read the same way: their index blocks look
// like one empty record spanning the block, and the root's index hides inside ".."'s record. With
// metadata_csum each block ends in a 12-byte record of inode 0 holding the checksum: skipped alike.
import { DecodeError } from '../../compression/errors.js';
import { dataRuns } from './contents.js';
import { FLAG_INLINE_DATA, I_BLOCK_SIZE, iBlock, inlineOverflow, type Inode } from './inodes.js';
import { INCOMPAT_FILETYPE } from './superblock.js';
import type { Volume } from './volume.js';

export interface DirEntry {
  name: string;
  inode: number;
}

const RECORD_HEADER = 8;
/** An inline directory's i_block starts with its parent's inode number. */
const INLINE_PARENT = 4;
/** 64 KiB blocks do not fit a u16 record length: the kernel stores 65535 (or 0) for a whole block. */
const BIG_BLOCK = 65536;
const utf8 = new TextDecoder('utf-8');

/** Record lengths as stored, decoded for 64 KiB blocks (low two bits carry bits 16–17 of the length). */
function recordLength(stored: number, blockSize: number): number {
  if (blockSize < BIG_BLOCK) return stored;
  if (stored === 0xffff || stored === 0) return BIG_BLOCK;
  return (stored & 0xfffc) | ((stored & 3) << 16);
}

/**
 * Reads directories, counting the bytes every listing claims (its size, charged before its blocks are
 * mapped): in a sound volume each directory block belongs to one directory, so more than the volume's
 * bytes means sizes that lie or blocks shared by many directories (a hostile image). Then every further
 * listing fails, and the walk stops rather than map and read the same blocks over and over.
 */
export class DirectoryReader {
  private bytesClaimed = 0;
  private readonly fileType: boolean;

  constructor(private readonly vol: Volume) {
    this.fileType = (vol.sb.incompat & INCOMPAT_FILETYPE) !== 0;
  }

  /** Whether listings have claimed more than the volume holds (every listing from now on fails). */
  get exhausted(): boolean {
    return this.bytesClaimed > this.vol.bytes.length;
  }

  /** The entries of directory `dir` but "." and "..", in stored order; damage in a block is a problem. */
  list(dir: Inode, path: string): DirEntry[] {
    const claimed = Math.ceil(dir.size / this.vol.blockSize) * this.vol.blockSize;
    if (claimed > this.vol.bytes.length) throw new DecodeError(`ext: directory of ${dir.size} bytes`);
    this.bytesClaimed += claimed;
    if (this.exhausted)
      throw new DecodeError(`ext: directories claim more than the volume's ${this.vol.bytes.length} bytes`);
    const out: DirEntry[] = [];
    if (dir.flags & FLAG_INLINE_DATA) {
      const inIBlock = Math.min(I_BLOCK_SIZE, Math.max(dir.size, INLINE_PARENT));
      this.records(iBlock(dir).subarray(INLINE_PARENT, inIBlock), out, path);
      if (dir.size > I_BLOCK_SIZE) this.records(inlineOverflow(dir), out, path);
      return out;
    }
    const bs = this.vol.blockSize;
    const runs = dataRuns(this.vol, dir, dir.size);
    for (let i = 0; i < runs.length; i++) {
      if (runs.zeroed[i]) continue;
      const run = this.vol.blocks(runs.physical[i]!, runs.count[i]!);
      for (let at = 0; at < run.length; at += bs) this.records(run.subarray(at, at + bs), out, path);
    }
    return out;
  }

  private records(region: Uint8Array, out: DirEntry[], path: string): void {
    const v = new DataView(region.buffer, region.byteOffset, region.byteLength);
    for (let at = 0; at + RECORD_HEADER <= region.length;) {
      const inode = v.getUint32(at, true);
      const length = recordLength(v.getUint16(at + 4, true), this.vol.blockSize);
      const nameLength = this.fileType ? region[at + 6]! : v.getUint16(at + 6, true);
      if (length < RECORD_HEADER || length % 4 || at + length > region.length || RECORD_HEADER + nameLength > length) {
        this.vol.ctx.problem(`ext: ${path || '/'}: directory record at ${at} is damaged; rest of its block skipped`);
        return;
      }
      if (inode !== 0 && nameLength > 0) {
        const raw = region.subarray(at + RECORD_HEADER, at + RECORD_HEADER + nameLength);
        const dots = raw[0] === 0x2e && (nameLength === 1 || (nameLength === 2 && raw[1] === 0x2e));
        if (!dots) out.push({ name: utf8.decode(raw), inode });
      }
      at += length;
    }
  }
}
