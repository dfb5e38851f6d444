// A regular file's bytes: its full blocks (each a size word in the inode: bit 24 set = stored as is, the
// low 24 bits its bytes on disk, 0 = a sparse block of zeros), then its tail, cut from a fragment block
// shared with other small files, unless it has none and its last block is short.
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import type { Image } from './image.js';
import { NO_FRAGMENT, type FileInode } from './inodes.js';
import { LookupTable, type MetadataTable } from './metadata.js';
import { FRAGMENT_ENTRY_SIZE } from './superblock.js';

const STORED = 1 << 24;
const SIZE_MASK = STORED - 1;
/** Decoded fragment blocks kept: files of one directory share a few, and each is at most 1 MiB. */
const FRAGMENT_CACHE = 4;

/** One block as stored: decoded (or not) and checked to be exactly the `expected` bytes it stands for. */
function readBlock(image: Image, at: number, word: number, expected: number, what: string): Uint8Array {
  if (word & ~(STORED | SIZE_MASK)) throw new DecodeError(`squashfs: ${what} size word 0x${word.toString(16)}`);
  const raw = image.slice(at, word & SIZE_MASK, what);
  const data = word & STORED ? raw : image.decompress(raw, image.sb.blockSize);
  if (expected >= 0 && data.length !== expected)
    throw new DecodeError(`squashfs: ${what} holds ${data.length} bytes, not ${expected}`);
  return data;
}

/** The fragment table (u64 start, u32 size word, u32 unused per entry) and a few decoded fragment blocks. */
export class Fragments {
  private readonly table: LookupTable;
  private readonly cache = new Map<number, Uint8Array>();

  constructor(private readonly image: Image) {
    const sb = image.sb;
    this.table = new LookupTable(image, sb.fragmentTableStart, sb.fragmentCount, FRAGMENT_ENTRY_SIZE, 'fragment');
  }

  block(i: number): Uint8Array {
    const cached = this.cache.get(i);
    if (cached) return cached;
    const e = this.image.view.over(this.table.entry(i));
    const data = readBlock(this.image, e.u64(0), e.u32(8), -1, `fragment ${i}`);
    if (this.cache.size === FRAGMENT_CACHE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(i, data);
    return data;
  }
}

/** A file's bytes; OutputLimitError when they would pass the budget. */
export function readFile(image: Image, inodes: MetadataTable, fragments: Fragments, file: FileInode): Uint8Array {
  const { blockSize } = image.sb;
  const limit = image.ctx.remaining();
  if (file.fileSize > limit) throw new OutputLimitError(limit);
  const words = image.view.over(inodes.read({ ...file.blockList }, 4 * file.blockCount));
  const out = new Uint8Array(file.fileSize);
  let at = file.blocksStart;
  for (let i = 0; i < file.blockCount; i++) {
    const word = words.u32(4 * i);
    if (word === 0) continue;
    const expected = Math.min(blockSize, file.fileSize - i * blockSize);
    out.set(readBlock(image, at, word, expected, `block ${i}`), i * blockSize);
    at += word & SIZE_MASK;
  }
  const tailAt = file.blockCount * blockSize;
  if (file.fragment !== NO_FRAGMENT && tailAt < file.fileSize) {
    const fragment = fragments.block(file.fragment);
    const end = file.fragmentOffset + file.fileSize - tailAt;
    if (end > fragment.length)
      throw new DecodeError(`squashfs: tail at ${file.fragmentOffset} past fragment ${file.fragment}'s end`);
    out.set(fragment.subarray(file.fragmentOffset, end), tailAt);
  }
  return out;
}
