// A directory's listing in the directory table: runs of entries, each run under a 12-byte header (entry
// count - 1, the inode table block its entries' inodes sit in, a base inode number), each entry 8 bytes
// (offset in that block, inode number delta, basic type, name length - 1) and its name.
import { DecodeError } from '../../compression/errors.js';
import type { DirInode } from './inodes.js';
import type { MetadataTable } from './metadata.js';
import type { EndianView } from './view.js';

const HEADER_SIZE = 12;
const ENTRY_SIZE = 8;
/** mksquashfs starts a new header every 256 entries (SQUASHFS_DIR_COUNT). */
const MAX_RUN = 256;
const names = new TextDecoder('utf-8');

export interface DirEntry {
  name: string;
  /** Its inode's reference: block (from the inode table's start) << 16 | offset. */
  inode: number;
}

/** The entries of a directory, in the listing's (sorted) order. */
export function readListing(table: MetadataTable, view: EndianView, dir: DirInode): DirEntry[] {
  if (dir.listingSize === 0) return [];
  const b = view.over(table.read({ ...dir.listing }, dir.listingSize));
  const entries: DirEntry[] = [];
  let at = 0;
  while (at < b.length) {
    const count = b.u32(at) + 1;
    const block = b.u32(at + 4);
    if (count > MAX_RUN) throw new DecodeError(`squashfs: directory run of ${count} entries`);
    at += HEADER_SIZE;
    for (let i = 0; i < count; i++) {
      const nameSize = b.u16(at + 6) + 1;
      const nameAt = at + ENTRY_SIZE;
      if (nameAt + nameSize > b.length) throw new DecodeError('squashfs: directory entry name past its listing');
      entries.push({
        name: names.decode(b.bytes.subarray(nameAt, nameAt + nameSize)),
        inode: block * 0x10000 + b.u16(at),
      });
      at = nameAt + nameSize;
    }
  }
  return entries;
}
