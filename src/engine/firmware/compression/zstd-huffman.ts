// Huffman-coded literals (RFC 8878 §4.2): the tree description (weights, given directly as 4-bit numbers or
// FSE-compressed), the lookup table built from it, and the backward streams it decodes.
import { DecodeError } from './errors.js';
import { backwardStart, bitsAt, viewOf } from './zstd-bits.js';
import { buildFseTable, readFseDistribution } from './zstd-fse.js';

/**
 * Lookup table indexed by the next `log` bits of a stream: entry = symbol | codeLength << 8. A symbol of
 * weight w (code length log + 1 - w) fills 2^(w-1) consecutive entries.
 */
export interface HuffmanTable {
  log: number;
  entries: Uint16Array;
}

/** Codes are at most 11 bits long (RFC 8878 §4.2.1): a 2048-entry table. */
const MAX_BITS = 11;
/** FSE-compressed weights use an accuracy log of at most 6. */
const WEIGHT_FSE_MAX_LOG = 6;
/** At most 256 symbols: 255 weights given, the last one implied. */
const MAX_WEIGHTS = 255;
/** A header byte below 128 is the size of FSE-compressed weights; from 128 up it counts 4-bit weights + 127. */
const DIRECT_WEIGHTS = 128;

/** Reads a tree description at src[start, end); returns its table and the byte after it. */
export function readHuffmanTable(src: Uint8Array, start: number, end: number): { table: HuffmanTable; end: number } {
  if (start >= end) throw new DecodeError('zstd: Huffman tree description missing');
  const header = src[start]!;
  const weights = new Uint8Array(MAX_WEIGHTS + 1);
  let count: number;
  let after: number;
  if (header < DIRECT_WEIGHTS) {
    after = start + 1 + header;
    if (header === 0 || after > end) throw new DecodeError('zstd: Huffman weights run past the literals');
    count = readCompressedWeights(src, start + 1, after, weights);
  } else {
    count = header - (DIRECT_WEIGHTS - 1);
    after = start + 1 + ((count + 1) >> 1);
    if (after > end) throw new DecodeError('zstd: Huffman weights run past the literals');
    for (let i = 0; i < count; i++) {
      const byte = src[start + 1 + (i >> 1)]!;
      weights[i] = i & 1 ? byte & 15 : byte >> 4;
    }
  }
  return { table: buildHuffmanTable(weights, count), end: after };
}

/**
 * Two FSE states over one table take turns decoding weights until a state update reads past the stream's
 * start; then the other state gives the last weight. The cap on weights bounds the loop even where a state
 * reads no bits at all.
 */
function readCompressedWeights(src: Uint8Array, start: number, end: number, weights: Uint8Array): number {
  const dist = readFseDistribution(src, start, end, MAX_WEIGHTS, WEIGHT_FSE_MAX_LOG);
  const { symbol, nbBits, baseline, log } = buildFseTable(dist.counts, dist.log);
  const view = viewOf(src);
  const at = dist.end;
  let p = backwardStart(src, at, end) - log;
  let state1 = bitsAt(view, at, end, p, log);
  p -= log;
  let state2 = bitsAt(view, at, end, p, log);
  let n = 0;
  for (;;) {
    // n is even here; two weights and a final one must still fit.
    if (n > MAX_WEIGHTS - 3) throw new DecodeError(`zstd: more than ${MAX_WEIGHTS} Huffman weights`);
    weights[n++] = symbol[state1]!;
    p -= nbBits[state1]!;
    state1 = baseline[state1]! + bitsAt(view, at, end, p, nbBits[state1]!);
    if (p < 0) {
      weights[n++] = symbol[state2]!;
      return n;
    }
    weights[n++] = symbol[state2]!;
    p -= nbBits[state2]!;
    state2 = baseline[state2]! + bitsAt(view, at, end, p, nbBits[state2]!);
    if (p < 0) {
      weights[n++] = symbol[state1]!;
      return n;
    }
  }
}

/**
 * Weights 1…11 stand for 2^(w-1) leaves each; their sum sets the code length, and the last symbol's weight
 * is what completes it to a power of two (which it must be exactly).
 */
function buildHuffmanTable(weights: Uint8Array, count: number): HuffmanTable {
  const perWeight = new Uint16Array(MAX_BITS + 2);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const w = weights[i]!;
    if (w > MAX_BITS) throw new DecodeError(`zstd: Huffman weight ${w} above ${MAX_BITS}`);
    perWeight[w]!++;
    total += (1 << w) >> 1;
  }
  if (total === 0) throw new DecodeError('zstd: Huffman weights are all zero');
  const log = 32 - Math.clz32(total);
  if (log > MAX_BITS) throw new DecodeError(`zstd: Huffman codes longer than ${MAX_BITS} bits`);
  const rest = (1 << log) - total;
  const last = 32 - Math.clz32(rest);
  if (1 << (last - 1) !== rest) throw new DecodeError('zstd: Huffman weights do not complete a tree');
  weights[count] = last;
  perWeight[last]!++;
  // Longest codes (lowest weights) take the lowest entries.
  const next = new Uint16Array(MAX_BITS + 2);
  for (let w = 1, at = 0; w <= log; w++) {
    next[w] = at;
    at += perWeight[w]! << (w - 1);
  }
  const entries = new Uint16Array(1 << log);
  for (let s = 0; s <= count; s++) {
    const w = weights[s]!;
    if (w === 0) continue;
    const at = next[w]!;
    const span = 1 << (w - 1);
    entries.fill(s | ((log + 1 - w) << 8), at, at + span);
    next[w] = at + span;
  }
  return { log, entries };
}

/** Decodes `size` literals into out[0, size) from one stream at src[start, end) or four behind a jump table. */
export function decodeHuffmanLiterals(
  table: HuffmanTable,
  src: Uint8Array,
  start: number,
  end: number,
  four: boolean,
  out: Uint8Array,
  size: number,
): void {
  const view = viewOf(src);
  if (!four) {
    finishStream(table, view, start, end, backwardStart(src, start, end), out, 0, size);
    return;
  }
  // Jump table: three 16-bit stream sizes (the fourth takes the rest); streams 1-3 give ⌈size/4⌉ literals.
  if (end - start < 6) throw new DecodeError('zstd: Huffman jump table truncated');
  const start1 = start + 6;
  const start2 = start1 + (src[start]! | (src[start + 1]! << 8));
  const start3 = start2 + (src[start + 2]! | (src[start + 3]! << 8));
  const start4 = start3 + (src[start + 4]! | (src[start + 5]! << 8));
  if (start4 >= end) throw new DecodeError('zstd: Huffman jump table points past the literals');
  const segment = (size + 3) >> 2;
  if (3 * segment > size) throw new DecodeError(`zstd: ${size} literals cannot fill four streams`);
  let p1 = backwardStart(src, start1, start2);
  let p2 = backwardStart(src, start2, start3);
  let p3 = backwardStart(src, start3, start4);
  let p4 = backwardStart(src, start4, end);
  const { entries, log } = table;
  const mask = (1 << log) - 1;
  // The four streams interleaved, so their table lookups overlap. Each symbol takes at most `log` bits, and
  // a stream's 4-byte reads stay in bounds while its position is at least `log`: they start at or above its
  // first byte and at most at its last (the bytes past its end belong to the next stream or the rest of the
  // block, masked off; stream 4's must still lie inside src). So `safe` symbols can be decoded from each
  // without checks; then the bound is worked out again, and finishStream does the last few with checks.
  let o1 = 0;
  let o2 = segment;
  let o3 = 2 * segment;
  let o4 = 3 * segment;
  for (let safe = end + 3 <= src.length ? 4 : 0; safe >= 4;) {
    safe = Math.min(Math.floor((Math.min(p1, p2, p3, p4) - log) / log) + 1, size - o4);
    for (let n = safe; n > 0; n--) {
      let low = p1 - log;
      let entry = entries[(view.getInt32(start1 + (low >> 3), true) >>> (low & 7)) & mask]!;
      out[o1++] = entry;
      p1 -= entry >>> 8;
      low = p2 - log;
      entry = entries[(view.getInt32(start2 + (low >> 3), true) >>> (low & 7)) & mask]!;
      out[o2++] = entry;
      p2 -= entry >>> 8;
      low = p3 - log;
      entry = entries[(view.getInt32(start3 + (low >> 3), true) >>> (low & 7)) & mask]!;
      out[o3++] = entry;
      p3 -= entry >>> 8;
      low = p4 - log;
      entry = entries[(view.getInt32(start4 + (low >> 3), true) >>> (low & 7)) & mask]!;
      out[o4++] = entry;
      p4 -= entry >>> 8;
    }
  }
  finishStream(table, view, start1, start2, p1, out, o1, segment);
  finishStream(table, view, start2, start3, p2, out, o2, 2 * segment);
  finishStream(table, view, start3, start4, p3, out, o3, 3 * segment);
  finishStream(table, view, start4, end, p4, out, o4, size);
}

/** The rest of one stream, from bit position `p` into out[from, to), with checked reads: it must end exactly. */
function finishStream(
  table: HuffmanTable,
  view: DataView,
  start: number,
  end: number,
  p: number,
  out: Uint8Array,
  from: number,
  to: number,
): void {
  const { entries, log } = table;
  for (let o = from; o < to; o++) {
    const entry = entries[bitsAt(view, start, end, p - log, log)]!;
    out[o] = entry;
    p -= entry >>> 8;
  }
  if (p !== 0) throw new DecodeError('zstd: Huffman stream length does not match');
}
