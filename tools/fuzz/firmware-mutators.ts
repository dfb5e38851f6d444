// Mutations of firmware images. Their structures are headers, tables and compressed blocks anywhere in the
// image, not integer fields a map could list, so damage is byte-level (mutators.ts, blind) and block-level:
// a block duplicated or removed (entries that repeat, overlap or go missing; offsets past it go stale), runs
// of 0x00 or of erased flash (0xFF), and a format's magic planted at a random place (a false hit to probe).
// Then, most of the time, the checksums that would turn a damaged structure away at the door are made right
// again (uImage header, TRX, JFFS2 nodes), so the damage reaches the code behind them.
import { crc32Update, crc32Value } from '../../src/engine/fuzzy/crc32.js';
import { FIRMWARE_FORMATS } from '../../src/engine/index.js';
import type { FieldMap } from './field-map.js';
import { mutate, type Mutant, type Random } from './mutators.js';

/** A mutant may grow by this much over its seed (duplicated blocks): enough for a second copy of a table. */
const MAX_GROWTH = 64 * 1024;
/** Longest block moved, filled or removed: a few erase blocks of the small seeds. */
const MAX_BLOCK = 8 * 1024;
/** Share of mutants whose checksums are made right again (the rest test the checks themselves). */
const REPAIR_SHARE = 0.7;

const pick = (rand: Random, n: number): number => Math.floor(rand() * n);
const hex = (n: number): string => `0x${n.toString(16)}`;

/** A place in `length` bytes: a third near the start (headers, superblocks), a third near the end, a third anywhere. */
function place(rand: Random, length: number): number {
  const r = rand();
  const span = Math.min(length, 4096);
  if (r < 1 / 3) return pick(rand, span + 1);
  if (r < 2 / 3) return length - pick(rand, span + 1);
  return pick(rand, length + 1);
}

/** Block lengths: mostly short (a header, a node), sometimes long; powers of two and odd ones alike. */
const blockLength = (rand: Random): number =>
  rand() < 0.5 ? 1 + pick(rand, 64) : rand() < 0.5 ? 1 << pick(rand, 14) : 1 + pick(rand, MAX_BLOCK);

type BlockMutator = (bytes: Uint8Array, rand: Random) => { bytes: Uint8Array; step: string };

const duplicate: BlockMutator = (bytes, rand) => {
  const from = place(rand, bytes.length);
  const length = Math.min(blockLength(rand), bytes.length - from);
  const to = place(rand, bytes.length);
  const out = new Uint8Array(bytes.length + length);
  out.set(bytes.subarray(0, to));
  out.set(bytes.subarray(from, from + length), to);
  out.set(bytes.subarray(to), to + length);
  return { bytes: out, step: `insert a copy of ${length} bytes from ${hex(from)} at ${hex(to)}` };
};

const remove: BlockMutator = (bytes, rand) => {
  const from = place(rand, bytes.length);
  const length = Math.min(blockLength(rand), bytes.length - from);
  const out = new Uint8Array(bytes.length - length);
  out.set(bytes.subarray(0, from));
  out.set(bytes.subarray(from + length), from);
  return { bytes: out, step: `remove ${length} bytes at ${hex(from)}` };
};

const fill: BlockMutator = (bytes, rand) => {
  const at = place(rand, bytes.length);
  const length = Math.min(blockLength(rand), bytes.length - at);
  const value = rand() < 0.5 ? 0 : 0xff;
  bytes.fill(value, at, at + length);
  return { bytes, step: `fill ${length} bytes at ${hex(at)} with ${hex(value)}` };
};

const MAGICS = FIRMWARE_FORMATS.flatMap((f) => f.magics.map((m) => ({ name: f.name, ...m })));

const plantMagic: BlockMutator = (bytes, rand) => {
  const m = MAGICS[pick(rand, MAGICS.length)]!;
  const at = Math.max(0, place(rand, bytes.length) - m.bytes.length);
  for (let k = 0; k < m.bytes.length && at + (m.at ?? 0) + k < bytes.length; k++)
    bytes[at + (m.at ?? 0) + k] = m.bytes[k]!;
  return { bytes, step: `plant the ${m.name} magic at ${hex(at)}` };
};

/** [mutation, weight]; `mutate` (bit flips, boundary values, splices, truncation) counts as one. */
const BLOCK_MUTATORS: [BlockMutator | 'bytes', number][] = [
  ['bytes', 4],
  [duplicate, 2],
  [remove, 2],
  [fill, 2],
  [plantMagic, 1],
];
const TOTAL_WEIGHT = BLOCK_MUTATORS.reduce((n, [, w]) => n + w, 0);

/** One to three byte- or block-level mutations of a copy of `seed`, then its checksums repaired (mostly). */
export function mutateImage(seed: Uint8Array, map: FieldMap, rand: Random): Mutant {
  let bytes: Uint8Array = seed.slice();
  const steps: string[] = [];
  const count = 1 + pick(rand, 3);
  for (let i = 0; i < count && bytes.length > 0; i++) {
    let r = rand() * TOTAL_WEIGHT;
    const [mutator] = BLOCK_MUTATORS.find(([, w]) => (r -= w) < 0) ?? BLOCK_MUTATORS[0]!;
    if (mutator === 'bytes') {
      const m = mutate(bytes, map, rand);
      bytes = m.bytes;
      steps.push(...m.steps);
    } else if (mutator !== duplicate || bytes.length < seed.length + MAX_GROWTH) {
      const m = mutator(bytes, rand);
      bytes = m.bytes;
      steps.push(m.step);
    }
  }
  if (rand() < REPAIR_SHARE) {
    const repaired = repairChecksums(bytes);
    if (repaired > 0) steps.push(`repair ${repaired} checksums`);
  }
  return { bytes, steps };
}

const UIMAGE_MAGIC = [0x27, 0x05, 0x19, 0x56];
const TRX_MAGIC = [0x48, 0x44, 0x52, 0x30];
const JFFS2_NODE_TYPES = { dirent: 0xe001, inode: 0xe002 };
/** The kernel's crc32(0, …): seed 0, no inversion. */
const jffs2Crc = (b: Uint8Array): number => crc32Update(0, b) >>> 0;

/** Offsets where `magic` starts in `bytes` (step `align`), at most `max` of them. */
function* hits(bytes: Uint8Array, magic: number[], align = 1, max = 10_000): Generator<number> {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const needle = Buffer.from(magic);
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0 && n < max; at = haystack.indexOf(needle, at + 1))
    if (at % align === 0) {
      n++;
      yield at;
    }
}

/**
 * Makes right, in place, the checksums a reader checks before anything else: the uImage header CRC-32, the
 * TRX CRC-32 over its length, and the JFFS2 node header, node, name and data CRCs (either byte order). Returns
 * how many it rewrote. Layouts: U-Boot's image.h, Broadcom's trx.h, the kernel's jffs2.h.
 */
export function repairChecksums(bytes: Uint8Array): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let repaired = 0;
  const set = (at: number, value: number, little: boolean) => {
    if (v.getUint32(at, little) !== value >>> 0) {
      v.setUint32(at, value >>> 0, little);
      repaired++;
    }
  };
  for (const at of hits(bytes, UIMAGE_MAGIC)) {
    if (at + 64 > bytes.length) continue;
    const header = bytes.slice(at, at + 64);
    header.fill(0, 4, 8);
    set(at + 4, crc32Value(header), false);
  }
  for (const at of hits(bytes, TRX_MAGIC)) {
    if (at + 28 > bytes.length) continue;
    const length = v.getUint32(at + 4, true);
    if (length >= 28 && at + length <= bytes.length)
      set(at + 8, crc32Update(-1, bytes.subarray(at + 12, at + length)), true);
  }
  for (const little of [true, false]) {
    for (const at of hits(bytes, little ? [0x85, 0x19] : [0x19, 0x85], 4)) {
      if (at + 12 > bytes.length) continue;
      const type = v.getUint16(at + 2, little);
      const totlen = v.getUint32(at + 4, little);
      if (totlen < 12 || totlen > bytes.length - at) continue;
      set(at + 8, jffs2Crc(bytes.subarray(at, at + 8)), little);
      if (type === JFFS2_NODE_TYPES.dirent && totlen >= 40) {
        const nsize = bytes[at + 28]!;
        if (40 + nsize <= totlen) set(at + 36, jffs2Crc(bytes.subarray(at + 40, at + 40 + nsize)), little);
        set(at + 32, jffs2Crc(bytes.subarray(at, at + 32)), little);
      } else if (type === JFFS2_NODE_TYPES.inode && totlen >= 68) {
        const csize = v.getUint32(at + 48, little);
        if (68 + csize <= totlen) set(at + 60, jffs2Crc(bytes.subarray(at + 68, at + 68 + csize)), little);
        set(at + 64, jffs2Crc(bytes.subarray(at, at + 60)), little);
      }
    }
  }
  return repaired;
}
