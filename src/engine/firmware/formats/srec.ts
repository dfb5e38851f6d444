// Motorola S-records: ASCII lines `S<type><count><address><data><checksum>`. S0 is a header, S1/S2/S3 carry
// data at 16/24/32-bit addresses, S5/S6 count the records, S7/S8/S9 end the file (with the start address). A
// run also ends at a count record that agrees, as srec_cat writes files without a start address. The run of
// records, its layout and the probe's answer are hex-records.ts's.
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
  type RecordRun,
  type RecordSyntax,
} from './hex-records.js';

const S = 0x53;
const DIGIT_0 = 0x30;
/** Address bytes by record type; S4 is reserved (-1). */
const ADDRESS_BYTES = [2, 2, 3, 4, -1, 2, 3, 4, 3, 2];
const isData = (type: number) => type >= 1 && type <= 3;
const isCount = (type: number) => type === 5 || type === 6;
const isTerminator = (type: number) => type >= 7;
/** The most of an S0 header's text the description shows. */
const HEADER_TEXT = 40;

/**
 * Reads `S`, a type digit, a count covering address, data and checksum, and hex digits whose ones'-complement
 * checksum holds. Keeps the first record's header text, and the count an S5/S6 record gave while it is the
 * last record read (srec_cat ends files with one when it has no start address for a terminator).
 */
class SrecReader implements RecordReader {
  header = '';
  counted = -1;

  read(b: Uint8Array, at: number, record: HexRecord, run: RecordRun): boolean {
    if (at + 4 > b.length || b[at] !== S) return false;
    const type = b[at + 1]! - DIGIT_0;
    const addressBytes = type >= 0 && type <= 9 ? ADDRESS_BYTES[type]! : -1;
    const count = byteAt(b, at + 2);
    if (addressBytes < 0 || count < addressBytes + 1) return false;
    const end = at + 4 + 2 * count;
    if (end > b.length) return false;
    const sum = hexSum(b, at + 4, end);
    if (sum < 0 || ((sum + count) & 0xff) !== 0xff) return false;
    if (!isTerminator(type) && !endsLine(b, end)) return false;
    let address = 0;
    for (let n = 0; n < addressBytes; n++) address = address * 256 + byteAt(b, at + 4 + 2 * n);
    const hexAt = at + 4 + 2 * addressBytes;
    const length = count - addressBytes - 1;
    record.end = end;
    record.kind = isData(type) ? DATA_RECORD : isTerminator(type) ? FINAL_RECORD : OTHER_RECORD;
    record.address = address;
    record.hexAt = hexAt;
    record.length = length;
    if (type === 0 && run.records === 0) this.header = headerText(b, hexAt, length);
    this.counted = isCount(type) ? address : -1;
    return true;
  }
}

/** An S0 record's data as text (conventionally a module name), printable ASCII only. */
function headerText(b: Uint8Array, hexAt: number, length: number): string {
  let text = '';
  for (let i = 0; i < Math.min(length, HEADER_TEXT); i++) {
    const c = byteAt(b, hexAt + 2 * i);
    if (c === 0) break;
    text += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '?';
  }
  return text;
}

const SREC: RecordSyntax = {
  name: 's-record',
  noEnd: 'no terminator record',
  unended: 's-records end without a terminator (S7/S8/S9) or a count (S5/S6) that agrees',
  reader: () => new SrecReader(),
};

export const srecFormat: FirmwareFormat = {
  name: 'srec',
  // Files open with an S0 header or straight with data; 'S' alone is far too common a byte to scan for.
  magics: [0, 1, 2, 3].map((type) => ({ bytes: [S, DIGIT_0 + type] })),
  probe(data, offset) {
    const b = data.subarray(offset);
    const reader = new SrecReader();
    const run = walkRecords(b, reader);
    // A count record that agrees, last in the run, ends it as a terminator would (its blank lines stay out).
    if (reader.counted === run.dataRecords) run.ended = true;
    return recordsProbed(b, run, SREC, reader.header ? `"${reader.header}": ` : '');
  },
};
