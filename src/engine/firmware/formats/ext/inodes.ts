// An ext inode: 128 bytes every revision has (mode, size, flags, the 60-byte i_block that holds a block
// map, an extent tree root, a fast symlink's target or inline data), then with larger inodes the extra
// fields and the in-inode extended attributes, where inline_data keeps what does not fit in i_block.
import { DecodeError } from '../../compression/errors.js';
import { type EntryKind, unixKind } from '../../format.js';
import type { Volume } from './volume.js';

export const FLAG_EXTENTS = 0x80000;
export const FLAG_INLINE_DATA = 0x10000000;
/** i_block: 15 four-byte words (12 direct, indirect, double, triple; or an extent tree root). */
export const I_BLOCK_AT = 0x28;
export const I_BLOCK_SIZE = 60;

const BASE_INODE_SIZE = 128;
/** In-inode attributes: a 4-byte magic, then entries of 16 bytes + name (padded to 4), ended by 4 zeros. */
const XATTR_MAGIC = 0xea020000;
const XATTR_ENTRY = 16;
/** The "system." prefix's index, under which inline_data stores its overflow as "data". */
const XATTR_INDEX_SYSTEM = 7;
const DATA_NAME = [0x64, 0x61, 0x74, 0x61];

export interface Inode {
  number: number;
  kind: EntryKind;
  /** Permission bits (the kind says the type). */
  mode: number;
  size: number;
  flags: number;
  /** The inode's bytes; i_block is at I_BLOCK_AT. */
  raw: Uint8Array;
}

/** Inode `n`, or DecodeError when it is free (mode 0 or no links) or of no known type. */
export function readInode(vol: Volume, n: number): Inode {
  const raw = vol.inode(n);
  const v = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const mode = v.getUint16(0, true);
  if (mode === 0 || v.getUint16(0x1a, true) === 0) throw new DecodeError(`ext: inode ${n} is not in use`);
  const kind = unixKind(mode);
  if (!kind) throw new DecodeError(`ext: inode ${n} has unknown type bits 0o${(mode & 0o170000).toString(8)}`);
  return {
    number: n,
    kind,
    mode: mode & 0o7777,
    size: v.getUint32(4, true) + v.getUint32(0x6c, true) * 2 ** 32,
    flags: v.getUint32(0x20, true),
    raw,
  };
}

export const iBlock = (inode: Inode) => inode.raw.subarray(I_BLOCK_AT, I_BLOCK_AT + I_BLOCK_SIZE);

/**
 * The value of the in-inode attribute system.data: the bytes of an inline file or directory past the first
 * 60 (empty when there is no such attribute). DecodeError when the attribute area is inconsistent.
 */
export function inlineOverflow(inode: Inode): Uint8Array {
  const { raw } = inode;
  if (raw.length <= BASE_INODE_SIZE) return raw.subarray(0, 0);
  const v = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const extra = v.getUint16(BASE_INODE_SIZE, true);
  const header = BASE_INODE_SIZE + extra;
  if (extra % 4 || header + 4 > raw.length || v.getUint32(header, true) !== XATTR_MAGIC) return raw.subarray(0, 0);
  const first = header + 4;
  // Each entry takes at least 16 bytes, so the walk ends within the inode whatever the names claim.
  for (let at = first; at + XATTR_ENTRY <= raw.length && v.getUint32(at, true) !== 0;) {
    const nameLength = raw[at]!;
    const next = at + ((XATTR_ENTRY + nameLength + 3) & ~3);
    if (next > raw.length) break;
    if (
      raw[at + 1] === XATTR_INDEX_SYSTEM &&
      nameLength === DATA_NAME.length &&
      DATA_NAME.every((c, i) => raw[at + XATTR_ENTRY + i] === c)
    ) {
      if (v.getUint32(at + 4, true) !== 0)
        throw new DecodeError(`ext: inode ${inode.number}: inline data kept in another inode`);
      const valueAt = first + v.getUint16(at + 2, true);
      const valueSize = v.getUint32(at + 8, true);
      if (valueAt + valueSize > raw.length)
        throw new DecodeError(`ext: inode ${inode.number}: inline data attribute runs past the inode`);
      return raw.subarray(valueAt, valueAt + valueSize);
    }
    at = next;
  }
  return raw.subarray(0, 0);
}
