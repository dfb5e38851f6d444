// The two 64-byte headers at the start of every UBI physical erase block (PEB), both big-endian and both
// closed by a CRC-32 of their first 60 bytes: the erase-counter header ("UBI#", at the PEB's start: where
// the other header and the data lie) and the volume-identifier header ("UBI!": which volume and which of
// its logical erase blocks, LEB, the PEB holds). Layout as Linux's drivers/mtd/ubi/ubi-media.h has it.
import { crc32Update } from '../../../fuzzy/crc32.js';

const EC_MAGIC = 0x55424923;
const VID_MAGIC = 0x55424921;
const HEADER_SIZE = 64;
/** Both headers' CRC covers all but their last 4 bytes. */
const CRC_SPAN = HEADER_SIZE - 4;
/** The only UBI version there is; the kernel refuses images of any other. */
const UBI_VERSION = 1;

export const VID_DYNAMIC = 1;
export const VID_STATIC = 2;

/**
 * UBI's CRC-32: the kernel's crc32_le seeded with 0xFFFFFFFF and no final inversion, which is the register
 * crc32Update leaves.
 */
export const ubiCrc = (bytes: Uint8Array): number => crc32Update(-1, bytes) >>> 0;

export interface EcHeader {
  vidOffset: number;
  dataOffset: number;
  imageSeq: number;
}

export interface VidHeader {
  volType: number;
  copyFlag: boolean;
  volId: number;
  lnum: number;
  /** Bytes of data in the LEB: static volumes, and dynamic LEBs the wear-leveller copied. */
  dataSize: number;
  /** LEBs a static volume uses. */
  usedEbs: number;
  /** Bytes left unused at the end of each PEB for the volume's alignment. */
  dataPad: number;
  dataCrc: number;
  /** The global write counter when this LEB was mapped: of two copies of a LEB, the higher is newer. */
  sqnum: number;
}

/** A big-endian 32-bit field. */
export const be32 = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** A 64-bit big-endian counter as a number (exact below 2^53, far beyond any flash's write count). */
const u64 = (b: Uint8Array, at: number) => be32(b, at) * 0x1_0000_0000 + be32(b, at + 4);

/** Whether a header with `magic` and a valid CRC starts at `at`. */
function sealed(data: Uint8Array, at: number, magic: number): boolean {
  if (at < 0 || at + HEADER_SIZE > data.length || be32(data, at) !== magic) return false;
  return ubiCrc(data.subarray(at, at + CRC_SPAN)) === be32(data, at + CRC_SPAN);
}

/** The erase-counter header at `at`, or null when there is none, its CRC fails or its offsets make no sense. */
export function ecHeaderAt(data: Uint8Array, at: number): EcHeader | null {
  if (!sealed(data, at, EC_MAGIC) || data[at + 4] !== UBI_VERSION) return null;
  const vidOffset = be32(data, at + 16);
  const dataOffset = be32(data, at + 20);
  if (vidOffset < HEADER_SIZE || dataOffset < vidOffset + HEADER_SIZE) return null;
  return { vidOffset, dataOffset, imageSeq: be32(data, at + 24) };
}

/** Whether the 4 bytes at `at` are erased flash (a PEB no volume uses yet has no VID header). */
export const erasedAt = (data: Uint8Array, at: number): boolean => be32(data, at) === 0xffffffff;

/** The volume-identifier header at `at`, or null when there is none or its CRC fails. */
export function vidHeaderAt(data: Uint8Array, at: number): VidHeader | null {
  if (!sealed(data, at, VID_MAGIC) || data[at + 4] !== UBI_VERSION) return null;
  return {
    volType: data[at + 5]!,
    copyFlag: data[at + 6] !== 0,
    volId: be32(data, at + 8),
    lnum: be32(data, at + 12),
    dataSize: be32(data, at + 20),
    usedEbs: be32(data, at + 24),
    dataPad: be32(data, at + 28),
    dataCrc: be32(data, at + 32),
    sqnum: u64(data, at + 40),
  };
}
