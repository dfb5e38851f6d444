// ext2/ext3 block maps: i_block's first 12 words are direct block numbers, then one indirect, one double-
// and one triple-indirect block, each a block of 32-bit numbers. 0 is a hole. Only pointers that cover
// logical blocks below the limit are followed, so the walk is bounded by the file's size.
import { DecodeError } from '../../compression/errors.js';
import type { Runs } from './runs.js';
import type { Volume } from './volume.js';

const DIRECT = 12;

/** Adds the mapped blocks of logical blocks [0, limit) to `runs`; a pointer outside the volume is a DecodeError. */
export function blockMapRuns(vol: Volume, iBlock: Uint8Array, limit: number, runs: Runs): void {
  const perBlock = vol.blockSize / 4;
  const words = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const target = (block: number, logical: number) => {
    const problem = vol.blocksProblem(block, 1);
    if (problem) throw new DecodeError(`ext: block map at logical block ${logical}: ${problem}`);
  };
  /** One pointer block `level` levels above the data, whose first entry maps logical block `base`. */
  const indirect = (block: number, level: number, base: number): void => {
    target(block, base);
    const v = words(vol.blocks(block));
    const span = perBlock ** (level - 1);
    for (let j = 0; j < perBlock; j++) {
      const logical = base + j * span;
      if (logical >= limit) return;
      const next = v.getUint32(4 * j, true);
      if (next === 0) continue;
      if (level === 1) {
        target(next, logical);
        runs.push(logical, next, 1);
      } else indirect(next, level - 1, logical);
    }
  };
  const root = words(iBlock);
  for (let i = 0; i < DIRECT && i < limit; i++) {
    const block = root.getUint32(4 * i, true);
    if (block === 0) continue;
    target(block, i);
    runs.push(i, block, 1);
  }
  let base = DIRECT;
  for (let level = 1; level <= 3 && base < limit; level++) {
    const block = root.getUint32(4 * (DIRECT + level - 1), true);
    if (block !== 0) indirect(block, level, base);
    base += perBlock ** level;
  }
}
