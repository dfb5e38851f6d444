// Inodes (squashfs_fs.h): a 16-byte header (type, permissions, uid/gid indexes, mtime, number) then a
// body per type. Types 1–7 are the basic forms, 8–14 the extended ones (64-bit sizes, link counts, an
// xattr index); the walk needs the same things from both.
import { DecodeError } from '../../compression/errors.js';
import type { EntryKind } from '../../format.js';
import type { MetadataTable, Position } from './metadata.js';
import type { EndianView } from './view.js';

const HEADER_SIZE = 16;
/** fragment_block_index of a file with no tail in a fragment (SQUASHFS_INVALID_FRAG). */
export const NO_FRAGMENT = 0xffffffff;
/** Longer than any PATH_MAX (4096): a symlink claiming more is damage, not a target. */
const MAX_SYMLINK = 65536;
/** Bytes a directory inode's file_size counts beyond its listing (for `.` and `..`). */
const DIR_SIZE_EXTRA = 3;

export interface DirInode {
  kind: 'dir';
  mode: number;
  /** Where its listing starts in the directory table, and its length in bytes. */
  listing: Position;
  listingSize: number;
}

export interface FileInode {
  kind: 'file';
  mode: number;
  /** Image offset of its first data block; the others follow, sparse ones taking no bytes. */
  blocksStart: number;
  fileSize: number;
  fragment: number;
  fragmentOffset: number;
  /** Where its block-size words start in the inode table, and how many there are. */
  blockList: Position;
  blockCount: number;
}

export interface LinkInode {
  kind: 'symlink';
  mode: number;
  target: Uint8Array;
}

export interface SpecialInode {
  kind: Exclude<EntryKind, 'file' | 'dir' | 'symlink' | 'hardlink'>;
  mode: number;
}

export type Inode = DirInode | FileInode | LinkInode | SpecialInode;

const BASIC_KINDS = ['dir', 'file', 'symlink', 'device', 'device', 'fifo', 'socket'] as const;
const EXTENDED = 7;

/** The inode `ref` points at: metadata block (from the inode table's start) << 16 | offset in it. */
export function readInode(table: MetadataTable, view: EndianView, ref: number, blockSize: number): Inode {
  const pos: Position = { block: Math.floor(ref / 0x10000), offset: ref % 0x10000 };
  const header = view.over(table.read(pos, HEADER_SIZE));
  const type = header.u16(0);
  if (type < 1 || type > 2 * EXTENDED) throw new DecodeError(`squashfs: inode type ${type} at ${ref}`);
  const extended = type > EXTENDED;
  const kind = BASIC_KINDS[(type - 1) % EXTENDED]!;
  // Permission bits only: the kind says the rest (as the other readers give `mode`).
  const mode = header.u16(2) & 0o7777;
  switch (kind) {
    case 'dir': {
      // basic: start_block, nlink, u16 file_size, offset, parent; extended: nlink, u32 file_size,
      // start_block, parent, index count, offset, xattr (its index entries follow; the walk needs none).
      const b = view.over(table.read(pos, extended ? 24 : 16));
      const fileSize = extended ? b.u32(4) : b.u16(8);
      if (fileSize < DIR_SIZE_EXTRA) throw new DecodeError(`squashfs: directory inode ${ref} of size ${fileSize}`);
      const listing = extended ? { block: b.u32(8), offset: b.u16(18) } : { block: b.u32(0), offset: b.u16(10) };
      return { kind, mode, listing, listingSize: fileSize - DIR_SIZE_EXTRA };
    }
    case 'file': {
      // basic: u32 start, fragment, offset, u32 size; extended: u64 start, u64 size, sparse, nlink,
      // fragment, offset, xattr. The block-size words follow either.
      const b = view.over(table.read(pos, extended ? 40 : 16));
      const file = extended
        ? { blocksStart: b.u64(0), fileSize: b.u64(8), fragment: b.u32(28), fragmentOffset: b.u32(32) }
        : { blocksStart: b.u32(0), fileSize: b.u32(12), fragment: b.u32(4), fragmentOffset: b.u32(8) };
      const whole = file.fileSize / blockSize;
      const blockCount = file.fragment === NO_FRAGMENT ? Math.ceil(whole) : Math.floor(whole);
      return { kind, mode, ...file, blockList: { ...pos }, blockCount };
    }
    case 'symlink': {
      // nlink, target size, the target (an extended one's xattr index follows it).
      const size = view.over(table.read(pos, 8)).u32(4);
      if (size > MAX_SYMLINK) throw new DecodeError(`squashfs: symlink inode ${ref} claims a ${size}-byte target`);
      return { kind, mode, target: table.read(pos, size) };
    }
    default:
      // Devices (nlink, device number), fifos and sockets (nlink): nothing an entry carries.
      return { kind, mode };
  }
}
