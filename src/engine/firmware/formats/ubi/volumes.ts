// UBI volumes: the volume table (kept twice, in the two LEBs of the internal layout volume) names them and
// says their type and size; a volume's bytes are its LEBs in order. A static volume holds exactly what was
// written (each LEB says how many bytes it carries); a dynamic one is a run of whole LEBs, those never
// written being erased flash (0xFF), as a UBIFS on it expects.
import { OutputLimitError } from '../../compression/errors.js';
import { be32, ubiCrc, VID_DYNAMIC, VID_STATIC } from './headers.js';
import type { Leb, PebScan } from './pebs.js';

/** Internal volumes take the top 4096 ids; the layout volume (the volume table) is the first of them. */
export const INTERNAL_VOLUMES = 0x7fffffff - 4096;
const LAYOUT_VOLUME = INTERNAL_VOLUMES;
const LAYOUT_COPIES = 2;
const MAX_VOLUMES = 128;
const RECORD_SIZE = 172;
const RECORD_CRC_AT = RECORD_SIZE - 4;
const MAX_NAME = 127;
const AUTORESIZE = 0x01;
const ERASED = 0xff;

export interface VolumeRecord {
  volId: number;
  /** PEBs reserved for it: no LEB number reaches this. */
  reservedPebs: number;
  dataPad: number;
  type: 'dynamic' | 'static';
  /** An update was started and never finished: the contents are not to be trusted. */
  updating: boolean;
  autoresize: boolean;
  name: string;
}

const names = new TextDecoder('utf-8');

/** The record at `at`, null when empty, or a string saying what is wrong with it. */
function recordAt(b: Uint8Array, at: number, volId: number): VolumeRecord | null | string {
  if (ubiCrc(b.subarray(at, at + RECORD_CRC_AT)) !== be32(b, at + RECORD_CRC_AT)) return 'CRC mismatch';
  const reservedPebs = be32(b, at);
  if (reservedPebs === 0) return null;
  const type = b[at + 12];
  const nameLength = (b[at + 14]! << 8) | b[at + 15]!;
  if (type !== VID_DYNAMIC && type !== VID_STATIC) return `unknown type ${type}`;
  if (nameLength === 0 || nameLength > MAX_NAME) return `name length ${nameLength}`;
  return {
    volId,
    reservedPebs,
    dataPad: be32(b, at + 8),
    type: type === VID_STATIC ? 'static' : 'dynamic',
    updating: b[at + 13] !== 0,
    autoresize: (b[at + 144]! & AUTORESIZE) !== 0,
    name: names.decode(b.subarray(at + 16, at + 16 + nameLength)),
  };
}

/**
 * The volume table: each record from the first copy whose CRC holds. Null when the layout volume is missing
 * (volumes are then named by id).
 */
export function volumeTable(
  data: Uint8Array,
  scan: PebScan,
  problem: (m: string) => void,
): Map<number, VolumeRecord> | null {
  const layout = scan.volumes.get(LAYOUT_VOLUME);
  const copies = [...Array(LAYOUT_COPIES).keys()].flatMap((lnum) => {
    const leb = layout?.get(lnum);
    return leb ? [data.subarray(leb.at, leb.at + scan.lebSize)] : [];
  });
  if (copies.length === 0) {
    problem('the layout volume (volume table) is missing; volumes are named by id');
    return null;
  }
  const table = new Map<number, VolumeRecord>();
  const count = Math.min(MAX_VOLUMES, Math.floor(scan.lebSize / RECORD_SIZE));
  for (let volId = 0; volId < count; volId++) {
    let why = '';
    for (const copy of copies) {
      const r = recordAt(copy, volId * RECORD_SIZE, volId);
      if (typeof r === 'string') {
        why ||= r;
        continue;
      }
      if (r) table.set(volId, r);
      why = '';
      break;
    }
    if (why) problem(`volume table record ${volId}: ${why}`);
  }
  return table;
}

/**
 * The bytes of one volume, bounded by `limit` (the task's budget), or null when its LEB geometry makes no
 * sense. LEB n sits at n × the usable LEB size; a static volume ends inside its last LEB (its data_size).
 */
export function volumeBytes(
  data: Uint8Array,
  scan: PebScan,
  lebs: Map<number, Leb>,
  record: VolumeRecord | undefined,
  limit: number,
  problem: (m: string) => void,
): Uint8Array | null {
  const lnums = [...lebs.keys()].sort((a, b) => a - b);
  const last = lebs.get(lnums[lnums.length - 1] ?? -1);
  if (!last) return new Uint8Array(0);
  const dataPad = record && record.dataPad < scan.lebSize ? record.dataPad : last.vid.dataPad;
  const usable = scan.lebSize - dataPad;
  const isStatic = record ? record.type === 'static' : last.vid.volType === VID_STATIC;
  let count = isStatic ? last.vid.usedEbs : last.vid.lnum + 1;
  if (record && count > record.reservedPebs) {
    problem(`${count} LEBs used of the ${record.reservedPebs} reserved; the rest are left out`);
    count = record.reservedPebs;
  }
  if (count === 0) return new Uint8Array(0);
  const tail = isStatic ? (lebs.get(count - 1)?.vid.dataSize ?? usable) : usable;
  if (tail > usable) {
    problem(`its last LEB claims ${tail} bytes, more than the ${usable} a LEB holds`);
    return null;
  }
  const size = (count - 1) * usable + tail;
  if (size > limit) throw new OutputLimitError(limit);
  const out = new Uint8Array(size).fill(ERASED);
  let present = 0;
  const damaged: number[] = [];
  for (const lnum of lnums) {
    if (lnum >= count) break;
    const leb = lebs.get(lnum)!;
    const length = lnum === count - 1 ? tail : usable;
    const bytes = data.subarray(leb.at, leb.at + (isStatic ? leb.vid.dataSize : length));
    // A static LEB says how much it holds and what its CRC is: all of it but the last is full.
    if (isStatic && (bytes.length !== length || ubiCrc(bytes) !== leb.vid.dataCrc)) damaged.push(lnum);
    out.set(bytes.subarray(0, length), lnum * usable);
    present++;
  }
  if (damaged.length)
    problem(
      `${damaged.length} LEBs fail their data CRC or size (LEB ${damaged.slice(0, 5).join(', ')}${damaged.length > 5 ? ' …' : ''})`,
    );
  if (isStatic && present < count) problem(`${count - present} of its ${count} LEBs are missing (left as 0xFF)`);
  return out;
}
