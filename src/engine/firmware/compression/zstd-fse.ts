// Finite State Entropy tables (RFC 8878 §4.1): a distribution of normalized counts over 2^log states, read
// from a table description (or predefined), spread over the states, each state then naming its symbol and
// how to reach the next state.
import { DecodeError } from './errors.js';
import { ForwardBits } from './zstd-bits.js';

/** Decoding table: state s decodes `symbol[s]`; the next state is `baseline[s]` plus the next `nbBits[s]` bits. */
export interface FseTable {
  log: number;
  symbol: Uint8Array;
  nbBits: Uint8Array;
  baseline: Uint16Array;
}

/** Normalized counts by symbol (-1: "less than one", one state at the table's end) summing to 2^log. */
export interface FseDistribution {
  counts: Int16Array;
  log: number;
  /** The byte after the description. */
  end: number;
}

/** Accuracy logs are coded as 4 bits plus 5. */
const MIN_LOG = 5;

/** Reads a table description at src[start, end): accuracy log (≤ maxLog), then one count per symbol. */
export function readFseDistribution(
  src: Uint8Array,
  start: number,
  end: number,
  maxSymbol: number,
  maxLog: number,
): FseDistribution {
  const bits = new ForwardBits(src, start, end);
  const log = bits.read(4) + MIN_LOG;
  if (log > maxLog) throw new DecodeError(`zstd: FSE accuracy log ${log} above ${maxLog}`);
  const counts = new Int16Array(maxSymbol + 1);
  // Each count is coded plus one (so -1 fits) in just enough bits for the values still possible, 0 to
  // `remaining`; values below `small` take a bit less. A count never exceeds what remains, so `remaining`
  // stays ≥ 1, `threshold` ≥ 2 while the loop runs, and every pass takes at least one bit.
  let remaining = (1 << log) + 1;
  let threshold = 1 << log;
  let width = log + 1;
  let symbol = 0;
  while (remaining > 1) {
    if (symbol > maxSymbol) throw new DecodeError(`zstd: FSE counts for more than ${maxSymbol + 1} symbols`);
    const small = 2 * threshold - 1 - remaining;
    const peeked = bits.peek(width);
    let value = peeked & (threshold - 1);
    if (value < small) bits.skip(width - 1);
    else {
      value = peeked & (2 * threshold - 1);
      if (value >= threshold) value -= small;
      bits.skip(width);
    }
    const count = value - 1;
    counts[symbol++] = count;
    remaining -= count < 0 ? 1 : count;
    if (count === 0) {
      // A zero count is followed by 2-bit repeat flags: that many more zeros, 3 meaning "and another flag".
      for (let flag = 3; flag === 3;) {
        flag = bits.read(2);
        symbol += flag;
        if (symbol > maxSymbol + 1) throw new DecodeError(`zstd: FSE zeros past symbol ${maxSymbol}`);
      }
    }
    while (remaining < threshold) {
      width--;
      threshold >>= 1;
    }
  }
  if (remaining !== 1) throw new DecodeError('zstd: FSE counts do not fill the table');
  return { counts, log, end: bits.byteEnd() };
}

/** Spreads a distribution over its 2^log states; the counts must sum to exactly 2^log. */
export function buildFseTable(counts: ArrayLike<number>, log: number): FseTable {
  const size = 1 << log;
  let total = 0;
  for (let s = 0; s < counts.length; s++) total += counts[s] === -1 ? 1 : counts[s]!;
  if (total !== size) throw new DecodeError(`zstd: FSE counts sum to ${total}, not ${size}`);
  const symbol = new Uint8Array(size);
  const nbBits = new Uint8Array(size);
  const baseline = new Uint16Array(size);
  const next = new Uint16Array(counts.length);
  // "Less than one" symbols take one state each from the top; the rest are spread with an odd step (coprime
  // with the power-of-two size, so every state is visited) that skips the top.
  let high = size - 1;
  for (let s = 0; s < counts.length; s++) {
    if (counts[s] === -1) {
      symbol[high--] = s;
      next[s] = 1;
    } else next[s] = counts[s]!;
  }
  const step = (size >> 1) + (size >> 3) + 3;
  const mask = size - 1;
  let pos = 0;
  for (let s = 0; s < counts.length; s++) {
    for (let n = counts[s]!; n > 0; n--) {
      symbol[pos] = s;
      do pos = (pos + step) & mask;
      while (pos > high);
    }
  }
  // State u is the x-th use of its symbol (x counting up from its count): it reads enough bits to land in
  // [0, size) again.
  for (let u = 0; u < size; u++) {
    const s = symbol[u]!;
    const x = next[s]!;
    next[s] = x + 1;
    const width = log - (31 - Math.clz32(x));
    nbBits[u] = width;
    baseline[u] = (x << width) - size;
  }
  return { log, symbol, nbBits, baseline };
}
