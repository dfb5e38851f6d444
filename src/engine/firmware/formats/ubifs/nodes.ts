// UBIFS nodes: every one opens with a 24-byte little-endian common header (magic 0x06101831, CRC-32 of the
// rest of the node, sequence number, length, type), sits 8-byte aligned inside a logical erase block (LEB),
// and is addressed by (LEB, offset, length). Layout as Linux's fs/ubifs/ubifs-media.h has it. This module
// checks nodes and reads the superblock, the master node and the keys; the index walk and the files use it.
import { crc32Update } from '../../../fuzzy/crc32.js';

const NODE_MAGIC = 0x06101831;
const MAGIC_BYTES = Buffer.from([0x31, 0x18, 0x10, 0x06]);
const COMMON_HEADER = 24;

export const INO_NODE = 0;
export const DATA_NODE = 1;
export const DENT_NODE = 2;
const SB_NODE = 6;
const MST_NODE = 7;
export const IDX_NODE = 9;

/** Fixed node sizes (the superblock and master nodes), and the headers before variable parts. */
const SB_NODE_SIZE = 4096;
const MST_NODE_SIZE = 512;
export const INO_NODE_SIZE = 160;
export const DATA_NODE_SIZE = 48;
export const DENT_NODE_SIZE = 56;
export const IDX_NODE_SIZE = 28;

/** The superblock is LEB 0; the master node is written to LEBs 1 and 2 in turn. */
const MASTER_LEBS = [1, 2];
/** mkfs and the kernel refuse LEBs under 15 KiB; 16 MiB is past any flash's erase block. */
const MIN_LEB = 15 * 1024;
const MAX_LEB = 16 << 20;
/**
 * The superblock and master LEBs at least: mkfs.ubifs records only the LEBs it filled (15 for a small
 * tree), and the kernel grows the count to the volume's size (at least 17 LEBs) on the first mount.
 */
const MIN_LEB_COUNT = 3;
const SIMPLE_KEY_FORMAT = 0;

export const FLG_ENCRYPTION = 0x10;
export const FLG_AUTHENTICATION = 0x20;

/**
 * UBIFS's CRC-32: the kernel's crc32_le seeded with 0xFFFFFFFF and no final inversion (the register
 * crc32Update leaves), over the node from just after the CRC field to its end.
 */
const nodeCrc = (bytes: Uint8Array): number => crc32Update(-1, bytes) >>> 0;

export const le16 = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);
export const le32 = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
/** A 64-bit field as a number: exact below 2^53, which every real size and sequence number is. */
export const le64 = (b: Uint8Array, at: number): number => le32(b, at) + le32(b, at + 4) * 0x1_0000_0000;

/** The node of `type` at `at`, its length checked against `min`/`exact` and the bytes there, its CRC valid. */
export function nodeAt(data: Uint8Array, at: number, type: number, min: number, exact = false): number | null {
  if (at < 0 || at + COMMON_HEADER > data.length || le32(data, at) !== NODE_MAGIC || data[at + 20] !== type)
    return null;
  const len = le32(data, at + 16);
  if (len < min || (exact && len !== min) || at + len > data.length) return null;
  return nodeCrc(data.subarray(at + 8, at + len)) === le32(data, at + 4) ? len : null;
}

/** The node's key: its inode number and (key type << 29 | block number or name hash). */
export const keyInum = (b: Uint8Array, keyAt: number): number => le32(b, keyAt);
export const keyRest = (b: Uint8Array, keyAt: number): number => le32(b, keyAt + 4);
export const keyType = (rest: number): number => rest >>> 29;
export const keyValue = (rest: number): number => rest & 0x1fffffff;

export interface Superblock {
  minIoSize: number;
  lebSize: number;
  lebCount: number;
  flags: number;
  fmtVersion: number;
  defaultCompr: number;
}

/** The superblock node at `at`, or null when there is none or its geometry cannot be UBIFS. */
export function superblockAt(data: Uint8Array, at: number): Superblock | null {
  if (nodeAt(data, at, SB_NODE, SB_NODE_SIZE, true) === null) return null;
  const sb: Superblock = {
    minIoSize: le32(data, at + 32),
    lebSize: le32(data, at + 36),
    lebCount: le32(data, at + 40),
    flags: le32(data, at + 28),
    fmtVersion: le32(data, at + 80),
    defaultCompr: le16(data, at + 84),
  };
  const { minIoSize, lebSize, lebCount } = sb;
  if (data[at + 27] !== SIMPLE_KEY_FORMAT || lebSize < MIN_LEB || lebSize > MAX_LEB || lebSize % 8) return null;
  if (minIoSize === 0 || minIoSize & (minIoSize - 1) || minIoSize > lebSize) return null;
  return lebCount >= MIN_LEB_COUNT ? sb : null;
}

/** The addressable LEBs of one UBIFS: LEB n starts n × leb_size after the superblock's LEB. */
export class Volume {
  readonly lebCount: number;
  constructor(
    readonly data: Uint8Array,
    readonly base: number,
    readonly lebSize: number,
    lebCount: number,
  ) {
    this.lebCount = Math.min(lebCount, Math.ceil((data.length - base) / lebSize));
  }

  /** Where node (lnum, offs, len) starts in the input, or null when it lies outside the volume. */
  at(lnum: number, offs: number, len: number): number | null {
    if (lnum >= this.lebCount || offs % 8 || len < COMMON_HEADER || offs + len > this.lebSize) return null;
    const at = this.base + lnum * this.lebSize + offs;
    return at + len <= this.data.length ? at : null;
  }
}

export interface Master {
  sqnum: number;
  lebCount: number;
  rootLnum: number;
  rootOffs: number;
  rootLen: number;
}

/**
 * The newest valid master node: each of the two master LEBs holds a run of them, padded to the flash's
 * write unit, and the kernel writes both in turn; the highest sequence number wins.
 */
export function newestMaster(vol: Volume): Master | null {
  const { data } = vol;
  let best: Master | null = null;
  for (const lnum of MASTER_LEBS) {
    if (lnum >= vol.lebCount) break;
    const start = vol.base + lnum * vol.lebSize;
    const end = Math.min(data.length, start + vol.lebSize);
    const hay = Buffer.from(data.buffer, data.byteOffset, end);
    for (let at = hay.indexOf(MAGIC_BYTES, start); at >= 0 && at + MST_NODE_SIZE <= end;) {
      if ((at - start) % 8 === 0 && nodeAt(data, at, MST_NODE, MST_NODE_SIZE, true) !== null) {
        const sqnum = le64(data, at + 8);
        if (!best || sqnum > best.sqnum)
          best = {
            sqnum,
            lebCount: le32(data, at + 164),
            rootLnum: le32(data, at + 48),
            rootOffs: le32(data, at + 52),
            rootLen: le32(data, at + 56),
          };
        at += MST_NODE_SIZE;
      } else at += 1;
      at = hay.indexOf(MAGIC_BYTES, at);
    }
  }
  return best;
}
