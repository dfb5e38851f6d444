// What Intel HEX and Motorola S-records share: lines of hex digits that each place a few bytes at an address.
// A chunk is a run of valid records from the first to the one that ends the file; its one entry is the bytes
// laid out from the lowest address written, gaps filled with 0xFF (erased flash). Each format keeps only its
// record syntax (a RecordReader); the walk over the lines, the layout and the probe's answer are here.
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { Entry, Probed, ReadContext } from '../format.js';

export const CR = 0x0d;
export const LF = 0x0a;
/** A layout spanning more is no firmware image we could use (and would be a cheap way to demand memory). */
const MAX_SPAN = 256 << 20;

const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX['0123456789ABCDEF'.charCodeAt(i)] = HEX['0123456789abcdef'.charCodeAt(i)] = i;

/** The byte written as two hex digits at b[at], or -1. */
export const byteAt = (b: Uint8Array, at: number) => {
  const hi = HEX[b[at]!]!;
  const lo = HEX[b[at + 1]!]!;
  return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
};

/** The sum of the bytes written as hex digits in b[from, end), or -1 at the first pair that is not hex. */
export function hexSum(b: Uint8Array, from: number, end: number): number {
  let sum = 0;
  for (let i = from; i < end; i += 2) {
    const v = byteAt(b, i);
    if (v < 0) return -1;
    sum += v;
  }
  return sum;
}

/** Whether a record whose text ends at b[end] ends its line there (or the input ends). */
export const endsLine = (b: Uint8Array, end: number) => end >= b.length || b[end] === CR || b[end] === LF;

export const DATA_RECORD = 0;
/** The record that ends the file (Intel's end-of-file record, an S7/S8/S9 terminator). */
export const FINAL_RECORD = 1;
export const OTHER_RECORD = 2;

/** One record as its syntax reads it (the fields of one object, reused from record to record). */
export interface HexRecord {
  /** Where its text ends, before the line ending. */
  end: number;
  kind: typeof DATA_RECORD | typeof FINAL_RECORD | typeof OTHER_RECORD;
  /** A data record's address, where its data's hex digits start, and how many bytes they write. */
  address: number;
  hexAt: number;
  length: number;
}

/** Where a run of records ends, its extent, and the address range its data covers. */
export interface RecordRun {
  size: number;
  records: number;
  dataRecords: number;
  ended: boolean;
  low: number;
  high: number;
}

/** One format's record syntax, with the state one walk carries from record to record (a base address …). */
export interface RecordReader {
  /**
   * Reads the record at b[at] into `record`: true for a valid one (checksum held, a known type, its line
   * ended), false where the run stops. `run` is the run so far.
   */
  read(b: Uint8Array, at: number, record: HexRecord, run: RecordRun): boolean;
}

/** Called with each data record's address, and where (in the text) its hex digits and how many bytes. */
type Visit = (address: number, hexAt: number, length: number) => void;

/**
 * The run of valid records from b[0], to the first that is not one or through the final record. CR LF, LF or CR
 * after the final record belong to the chunk; blank lines between records too, but not after a run cut short.
 */
export function walkRecords(b: Uint8Array, reader: RecordReader, visit?: Visit): RecordRun {
  const run: RecordRun = { size: 0, records: 0, dataRecords: 0, ended: false, low: Infinity, high: -Infinity };
  const record: HexRecord = { end: 0, kind: OTHER_RECORD, address: 0, hexAt: 0, length: 0 };
  let at = 0;
  while (reader.read(b, at, record, run)) {
    if (record.kind === DATA_RECORD) {
      run.low = Math.min(run.low, record.address);
      run.high = Math.max(run.high, record.address + record.length);
      visit?.(record.address, record.hexAt, record.length);
      run.dataRecords++;
    }
    run.records++;
    at = record.end;
    if (record.kind === FINAL_RECORD) {
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

/** How a format names itself and its missing final record in descriptions, errors and problems. */
export interface RecordSyntax {
  /** 'intel hex' */
  name: string;
  /** The description's note on a run without its final record: 'no end-of-file record'. */
  noEnd: string;
  /** The problem recorded for such a run. */
  unended: string;
  /** A reader with fresh state, for one walk. */
  reader(): RecordReader;
}

/** The probe's answer for the run at b[0]: null unless it has several records, some of them data. */
export function recordsProbed(b: Uint8Array, run: RecordRun, syntax: RecordSyntax, label = ''): Probed | null {
  // One stray valid line is no image.
  if (run.records < 2 || run.dataRecords === 0) return null;
  const range = run.high > run.low ? ` at 0x${run.low.toString(16)}–0x${(run.high - 1).toString(16)}` : '';
  return {
    size: run.size,
    description: `${label}${run.dataRecords} data records${range}${run.ended ? '' : `, ${syntax.noEnd}`}`,
    entries: (ctx) => layOut(b.subarray(0, run.size), run, syntax, ctx),
  };
}

function* layOut(b: Uint8Array, run: RecordRun, syntax: RecordSyntax, ctx: ReadContext): Generator<Entry> {
  const low = run.dataRecords > 0 ? run.low : 0;
  const span = run.dataRecords > 0 ? run.high - run.low : 0;
  if (span > MAX_SPAN) throw new DecodeError(`${syntax.name} data spans ${span} bytes (more than ${MAX_SPAN})`);
  if (span > ctx.remaining()) throw new OutputLimitError(ctx.remaining());
  const image = new Uint8Array(span).fill(0xff);
  walkRecords(b, syntax.reader(), (address, hexAt, length) => {
    for (let i = 0, o = address - low; i < length; i++, o++) image[o] = byteAt(b, hexAt + 2 * i);
  });
  if (!run.ended) ctx.problem(syntax.unended);
  yield { path: 'image.bin', kind: 'file', data: image };
}
