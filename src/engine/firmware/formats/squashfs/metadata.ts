// Metadata blocks and the tables made of them. A block is a 16-bit header (bit 15: stored as is; low 15
// bits: its bytes on disk) then at most 8 KiB once decoded; a table is such blocks end to end, and its
// records (inodes, directory listings) run on across block boundaries. A position in a table is the
// on-disk offset of a block from the table's start plus an offset in that block's decoded bytes.
import { DecodeError } from '../../compression/errors.js';
import type { Image } from './image.js';
import { METADATA_SIZE } from './superblock.js';

const STORED = 0x8000;

export interface Position {
  block: number;
  offset: number;
}

interface Block {
  data: Uint8Array;
  /** Where the following block starts, from the table's start. */
  next: number;
}

export class MetadataTable {
  /** Each block decoded once: inodes of one directory sit together, so most reads hit here. */
  private readonly blocks = new Map<number, Block>();

  /** Blocks between absolute offsets `start` and `end` of the image. */
  constructor(
    private readonly image: Image,
    private readonly start: number,
    private readonly end: number,
    private readonly what: string,
  ) {}

  private block(rel: number): Block {
    const cached = this.blocks.get(rel);
    if (cached) return cached;
    const at = this.start + rel;
    if (rel < 0 || at + 2 > this.end)
      throw new DecodeError(`squashfs: ${this.what} block at ${at} lies outside its table (${this.start}–${this.end})`);
    const header = this.image.view.u16(at);
    const size = header & ~STORED;
    if (size === 0 || size > METADATA_SIZE || at + 2 + size > this.end)
      throw new DecodeError(`squashfs: ${this.what} block at ${at} claims ${size} bytes`);
    const raw = this.image.bytes.subarray(at + 2, at + 2 + size);
    const data = header & STORED ? raw : this.image.decompress(raw, METADATA_SIZE);
    this.image.chargeMetadata(data.length);
    const block = { data, next: rel + 2 + size };
    this.blocks.set(rel, block);
    return block;
  }

  /**
   * `length` bytes from `pos`, which moves past them: a view when they lie in one block, else a copy.
   * Only blocks that exist are decoded, so a huge `length` ends at the table's end, not in an allocation.
   */
  read(pos: Position, length: number): Uint8Array {
    let b = this.block(pos.block);
    if (pos.offset > b.data.length)
      throw new DecodeError(`squashfs: ${this.what} offset ${pos.offset} past its block's ${b.data.length} bytes`);
    if (pos.offset + length <= b.data.length) {
      pos.offset += length;
      return b.data.subarray(pos.offset - length, pos.offset);
    }
    const parts: Uint8Array[] = [];
    let need = length;
    for (;;) {
      const take = Math.min(need, b.data.length - pos.offset);
      parts.push(b.data.subarray(pos.offset, pos.offset + take));
      pos.offset += take;
      need -= take;
      if (need === 0) break;
      pos.block = b.next;
      pos.offset = 0;
      b = this.block(pos.block);
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/**
 * A table of fixed-size entries (fragments here; ids and exports share the shape): an index of u64 block addresses at `indexAt`,
 * the blocks themselves before it (mksquashfs writes them first).
 */
export class LookupTable {
  private readonly blocks: MetadataTable;

  constructor(
    private readonly image: Image,
    private readonly indexAt: number,
    private readonly count: number,
    private readonly entrySize: number,
    private readonly what: string,
  ) {
    this.blocks = new MetadataTable(image, 0, indexAt, what);
  }

  /** Entry `i`'s bytes (entries never straddle blocks: 8192 is a multiple of their size). */
  entry(i: number): Uint8Array {
    if (!Number.isInteger(i) || i < 0 || i >= this.count)
      throw new DecodeError(`squashfs: ${this.what} entry ${i} of ${this.count}`);
    const byteAt = i * this.entrySize;
    const blockAt = this.image.view.u64(this.indexAt + 8 * Math.floor(byteAt / METADATA_SIZE));
    return this.blocks.read({ block: blockAt, offset: byteAt % METADATA_SIZE }, this.entrySize);
  }
}
