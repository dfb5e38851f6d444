// What an inode holds: a regular file's bytes, a symlink's target, a directory's blocks. Data lives in
// blocks found through an extent tree or a block map, inline in the inode (inline_data: i_block's 60 bytes
// then the system.data attribute), or for short symlinks in i_block itself. Holes and uninitialised
// extents read as zeros; a file in one contiguous run is returned as a view of the image, not copied.
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import { blockMapRuns } from './block-map.js';
import { extentRuns } from './extents.js';
import { FLAG_EXTENTS, FLAG_INLINE_DATA, I_BLOCK_SIZE, iBlock, inlineOverflow, type Inode } from './inodes.js';
import { Runs } from './runs.js';
import type { Volume } from './volume.js';

/** The kernel caps a symlink's target at one block; PATH_MAX (4096) in practice. */
const MAX_TARGET_BLOCK = 1;
const utf8 = new TextDecoder('utf-8');

/** The runs mapping logical blocks [0, ceil(size / block size)) of a block-backed inode. */
export function dataRuns(vol: Volume, inode: Inode, size: number): Runs {
  const runs = new Runs();
  const limit = Math.ceil(size / vol.blockSize);
  if (inode.flags & FLAG_EXTENTS) extentRuns(vol, iBlock(inode), limit, runs);
  else blockMapRuns(vol, iBlock(inode), limit, runs);
  return runs;
}

/**
 * The first `size` bytes of an inline inode: i_block, then the overflow attribute, then zeros. mke2fs -d
 * leaves an all-zero file inline with nothing stored, and the kernel reads past the inline bytes as zeros.
 */
function inlineBytes(inode: Inode, size: number): Uint8Array {
  if (size <= I_BLOCK_SIZE) return iBlock(inode).subarray(0, size);
  const overflow = inlineOverflow(inode);
  const out = new Uint8Array(size);
  out.set(iBlock(inode));
  out.set(overflow.subarray(0, size - I_BLOCK_SIZE), I_BLOCK_SIZE);
  return out;
}

/** A regular file's bytes; OutputLimitError when its size passes what the task may still write. */
export function fileBytes(vol: Volume, inode: Inode): Uint8Array {
  const { size } = inode;
  const limit = vol.ctx.remaining();
  if (size > limit) throw new OutputLimitError(limit);
  if (inode.flags & FLAG_INLINE_DATA) return inlineBytes(inode, size);
  return assemble(vol, dataRuns(vol, inode, size), size);
}

function assemble(vol: Volume, runs: Runs, size: number): Uint8Array {
  const bs = vol.blockSize;
  if (runs.length === 1 && runs.logical[0] === 0 && !runs.zeroed[0] && runs.count[0]! * bs >= size) {
    const at = runs.physical[0]! * bs;
    return vol.bytes.subarray(at, at + size);
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < runs.length; i++) {
    if (runs.zeroed[i]) continue;
    const to = runs.logical[i]! * bs;
    const length = Math.min(runs.count[i]! * bs, size - to);
    const from = runs.physical[i]! * bs;
    out.set(vol.bytes.subarray(from, from + length), to);
  }
  return out;
}

/** A symlink's target: inline, in i_block (fast symlinks, under 60 bytes), or in its one data block. */
export function symlinkTarget(vol: Volume, inode: Inode): string {
  const { size } = inode;
  if (size > MAX_TARGET_BLOCK * vol.blockSize)
    throw new DecodeError(`ext: inode ${inode.number}: symlink target of ${size} bytes`);
  if (inode.flags & FLAG_INLINE_DATA) return utf8.decode(inlineBytes(inode, size));
  if (size < I_BLOCK_SIZE) return utf8.decode(iBlock(inode).subarray(0, size));
  return utf8.decode(assemble(vol, dataRuns(vol, inode, size), size));
}
