// Intel HEX: ASCII records `:LLAAAATT<data>CC`, one per line, that place bytes at 16-bit offsets from a base
// set by extended segment (02: base = value · 16) or extended linear (04: base = value · 65536) records, ending
// at the end-of-file record (01). The run of records, its layout and the probe's answer are hex-records.ts's.
import type { FirmwareFormat } from '../format.js';
import {
  DATA_RECORD,
  FINAL_RECORD,
  OTHER_RECORD,
  byteAt,
  endsLine,
  hexSum,
  recordsProbed,
  walkRecords,
  type HexRecord,
  type RecordReader,
  type RecordSyntax,
} from './hex-records.js';

const COLON = 0x3a;
const DATA = 0;
const END_OF_FILE = 1;
const EXTENDED_SEGMENT = 2;
const START_SEGMENT = 3;
const EXTENDED_LINEAR = 4;
const START_LINEAR = 5;
/** The payload each non-data record type must carry (end of file: none; bases: 2 bytes; starts: 4 bytes). */
const PAYLOAD: Record<number, number> = {
  [END_OF_FILE]: 0,
  [EXTENDED_SEGMENT]: 2,
  [START_SEGMENT]: 4,
  [EXTENDED_LINEAR]: 2,
  [START_LINEAR]: 4,
};

/** Reads `:`, hex digits whose checksum holds, and a known type with the payload it needs; keeps the base. */
class IntelHexReader implements RecordReader {
  private base = 0;

  read(b: Uint8Array, at: number, record: HexRecord): boolean {
    if (at + 11 > b.length || b[at] !== COLON) return false;
    const length = byteAt(b, at + 1);
    const end = at + 11 + 2 * length;
    if (length < 0 || end > b.length) return false;
    const sum = hexSum(b, at + 1, end);
    const type = byteAt(b, at + 7);
    if (sum < 0 || (sum & 0xff) !== 0 || (type !== DATA && PAYLOAD[type] !== length)) return false;
    const kind = type === DATA ? DATA_RECORD : type === END_OF_FILE ? FINAL_RECORD : OTHER_RECORD;
    if (kind !== FINAL_RECORD && !endsLine(b, end)) return false;
    record.end = end;
    record.kind = kind;
    if (type === DATA) {
      record.address = this.base + ((byteAt(b, at + 3) << 8) | byteAt(b, at + 5));
      record.hexAt = at + 9;
      record.length = length;
    } else if (type === EXTENDED_SEGMENT) this.base = ((byteAt(b, at + 9) << 8) | byteAt(b, at + 11)) * 16;
    else if (type === EXTENDED_LINEAR) this.base = ((byteAt(b, at + 9) << 8) | byteAt(b, at + 11)) * 65536;
    return true;
  }
}

const INTEL_HEX: RecordSyntax = {
  name: 'intel hex',
  noEnd: 'no end-of-file record',
  unended: 'intel hex records end without an end-of-file record',
  reader: () => new IntelHexReader(),
};

export const intelHexFormat: FirmwareFormat = {
  name: 'intel-hex',
  magics: [{ bytes: [COLON] }],
  probe(data, offset) {
    const b = data.subarray(offset);
    // The magic is one common byte: reject at the first record that is not one, before walking further.
    if (b.length < 11 || byteAt(b, 1) < 0) return null;
    return recordsProbed(b, walkRecords(b, INTEL_HEX.reader()), INTEL_HEX);
  },
};
