// The sequences section of a compressed block (RFC 8878 §3.1.1.3.2): three FSE-coded streams (literal
// length, offset, match length) interleaved in one backward bitstream, each sequence executed as soon as it
// is decoded — copy literals, then copy a match from the output already produced.
import { DecodeError } from './errors.js';
import { backwardStart, bitsAt, viewOf } from './zstd-bits.js';
import { buildFseTable, readFseDistribution, type FseTable } from './zstd-fse.js';
import type { Literals } from './zstd-literals.js';
import type { FrameOutput } from './zstd-output.js';

/**
 * An FSE table joined with what its symbols mean, two words per state so the loop loads little: state s
 * gives the value base[s] plus the next `extra` bits, then moves to `next` plus the next `nbBits` bits,
 * with meta[s] = next << 16 | nbBits << 8 | extra.
 */
export interface SequenceTable {
  log: number;
  base: Uint32Array;
  meta: Uint32Array;
}

/** One of the three codes: its symbols' values, limits, and the predefined distribution (RFC 8878 §3.1.1.3.2.2). */
interface SequenceCode {
  name: string;
  maxSymbol: number;
  maxLog: number;
  base: ArrayLike<number>;
  extra: ArrayLike<number>;
  predefined: SequenceTable;
}

function sequenceTable(fse: FseTable, base: ArrayLike<number>, extra: ArrayLike<number>): SequenceTable {
  const size = fse.symbol.length;
  const values = new Uint32Array(size);
  const meta = new Uint32Array(size);
  for (let s = 0; s < size; s++) {
    const symbol = fse.symbol[s]!;
    values[s] = base[symbol]!;
    meta[s] = ((fse.baseline[s]! << 16) | (fse.nbBits[s]! << 8) | extra[symbol]!) >>> 0;
  }
  return { log: fse.log, base: values, meta };
}

function code(
  name: string,
  maxLog: number,
  base: number[],
  extra: number[],
  predefinedLog: number,
  predefined: number[],
): SequenceCode {
  const table = sequenceTable(buildFseTable(predefined, predefinedLog), base, extra);
  return { name, maxSymbol: base.length - 1, maxLog, base, extra, predefined: table };
}

// Literal lengths: codes 0-15 are the length itself; 16-35 a base plus extra bits.
const LL_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12];
LL_EXTRA.push(13, 14, 15, 16);
const LL_BASE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128];
LL_BASE.push(256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536);
const LL_PREDEFINED = [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1];
LL_PREDEFINED.push(-1, -1, -1, -1);

// Match lengths: codes 0-31 are the length minus 3; 32-52 a base plus extra bits.
const ML_EXTRA = [
  ...new Array<number>(32).fill(0),
  1,
  1,
  1,
  1,
  2,
  2,
  3,
  3,
  4,
  4,
  5,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
];
const ML_BASE = Array.from({ length: 32 }, (_, i) => i + 3);
ML_BASE.push(35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539);
const ML_PREDEFINED = [1, 4, 3, 2, 2, 2, 2, 2, 2, ...new Array<number>(37).fill(1), ...new Array<number>(7).fill(-1)];

// Offsets: code c is 2^c plus c extra bits; codes go up to 31, the predefined table up to 28.
const OF_EXTRA = Array.from({ length: 32 }, (_, i) => i);
const OF_BASE = OF_EXTRA.map((c) => 2 ** c);
const OF_PREDEFINED = [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1];

/** Accuracy logs: at most 9 for literal and match lengths, 8 for offsets; predefined 6, 6, 5. */
const LITERAL_LENGTHS = code('literal length', 9, LL_BASE, LL_EXTRA, 6, LL_PREDEFINED);
const OFFSETS = code('offset', 8, OF_BASE, OF_EXTRA, 5, OF_PREDEFINED);
const MATCH_LENGTHS = code('match length', 9, ML_BASE, ML_EXTRA, 6, ML_PREDEFINED);

/** What the sequences sections of one frame share: the last table of each code and the repeat offsets. */
export class SequenceState {
  literalLengths: SequenceTable | null = null;
  offsets: SequenceTable | null = null;
  matchLengths: SequenceTable | null = null;
  rep1 = 1;
  rep2 = 4;
  rep3 = 8;
}

const PREDEFINED = 0;
const RLE = 1;
const FSE = 2;

/** The table for one code by its 2-bit mode; `at` moves past any description. */
function readTable(
  kind: SequenceCode,
  mode: number,
  previous: SequenceTable | null,
  src: Uint8Array,
  cursor: { at: number },
  end: number,
): SequenceTable {
  if (mode === PREDEFINED) return kind.predefined;
  if (mode === RLE) {
    if (cursor.at >= end) throw new DecodeError(`zstd: ${kind.name} RLE byte missing`);
    const symbol = src[cursor.at++]!;
    if (symbol > kind.maxSymbol) throw new DecodeError(`zstd: ${kind.name} code ${symbol} above ${kind.maxSymbol}`);
    return { log: 0, base: Uint32Array.of(kind.base[symbol]!), meta: Uint32Array.of(kind.extra[symbol]!) };
  }
  if (mode === FSE) {
    const dist = readFseDistribution(src, cursor.at, end, kind.maxSymbol, kind.maxLog);
    cursor.at = dist.end;
    return sequenceTable(buildFseTable(dist.counts, dist.log), kind.base, kind.extra);
  }
  if (!previous) throw new DecodeError(`zstd: repeated ${kind.name} table without an earlier one`);
  return previous;
}

/**
 * Decodes the sequences section at src[at, end) (the rest of the block) and executes it into `out`, with
 * the block's literals. A block adds at most `blockMax` bytes; matches reach back at most `window` bytes and
 * never before the frame's start.
 */
export function decodeSequences(
  src: Uint8Array,
  at: number,
  end: number,
  state: SequenceState,
  literals: Literals,
  out: FrameOutput,
  window: number,
  blockMax: number,
): void {
  if (at >= end) throw new DecodeError('zstd: sequences section missing');
  // Sequence count: 1 byte below 128, 2 bytes below 255, else 0x7F00 plus the next 2 bytes.
  const b0 = src[at]!;
  const headerSize = b0 < 128 ? 1 : b0 < 255 ? 2 : 3;
  if (at + headerSize > end) throw new DecodeError('zstd: sequences header truncated');
  const count =
    b0 < 128 ? b0 : b0 < 255 ? ((b0 - 128) << 8) + src[at + 1]! : src[at + 1]! + (src[at + 2]! << 8) + 0x7f00;
  const cursor = { at: at + headerSize };
  const blockStart = out.length;
  const blockEnd = out.reserveUpTo(blockMax);
  const overflow = (to: number): never => {
    if (to - blockStart > blockMax) throw new DecodeError(`zstd: block decodes to more than ${blockMax} bytes`);
    return out.refuse();
  };
  let lp = literals.start;
  if (count > 0) {
    if (cursor.at >= end) throw new DecodeError('zstd: sequence modes missing');
    const modes = src[cursor.at++]!;
    if (modes & 3) throw new DecodeError('zstd: reserved bits set in sequence modes');
    const ll = readTable(LITERAL_LENGTHS, modes >> 6, state.literalLengths, src, cursor, end);
    const of = readTable(OFFSETS, (modes >> 4) & 3, state.offsets, src, cursor, end);
    const ml = readTable(MATCH_LENGTHS, (modes >> 2) & 3, state.matchLengths, src, cursor, end);
    state.literalLengths = ll;
    state.offsets = of;
    state.matchLengths = ml;
    lp = execute(src, cursor.at, end, count, [ll, of, ml], state, literals, out, blockEnd, window, overflow);
  } else if (cursor.at !== end) throw new DecodeError('zstd: bytes after an empty sequences section');

  const rest = literals.end - lp;
  if (out.length + rest > blockEnd) overflow(out.length + rest);
  out.buf.set(literals.src.subarray(lp, literals.end), out.length);
  out.length += rest;
}

/** Matches this long that do not overlap themselves are copied by copyWithin (memmove), past its call cost. */
const LONG_MATCH = 64;

/**
 * The sequence loop: decodes each sequence from the bitstream at src[start, end) and executes it into
 * `out`, up to `blockEnd` (past it, `overflow` throws the right error). Returns where it stopped taking
 * literals. Written out in one function, without helpers, because V8 stops inlining into a function this
 * size and a call per copy costs more than the copy.
 *
 * The three extra-bit fields are read with one 25-bit read when they fit (nearly always), as are the three
 * state updates. Copies go 8 bytes at a time through DataViews (4-byte reads and writes), 16 at first for
 * matches, and may write up to 16 bytes past their end (the output keeps WILDCOPY_SLACK spare bytes, which
 * later bytes overwrite): loops whose trip counts vary from one sequence to the next cost more in
 * mispredicted branches than the spare bytes. Matches at least 8 bytes back copy in 8-byte steps, which
 * also repeat overlapping matches correctly since each step reads only bytes already final.
 */
function execute(
  src: Uint8Array,
  start: number,
  end: number,
  count: number,
  [ll, of, ml]: [SequenceTable, SequenceTable, SequenceTable],
  state: SequenceState,
  literals: Literals,
  out: FrameOutput,
  blockEnd: number,
  window: number,
  overflow: (to: number) => never,
): number {
  const { base: llBase, meta: llMeta } = ll;
  const { base: ofBase, meta: ofMeta } = of;
  const { base: mlBase, meta: mlMeta } = ml;
  const view = viewOf(src);
  const buf = out.buf;
  const outView = viewOf(buf);
  const lits = literals.src;
  const litsView = viewOf(lits);
  const litEnd = literals.end;
  // Literal runs are copied wide when the 8-byte steps stay inside the literals' buffer.
  const litsWideEnd = lits.length - 8;
  let lp = literals.start;
  let op = out.length;
  let p = backwardStart(src, start, end) - ll.log;
  let llState = bitsAt(view, start, end, p, ll.log);
  p -= of.log;
  let ofState = bitsAt(view, start, end, p, of.log);
  p -= ml.log;
  let mlState = bitsAt(view, start, end, p, ml.log);
  let { rep1, rep2, rep3 } = state;
  for (let i = 0; i < count; i++) {
    const ofInfo = ofMeta[ofState]!;
    const mlInfo = mlMeta[mlState]!;
    const llInfo = llMeta[llState]!;
    // Extra bits: offset's first, then match length's, then literal length's.
    const ofBits = ofInfo & 0xff;
    const mlBits = mlInfo & 0xff;
    const llBits = llInfo & 0xff;
    let offset = ofBase[ofState]!;
    let matchLength = mlBase[mlState]!;
    let literalLength = llBase[llState]!;
    const extra = ofBits + mlBits + llBits;
    if (extra <= 25) {
      p -= extra;
      const v = bitsAt(view, start, end, p, extra);
      literalLength += v & ((1 << llBits) - 1);
      matchLength += (v >>> llBits) & ((1 << mlBits) - 1);
      offset += v >>> (llBits + mlBits);
    } else {
      // Offsets take up to 31 bits: above 24 they are read in two.
      const high = Math.max(ofBits - 24, 0);
      p -= high;
      offset += bitsAt(view, start, end, p, high) * 0x1000000;
      p -= ofBits - high;
      offset += bitsAt(view, start, end, p, ofBits - high);
      p -= mlBits;
      matchLength += bitsAt(view, start, end, p, mlBits);
      p -= llBits;
      literalLength += bitsAt(view, start, end, p, llBits);
    }
    if (offset > 3) {
      offset -= 3;
      rep3 = rep2;
      rep2 = rep1;
      rep1 = offset;
    } else {
      // 1-3 name the repeat offsets; after no literals they shift by one, and 3 means rep1 - 1.
      const which = literalLength === 0 ? offset : offset - 1;
      if (which === 0) offset = rep1;
      else {
        offset = which === 1 ? rep2 : which === 2 ? rep3 : rep1 - 1;
        if (offset === 0) throw new DecodeError('zstd: repeat offset of 0');
        if (which !== 1) rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      }
    }
    if (i + 1 < count) {
      // State updates: literal length's bits first, then match length's, then offset's (at most 9 + 9 + 8).
      const llNb = (llInfo >>> 8) & 0xff;
      const mlNb = (mlInfo >>> 8) & 0xff;
      const ofNb = (ofInfo >>> 8) & 0xff;
      if (llNb + mlNb + ofNb <= 25) {
        p -= llNb + mlNb + ofNb;
        const v = bitsAt(view, start, end, p, llNb + mlNb + ofNb);
        ofState = (ofInfo >>> 16) + (v & ((1 << ofNb) - 1));
        mlState = (mlInfo >>> 16) + ((v >>> ofNb) & ((1 << mlNb) - 1));
        llState = (llInfo >>> 16) + (v >>> (ofNb + mlNb));
      } else {
        p -= llNb;
        llState = (llInfo >>> 16) + bitsAt(view, start, end, p, llNb);
        p -= mlNb + ofNb;
        const v = bitsAt(view, start, end, p, mlNb + ofNb);
        ofState = (ofInfo >>> 16) + (v & ((1 << ofNb) - 1));
        mlState = (mlInfo >>> 16) + (v >>> ofNb);
      }
      if (p < 0) throw new DecodeError('zstd: sequences bitstream ends early');
    }

    if (literalLength > litEnd - lp) throw new DecodeError('zstd: sequences take more literals than the block has');
    const seqEnd = op + literalLength + matchLength;
    if (seqEnd > blockEnd) overflow(seqEnd);
    if (lp + literalLength <= litsWideEnd) {
      for (let k = 0; k < literalLength; k += 8) {
        outView.setInt32(op + k, litsView.getInt32(lp + k, true), true);
        outView.setInt32(op + k + 4, litsView.getInt32(lp + k + 4, true), true);
      }
    } else buf.set(lits.subarray(lp, lp + literalLength), op);
    op += literalLength;
    lp += literalLength;
    if (offset > op) throw new DecodeError(`zstd: match offset ${offset} before the frame's start`);
    if (offset > window) throw new DecodeError(`zstd: match offset ${offset} beyond the ${window}-byte window`);
    let from = op - offset;
    if (matchLength >= LONG_MATCH && offset >= matchLength) {
      buf.copyWithin(op, from, seqEnd - offset);
      op = seqEnd;
    } else if (offset >= 8) {
      outView.setInt32(op, outView.getInt32(from, true), true);
      outView.setInt32(op + 4, outView.getInt32(from + 4, true), true);
      outView.setInt32(op + 8, outView.getInt32(from + 8, true), true);
      outView.setInt32(op + 12, outView.getInt32(from + 12, true), true);
      for (let k = 16; k < matchLength; k += 8) {
        outView.setInt32(op + k, outView.getInt32(from + k, true), true);
        outView.setInt32(op + k + 4, outView.getInt32(from + k + 4, true), true);
      }
      op = seqEnd;
    } else if (offset === 1) {
      buf.fill(buf[from]!, op, seqEnd);
      op = seqEnd;
    } else while (op < seqEnd) buf[op++] = buf[from++]!;
  }
  if (p !== 0) throw new DecodeError('zstd: sequences bitstream length does not match');
  state.rep1 = rep1;
  state.rep2 = rep2;
  state.rep3 = rep3;
  out.length = op;
  return lp;
}
