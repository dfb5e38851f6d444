// The leaf nodes a UBIFS file is made of: its inode node (mode, size, link count, and inline data: a
// symlink's target, a device's number), the directory entries naming it, and its data nodes, each one
// 4 KiB block compressed on its own. Every node is checked against the key the index gave for it.
import { inflateRaw } from '../../compression/deflate.js';
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import { decodeLzo1x } from '../../compression/lzo.js';
import { decodeZstd } from '../../compression/zstd.js';
import type { NodeRef } from './index-tree.js';
import {
  DATA_NODE,
  DATA_NODE_SIZE,
  DENT_NODE,
  DENT_NODE_SIZE,
  INO_NODE,
  INO_NODE_SIZE,
  keyInum,
  keyRest,
  keyValue,
  le16,
  le32,
  le64,
  nodeAt,
  type Volume,
} from './nodes.js';

/** The most a data node (or an inode's inline data) holds. */
const BLOCK_SIZE = 4096;
const MAX_NAME = 255;
/** Inode flag: the file's names and data are encrypted (fscrypt), with a key the image does not hold. */
export const CRYPT_FL = 0x40;

const COMPR_NONE = 0;
const COMPR_LZO = 1;
const COMPR_ZLIB = 2;
const COMPR_ZSTD = 3;

export interface Inode {
  inum: number;
  mode: number;
  size: number;
  flags: number;
  /** Inline data: a symlink's target, a device's number. */
  inline: Uint8Array;
}

export interface Dirent {
  parent: number;
  name: string;
  inum: number;
  /** UBIFS_ITYPE_*: what the entry names, for an inode whose node is lost. */
  type: number;
}

const names = new TextDecoder('utf-8');

/** The leaf `ref` points at, of `type`: where it starts, or null when it is missing, damaged or not that key. */
function leafAt(vol: Volume, ref: NodeRef, type: number, min: number): number | null {
  const at = vol.at(ref.lnum, ref.offs, ref.len);
  if (at === null || nodeAt(vol.data, at, type, min) !== ref.len) return null;
  return keyInum(vol.data, at + 24) === ref.inum && keyRest(vol.data, at + 24) === ref.rest ? at : null;
}

export function readInode(vol: Volume, ref: NodeRef): Inode | null {
  const at = leafAt(vol, ref, INO_NODE, INO_NODE_SIZE);
  if (at === null) return null;
  const b = vol.data;
  const inlineLength = le32(b, at + 112);
  if (inlineLength > Math.min(BLOCK_SIZE, ref.len - INO_NODE_SIZE)) return null;
  return {
    inum: ref.inum,
    mode: le32(b, at + 104),
    size: le64(b, at + 48),
    flags: le32(b, at + 108),
    inline: b.subarray(at + INO_NODE_SIZE, at + INO_NODE_SIZE + inlineLength),
  };
}

export function readDirent(vol: Volume, ref: NodeRef): Dirent | null {
  const at = leafAt(vol, ref, DENT_NODE, DENT_NODE_SIZE + 2);
  if (at === null) return null;
  const b = vol.data;
  const nameLength = le16(b, at + 50);
  // The name is zero-terminated inside the node; inode numbers are 32-bit in every key.
  if (nameLength === 0 || nameLength > MAX_NAME || DENT_NODE_SIZE + nameLength + 1 > ref.len) return null;
  if (le32(b, at + 44) !== 0) return null;
  const nameAt = at + DENT_NODE_SIZE;
  return {
    parent: ref.inum,
    name: names.decode(b.subarray(nameAt, nameAt + nameLength)),
    inum: le32(b, at + 40),
    type: b[at + 49]!,
  };
}

/** One data node's block, which must decode to exactly `size` bytes. */
function decompress(compr: number, input: Uint8Array, size: number): Uint8Array {
  let out: Uint8Array;
  try {
    if (compr === COMPR_NONE) out = input;
    else if (compr === COMPR_LZO) out = decodeLzo1x(input, size).data;
    // mkfs.ubifs and the kernel's "deflate" both write raw deflate (no zlib header), window 2 KiB.
    else if (compr === COMPR_ZLIB) out = inflateRaw(input, size).data;
    else if (compr === COMPR_ZSTD) out = decodeZstd(input, size).data;
    else throw new DecodeError(`unknown compressor ${compr}`);
  } catch (err) {
    if (err instanceof OutputLimitError) throw new DecodeError(`a block decodes to more than its ${size} bytes`);
    throw err;
  }
  if (out.length !== size) throw new DecodeError(`a block decodes to ${out.length} of its ${size} bytes`);
  return out;
}

/**
 * A regular file's bytes: `size` from its inode, each data node's block at block × 4 KiB, holes (blocks
 * with no node) as zeros. Damaged blocks are left as zeros and counted in one problem.
 */
export function fileBytes(
  vol: Volume,
  inode: Inode,
  blocks: readonly NodeRef[],
  limit: number,
  problem: (m: string) => void,
): Uint8Array {
  if (inode.size > limit) throw new OutputLimitError(limit);
  const out = new Uint8Array(inode.size);
  const b = vol.data;
  let damaged = 0;
  let firstError = '';
  for (const ref of blocks) {
    const offset = keyValue(ref.rest) * BLOCK_SIZE;
    // A block past the end is what a truncation left behind: the kernel never reads it.
    if (offset >= inode.size) continue;
    const at = leafAt(vol, ref, DATA_NODE, DATA_NODE_SIZE);
    const size = at === null ? 0 : le32(b, at + 40);
    try {
      if (at === null || size > BLOCK_SIZE) throw new DecodeError('node damaged or missing');
      const bytes = decompress(le16(b, at + 44), b.subarray(at + DATA_NODE_SIZE, at + ref.len), size);
      out.set(bytes.subarray(0, Math.min(size, inode.size - offset)), offset);
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      damaged++;
      firstError ||= `block ${keyValue(ref.rest)}: ${err.message}`;
    }
  }
  if (damaged) problem(`${damaged} of its data blocks are unreadable, left as zeros (${firstError})`);
  return out;
}
