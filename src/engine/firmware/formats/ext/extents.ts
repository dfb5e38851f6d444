// ext4 extent trees: a 12-byte header (magic 0xF30A, entries, max, depth) then 12-byte entries; index
// entries (depth > 0) point at the block holding the next level down, leaves map up to 32768 logical
// blocks to a physical run (a length above 32768 marks an uninitialised extent, read as zeros). The root
// lives in i_block (4 entries); the kernel keeps trees at most 5 levels deep.
import { DecodeError } from '../../compression/errors.js';
import type { Runs } from './runs.js';
import type { Volume } from './volume.js';

export const EXTENT_MAGIC = 0xf30a;
const HEADER = 12;
const ENTRY = 12;
const MAX_DEPTH = 5;
const MAX_INIT_LENGTH = 32768;

/**
 * Adds the runs of the tree rooted in `root` that fall in logical blocks [0, limit) to `runs`. Each node
 * covers [from, to) of its parent's range: children outside it, entries out of order, a tree block met
 * twice or a depth that does not step down by one are DecodeErrors, so the walk visits each block once.
 */
export function extentRuns(vol: Volume, root: Uint8Array, limit: number, runs: Runs): void {
  const seen = new Set<number>();
  const node = (bytes: Uint8Array, depth: number | null, from: number, to: number): void => {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (v.getUint16(0, true) !== EXTENT_MAGIC) throw new DecodeError('ext: extent node without its magic');
    const entries = v.getUint16(2, true);
    const level = v.getUint16(6, true);
    if (level > MAX_DEPTH || (depth !== null && level !== depth))
      throw new DecodeError(`ext: extent node at depth ${level} where ${depth ?? `at most ${MAX_DEPTH}`} belongs`);
    if (entries > v.getUint16(4, true) || HEADER + entries * ENTRY > bytes.length)
      throw new DecodeError(`ext: extent node claims ${entries} entries`);
    let previous = -1;
    for (let i = 0, at = HEADER; i < entries; i++, at += ENTRY) {
      const first = v.getUint32(at, true);
      if (first <= previous || first < from)
        throw new DecodeError(`ext: extent at logical block ${first} out of order`);
      previous = first;
      if (first >= to) break;
      if (level === 0) {
        const length = v.getUint16(at + 4, true);
        const zeroed = length > MAX_INIT_LENGTH;
        const count = Math.min(zeroed ? length - MAX_INIT_LENGTH : length, to - first);
        const start = v.getUint16(at + 6, true) * 2 ** 32 + v.getUint32(at + 8, true);
        const problem = vol.blocksProblem(start, count);
        if (problem) throw new DecodeError(`ext: extent at logical block ${first}: ${problem}`);
        if (count > 0) runs.push(first, start, count, zeroed);
      } else {
        const child = v.getUint32(at + 4, true) + v.getUint16(at + 8, true) * 2 ** 32;
        if (seen.has(child)) throw new DecodeError(`ext: extent tree block ${child} met twice`);
        seen.add(child);
        const end = i + 1 < entries ? Math.min(to, v.getUint32(at + ENTRY, true)) : to;
        node(vol.blocks(child), level - 1, first, end);
      }
    }
  };
  node(root, null, 0, limit);
}
