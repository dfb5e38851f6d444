// Motorola S-records: ASCII lines `S<type><count><address><data><checksum>`. S0 is a header, S1/S2/S3 carry
// data at 16/24/32-bit addresses, S5/S6 count the records, S7/S8/S9 end the file (with the start address). A
// chunk is a run of valid records from the first to the terminator (or to a count record that agrees, as
// srec_cat writes files without a start address); its one entry is the bytes laid out from
// the lowest address written, gaps filled with 0xFF (erased flash).
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { ContainerFormat, Entry, ReadContext } from '../format.js';

const S = 0x53;
const CR = 0x0d;
const LF = 0x0a;
const DIGIT_0 = 0x30;
/** Address bytes by record type; S4 is reserved (-1). */
const ADDRESS_BYTES = [2, 2, 3, 4, -1, 2, 3, 4, 3, 2];
const isData = (type: number) => type >= 1 && type <= 3;
const isCount = (type: number) => type === 5 || type === 6;
const isTerminator = (type: number) => type >= 7;
/** A layout spanning more is no firmware image we could use (and would be a cheap way to demand memory). */
const MAX_SPAN = 256 << 20;
/** The most of an S0 header's text the description shows. */
const HEADER_TEXT = 40;

const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX['0123456789ABCDEF'.charCodeAt(i)] = HEX['0123456789abcdef'.charCodeAt(i)] = i;

/** The byte written as two hex digits at b[at], or -1. */
const byteAt = (b: Uint8Array, at: number) => {
  const hi = HEX[b[at]!]!;
  const lo = HEX[b[at + 1]!]!;
  return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
};

interface Run {
  size: number;
  records: number;
  dataRecords: number;
  ended: boolean;
  low: number;
  high: number;
  header: string;
}

/** Called with each data record's address, and where (in the text) its hex digits and how many bytes. */
type Visit = (address: number, hexAt: number, length: number) => void;

/**
 * The run of valid records from b[0]: `S`, a type digit, a count covering address, data and checksum, hex
 * digits whose ones'-complement checksum holds, then a line ending (or the input's end). Stops at the first
 * record that is not, or after a terminator.
 */
function walk(b: Uint8Array, visit?: Visit): Run {
  const run: Run = { size: 0, records: 0, dataRecords: 0, ended: false, low: Infinity, high: -Infinity, header: '' };
  let at = 0;
  // The count an S5/S6 record gave, while it is the last record read (srec_cat ends files with one when it has
  // no start address for a terminator).
  let counted = -1;
  while (at + 4 <= b.length && b[at] === S) {
    const type = b[at + 1]! - DIGIT_0;
    const addressBytes = type >= 0 && type <= 9 ? ADDRESS_BYTES[type]! : -1;
    const count = byteAt(b, at + 2);
    if (addressBytes < 0 || count < addressBytes + 1) break;
    const end = at + 4 + 2 * count;
    if (end > b.length) break;
    let sum = count;
    let address = 0;
    for (let i = at + 4, n = 0; i < end; i += 2, n++) {
      const v = byteAt(b, i);
      if (v < 0) {
        sum = -1;
        break;
      }
      sum += v;
      if (n < addressBytes) address = address * 256 + v;
    }
    if (sum < 0 || (sum & 0xff) !== 0xff) break;
    if (!isTerminator(type) && end < b.length && b[end] !== CR && b[end] !== LF) break;
    const hexAt = at + 4 + 2 * addressBytes;
    const length = count - addressBytes - 1;
    if (isData(type)) {
      run.low = Math.min(run.low, address);
      run.high = Math.max(run.high, address + length);
      visit?.(address, hexAt, length);
      run.dataRecords++;
    } else if (type === 0 && run.records === 0) run.header = headerText(b, hexAt, length);
    counted = isCount(type) ? address : -1;
    run.records++;
    at = end;
    // CR LF, LF or CR after the terminator belong to the chunk; blank lines between records too.
    if (isTerminator(type)) {
      if (b[at] === CR) at++;
      if (b[at] === LF) at++;
      run.ended = true;
      break;
    }
    while (at < b.length && (b[at] === CR || b[at] === LF)) at++;
  }
  if (counted === run.dataRecords) {
    run.ended = true;
    run.size = trimLineEnds(b, at);
  } else run.size = run.ended ? at : trimLineEnds(b, at);
  return run;
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

/** A run cut short keeps its last record's line ending but not blank lines after it. */
function trimLineEnds(b: Uint8Array, at: number): number {
  let end = at;
  while (end > 0 && (b[end - 1] === CR || b[end - 1] === LF)) end--;
  if (b[end] === CR) end++;
  if (b[end] === LF) end++;
  return end;
}

function* layOut(b: Uint8Array, run: Run, ctx: ReadContext): Generator<Entry> {
  const low = run.dataRecords > 0 ? run.low : 0;
  const span = run.dataRecords > 0 ? run.high - run.low : 0;
  if (span > MAX_SPAN) throw new DecodeError(`s-record data spans ${span} bytes (more than ${MAX_SPAN})`);
  if (span > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
  const image = new Uint8Array(span).fill(0xff);
  walk(b, (address, hexAt, length) => {
    for (let i = 0, o = address - low; i < length; i++, o++) image[o] = byteAt(b, hexAt + 2 * i);
  });
  if (!run.ended) ctx.problem('s-records end without a terminator (S7/S8/S9) or a count (S5/S6) that agrees');
  yield { path: 'image.bin', kind: 'file', data: image };
}

export const srecFormat: ContainerFormat = {
  name: 'srec',
  // Files open with an S0 header or straight with data; 'S' alone is far too common a byte to scan for.
  magics: [0, 1, 2, 3].map((type) => ({ bytes: [S, DIGIT_0 + type] })),
  probe(data, offset) {
    const b = data.subarray(offset);
    const run = walk(b);
    // Several records in a row, some data among them: one stray valid line is no image.
    if (run.records < 2 || run.dataRecords === 0) return null;
    const range = run.high > run.low ? ` at 0x${run.low.toString(16)}–0x${(run.high - 1).toString(16)}` : '';
    const header = run.header ? `"${run.header}": ` : '';
    return {
      size: run.size,
      description: `${header}${run.dataRecords} data records${range}${run.ended ? '' : ', no terminator record'}`,
      entries: (ctx) => layOut(b.subarray(0, run.size), run, ctx),
    };
  },
};
