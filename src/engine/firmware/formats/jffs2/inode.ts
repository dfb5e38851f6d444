// One JFFS2 inode from its data nodes: the newest node's mode and size rule, and the file's bytes are the
// nodes' data laid down oldest version first, so newer writes cover older ones and holes stay zero.
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { ReadContext } from '../../format.js';
import { decompressNode } from './compressors.js';
import { INODE_HEADER, jffs2Crc, type Fields, type InodeRef } from './nodes.js';

export interface Inode {
  /** Its data nodes, oldest version first (equal versions keep their order in the image). */
  refs: InodeRef[];
  /** st_mode of the newest node: type and permission bits. */
  mode: number;
  /** File size of the newest node. */
  isize: number;
}

export function inodeOf(f: Fields, refs: InodeRef[]): Inode {
  refs.sort((a, b) => a.version - b.version);
  const newest = refs[refs.length - 1]!.at;
  return { refs, mode: f.u32(newest + 20), isize: f.u32(newest + 28) };
}

/**
 * The inode's bytes. A node whose size is below what earlier nodes wrote is a truncation: the bytes past it
 * go back to zero, as they read after a truncate and a later extension. A node with a bad data CRC or that
 * does not decode is left out (a problem), as the kernel leaves it out.
 */
export function inodeData(f: Fields, inode: Inode, ctx: ReadContext, path: string): Uint8Array {
  const size = inode.isize;
  if (size > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
  const out = new Uint8Array(size);
  let extent = 0;
  for (const { at } of inode.refs) {
    const isize = f.u32(at + 28);
    if (isize < extent) {
      out.fill(0, Math.min(isize, size), Math.min(extent, size));
      extent = isize;
    }
    const offset = f.u32(at + 44);
    const dsize = f.u32(at + 52);
    if (dsize === 0 || offset >= size) continue;
    // The scan checked that csize fits in the node.
    const stored = f.data.subarray(at + INODE_HEADER, at + INODE_HEADER + f.u32(at + 48));
    if (jffs2Crc(stored) !== f.u32(at + 60)) {
      ctx.problem(`jffs2: ${path}: data node at ${at} fails its data CRC`);
      continue;
    }
    if (dsize > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
    let bytes: Uint8Array;
    try {
      bytes = decompressNode(f.data[at + 56]!, stored, dsize);
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      ctx.problem(`jffs2: ${path}: data node at ${at}: ${err.message}`);
      continue;
    }
    const n = Math.min(dsize, size - offset);
    out.set(n === dsize ? bytes : bytes.subarray(0, n), offset);
    extent = Math.max(extent, offset + dsize);
  }
  return out;
}
