// Intel HEX: ASCII records `:LLAAAATT<data>CC`, one per line, that place bytes at 16-bit offsets from a base
// set by extended segment (02: base = value · 16) or extended linear (04: base = value · 65536) records, ending
// at the end-of-file record (01). A chunk is a run of valid records from the first to the end-of-file record;
// its one entry is the bytes laid out from the lowest address written, gaps filled with 0xFF (erased flash).
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { ContainerFormat, Entry, ReadContext } from '../format.js';

const COLON = 0x3a;
const CR = 0x0d;
const LF = 0x0a;
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
/** A layout spanning more is no firmware image we could use (and would be a cheap way to demand memory). */
const MAX_SPAN = 256 << 20;

const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX['0123456789ABCDEF'.charCodeAt(i)] = HEX['0123456789abcdef'.charCodeAt(i)] = i;

/** The byte written as two hex digits at b[at], or -1. */
const byteAt = (b: Uint8Array, at: number) => {
  const hi = HEX[b[at]!]!;
  const lo = HEX[b[at + 1]!]!;
  return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
};

/** Where a run of records ends, its extent, and the address range its data covers. */
interface Run {
  size: number;
  records: number;
  dataRecords: number;
  ended: boolean;
  low: number;
  high: number;
}

/** Called with each data record's address, and where (in the text) its hex digits and how many bytes. */
type Visit = (address: number, hexAt: number, length: number) => void;

/**
 * The run of valid records from b[0]: each `:`, hex digits whose checksum holds, a known type with the payload
 * it needs, then a line ending (or the input's end). Stops at the first record that is not, or after the
 * end-of-file record.
 */
function walk(b: Uint8Array, visit?: Visit): Run {
  const run: Run = { size: 0, records: 0, dataRecords: 0, ended: false, low: Infinity, high: -Infinity };
  let base = 0;
  let at = 0;
  while (at + 11 <= b.length && b[at] === COLON) {
    const length = byteAt(b, at + 1);
    const end = at + 11 + 2 * length;
    if (length < 0 || end > b.length) break;
    let sum = 0;
    for (let i = at + 1; i < end; i += 2) {
      const v = byteAt(b, i);
      if (v < 0) {
        sum = -1;
        break;
      }
      sum += v;
    }
    const type = byteAt(b, at + 7);
    if (sum < 0 || (sum & 0xff) !== 0 || (type !== DATA && PAYLOAD[type] !== length)) break;
    const isEnd = type === END_OF_FILE;
    if (!isEnd && end < b.length && b[end] !== CR && b[end] !== LF) break;
    const offset = (byteAt(b, at + 3) << 8) | byteAt(b, at + 5);
    if (type === DATA) {
      const address = base + offset;
      run.low = Math.min(run.low, address);
      run.high = Math.max(run.high, address + length);
      visit?.(address, at + 9, length);
      run.dataRecords++;
    } else if (type === EXTENDED_SEGMENT) base = ((byteAt(b, at + 9) << 8) | byteAt(b, at + 11)) * 16;
    else if (type === EXTENDED_LINEAR) base = ((byteAt(b, at + 9) << 8) | byteAt(b, at + 11)) * 65536;
    run.records++;
    at = end;
    // CR LF, LF or CR after the end-of-file record belong to the chunk; blank lines between records too.
    if (isEnd) {
      if (b[at] === CR) at++;
      if (b[at] === LF) at++;
      run.ended = true;
      break;
    }
    while (at < b.length && (b[at] === CR || b[at] === LF)) at++;
  }
  run.size = run.ended ? at : trimLineEnds(b, at);
  return run;
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
  if (span > MAX_SPAN) throw new DecodeError(`intel hex data spans ${span} bytes (more than ${MAX_SPAN})`);
  if (span > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
  const image = new Uint8Array(span).fill(0xff);
  walk(b, (address, hexAt, length) => {
    for (let i = 0, o = address - low; i < length; i++, o++) image[o] = byteAt(b, hexAt + 2 * i);
  });
  if (!run.ended) ctx.problem('intel hex records end without an end-of-file record');
  yield { path: 'image.bin', kind: 'file', data: image };
}

export const intelHexFormat: ContainerFormat = {
  name: 'intel-hex',
  magics: [{ bytes: [COLON] }],
  probe(data, offset) {
    const b = data.subarray(offset);
    // The magic is one common byte: reject at the first record that is not one, before walking further.
    if (b.length < 11 || byteAt(b, 1) < 0) return null;
    const run = walk(b);
    // Several records in a row, some data among them: one stray valid line is no image.
    if (run.records < 2 || run.dataRecords === 0) return null;
    const range = run.high > run.low ? ` at 0x${run.low.toString(16)}–0x${(run.high - 1).toString(16)}` : '';
    return {
      size: run.size,
      description: `${run.dataRecords} data records${range}${run.ended ? '' : ', no end-of-file record'}`,
      entries: (ctx) => layOut(b.subarray(0, run.size), run, ctx),
    };
  },
};
