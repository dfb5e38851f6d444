// One pass over a UBI image's physical erase blocks: their size found from the spacing of the erase-counter
// headers, each PEB's headers checked, and for every volume the PEB that holds each of its LEBs (the newest
// copy when a LEB was written twice). Only headers are read here; volumes.ts copies the data out.
import {
  ecHeaderAt,
  erasedAt,
  ubiCrc,
  vidHeaderAt,
  VID_DYNAMIC,
  VID_STATIC,
  type EcHeader,
  type VidHeader,
} from './headers.js';

/** PEB sizes are powers of two: 16 KiB (small-page NAND) to 4 MiB (MLC) in practice; NOR uses 64–256 KiB. */
const MIN_PEB = 1 << 10;
const MAX_PEB = 16 << 20;
/** Headers whose spacing sets the PEB size: several, so a damaged second PEB does not double it. */
const SPACING_HEADERS = 4;
const SPACING_WINDOW = SPACING_HEADERS * MAX_PEB;
/**
 * PEBs without a valid erase-counter header that may lie between valid ones (bad blocks in a raw dump);
 * past this many in a row the image has ended. Flash datasheets allow ~2% bad blocks, rarely clustered.
 */
const MAX_GAP = 16;
/** Damage messages kept per image; the rest are counted. */
const MAX_PROBLEMS = 50;

const EC_MAGIC_BYTES = Buffer.from('UBI#', 'latin1');

export interface Leb {
  /** The PEB's index from the image's start. */
  peb: number;
  /** Where its data starts in the input. */
  at: number;
  vid: VidHeader;
}

export interface PebScan {
  pebSize: number;
  vidOffset: number;
  dataOffset: number;
  /** PEB size less the headers' room: what a LEB holds before a volume's alignment padding. */
  lebSize: number;
  imageSeq: number;
  /** Bytes from the first PEB to the end of the last valid one. */
  size: number;
  /** PEBs with a valid erase-counter header. */
  pebs: number;
  /** vol_id → lnum → the PEB holding that LEB. */
  volumes: Map<number, Map<number, Leb>>;
  problems: string[];
  moreProblems: number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const sameLayout = (a: EcHeader, b: EcHeader) =>
  a.vidOffset === b.vidOffset && a.dataOffset === b.dataOffset && a.imageSeq === b.imageSeq;

/**
 * The PEB size: the largest power of two dividing the distances from the first header to the next few that
 * match it (same header offsets and image sequence number), so PEBs missing in between do not mislead.
 */
function pebSizeAfter(data: Uint8Array, offset: number, first: EcHeader): number | null {
  const end = Math.min(data.length, offset + SPACING_WINDOW);
  const hay = Buffer.from(data.buffer, data.byteOffset, end);
  let spacing = 0;
  let found = 0;
  for (let i = hay.indexOf(EC_MAGIC_BYTES, offset + 1); i >= 0 && found < SPACING_HEADERS;) {
    const ec = ecHeaderAt(data, i);
    if (ec && sameLayout(ec, first)) {
      spacing = gcd(spacing, i - offset);
      found++;
    }
    i = hay.indexOf(EC_MAGIC_BYTES, i + 1);
  }
  if (spacing === 0) return null;
  const size = spacing & -spacing;
  return size >= MIN_PEB && size <= MAX_PEB && size > first.dataOffset ? size : null;
}

/** Whether the newer of two copies of a LEB is whole: a wear-levelling copy (copy_flag) carries a data CRC. */
function copyIsWhole(data: Uint8Array, leb: Leb, lebSize: number): boolean {
  const { copyFlag, dataSize, dataCrc } = leb.vid;
  if (!copyFlag) return true;
  return dataSize <= lebSize && ubiCrc(data.subarray(leb.at, leb.at + dataSize)) === dataCrc;
}

/** The PEBs of the UBI image whose first erase-counter header is at `offset`, or null when it is none. */
export function scanPebs(data: Uint8Array, offset: number): PebScan | null {
  const first = ecHeaderAt(data, offset);
  if (!first) return null;
  const pebSize = pebSizeAfter(data, offset, first);
  if (pebSize === null) return null;
  const lebSize = pebSize - first.dataOffset;
  const scan: PebScan = {
    pebSize,
    vidOffset: first.vidOffset,
    dataOffset: first.dataOffset,
    lebSize,
    imageSeq: first.imageSeq,
    size: 0,
    pebs: 0,
    volumes: new Map(),
    problems: [],
    moreProblems: 0,
  };
  const problem = (message: string) => {
    if (scan.problems.length < MAX_PROBLEMS) scan.problems.push(message);
    else scan.moreProblems++;
  };

  for (let peb = 0, gap = 0; gap <= MAX_GAP; peb++) {
    const at = offset + peb * pebSize;
    const ec = ecHeaderAt(data, at);
    if (!ec || !sameLayout(ec, first)) {
      gap++;
      if (at + pebSize > data.length) break;
      continue;
    }
    if (at + pebSize > data.length) {
      problem(`PEB ${peb} is cut short by the end of the input`);
      break;
    }
    gap = 0;
    scan.pebs++;
    scan.size = (peb + 1) * pebSize;
    const vidAt = at + first.vidOffset;
    if (erasedAt(data, vidAt)) continue;
    const vid = vidHeaderAt(data, vidAt);
    if (!vid) problem(`PEB ${peb}: volume header damaged`);
    else if (vid.volType !== VID_DYNAMIC && vid.volType !== VID_STATIC)
      problem(`PEB ${peb}: unknown volume type ${vid.volType}`);
    else if (vid.dataPad >= lebSize || (vid.volType === VID_STATIC && vid.dataSize > lebSize - vid.dataPad))
      problem(`PEB ${peb}: volume header's sizes pass the LEB (${vid.dataSize} + ${vid.dataPad} padding)`);
    else place(scan, data, { peb, at: at + first.dataOffset, vid });
  }
  return scan;
}

/** Keeps the newest whole copy of each LEB: the higher sequence number, unless it is a copy cut short. */
function place(scan: PebScan, data: Uint8Array, leb: Leb): void {
  let lebs = scan.volumes.get(leb.vid.volId);
  if (!lebs) scan.volumes.set(leb.vid.volId, (lebs = new Map()));
  const cur = lebs.get(leb.vid.lnum);
  if (!cur) {
    lebs.set(leb.vid.lnum, leb);
    return;
  }
  const [older, newer] = cur.vid.sqnum <= leb.vid.sqnum ? [cur, leb] : [leb, cur];
  lebs.set(leb.vid.lnum, copyIsWhole(data, newer, scan.lebSize) ? newer : older);
}
