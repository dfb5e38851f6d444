// PPMd var.H as 7-Zip's PPMD coder (method 030401) stores it: 5 property bytes (model order 2–64, model memory
// size, little-endian 32-bit) and the symbols range-coded with 7-Zip's coder (a 0x00 byte, then a 32-bit
// code; totals divide the range, binary contexts use 14-bit probabilities). The model is ppmd-model.ts.
import { DecodeError } from '../../compression/errors.js';
import { DUMMY_SEE, MAX_ORDER, NS_TO_BS_INDEX, NS_TO_INDEX, PERIOD_BITS, PpmdModel } from './ppmd-model.js';

const MIN_MEMORY = 1 << 11;
/**
 * The model's memory is allocated whole (lazily zeroed, so untouched pages cost nothing) and the model only
 * grows with the output; still, a block past 2 GiB is refused. 7-Zip's largest preset uses 192 MiB.
 */
const MAX_MEMORY = 2 ** 31 - 64;
const TOP = 1 << 24;
const EXP_ESCAPE = Uint8Array.of(25, 14, 9, 7, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2);
/** 8 for symbols 0x40 and up: one of the bits choosing a binary or SEE context. */
const HIGH_BIT_FLAG = new Uint8Array(256).fill(8, 0x40);

/** 7-Zip's range decoder for PPMd; reading past the input gives zeros and is counted. */
class RangeDecoder {
  range = 0xffffffff;
  code: number;
  pos = 5;
  over = 0;

  constructor(private readonly input: Uint8Array) {
    if (input.length < 5 || input[0] !== 0) throw new DecodeError('PPMd range coder does not start with 0x00');
    this.code = ((input[1]! << 24) | (input[2]! << 16) | (input[3]! << 8) | input[4]!) >>> 0;
    if (this.code === 0xffffffff) throw new DecodeError('PPMd range coder start is invalid');
  }

  private next(): number {
    if (this.pos < this.input.length) return this.input[this.pos++]!;
    this.over++;
    return 0;
  }

  private normalize(): void {
    if (this.range < TOP) {
      this.code = ((this.code << 8) | this.next()) >>> 0;
      this.range = (this.range << 8) >>> 0;
      if (this.range < TOP) {
        this.code = ((this.code << 8) | this.next()) >>> 0;
        this.range = (this.range << 8) >>> 0;
      }
    }
  }

  threshold(total: number): number {
    this.range = Math.floor(this.range / total);
    return Math.floor(this.code / this.range);
  }

  decode(start: number, size: number): void {
    this.code -= start * this.range;
    this.range *= size;
    this.normalize();
  }

  bit(size0: number): number {
    const bound = (this.range >>> 14) * size0;
    let bit = 0;
    if (this.code < bound) this.range = bound;
    else {
      this.code -= bound;
      this.range -= bound;
      bit = 1;
    }
    this.normalize();
    return bit;
  }
}

/** `size` bytes of a 7z PPMD stream. */
export function decodePpmd(input: Uint8Array, props: Uint8Array, size: number): Uint8Array {
  if (props.length !== 5) throw new DecodeError('PPMd properties are not 5 bytes');
  const order = props[0]!;
  const memory = (props[1]! | (props[2]! << 8) | (props[3]! << 16) | (props[4]! << 24)) >>> 0;
  if (order < 2 || order > MAX_ORDER || memory < MIN_MEMORY || memory > MAX_MEMORY)
    throw new DecodeError(`PPMd order ${order} with ${memory} bytes of model memory is not read`);
  const rc = new RangeDecoder(input);
  const out = new Uint8Array(size);
  if (size === 0) return out;
  let model: PpmdModel;
  try {
    model = new PpmdModel(order, memory);
  } catch (err) {
    if (err instanceof RangeError) throw new DecodeError(`PPMd model memory of ${memory} bytes cannot be allocated`);
    throw err;
  }
  const decoder = new SymbolDecoder(model, rc);
  for (let i = 0; i < size; i++) {
    const symbol = decoder.next();
    if (symbol < 0 || rc.over > 0) throw new DecodeError(`PPMd data ends early or is corrupt at byte ${i}`);
    out[i] = symbol;
  }
  return out;
}

class SymbolDecoder {
  /** 1 for the symbols not yet ruled out in the current escape chain, 0 for those masked. */
  private readonly open = new Uint8Array(256);
  private readonly ps = new Int32Array(256);

  constructor(
    private readonly m: PpmdModel,
    private readonly rc: RangeDecoder,
  ) {}

  /** The next symbol, or −1 at an end marker, −2 on data that no model state explains. */
  next(): number {
    const { m, rc, open } = this;
    const heap = m.heap;
    const mc = m.minContext;
    if (m.numStats(mc) !== 1) {
      let s = m.stats(mc);
      const summ = m.summFreq(mc);
      const count = rc.threshold(summ);
      let hiCnt = heap[s + 1]!;
      if (count < hiCnt) {
        rc.decode(0, hiCnt);
        m.foundState = s;
        const symbol = heap[s]!;
        m.update1First();
        return symbol;
      }
      m.prevSuccess = 0;
      for (let i = m.numStats(mc) - 1; i > 0; i--) {
        s += 6;
        const freq = heap[s + 1]!;
        if ((hiCnt += freq) > count) {
          rc.decode(hiCnt - freq, freq);
          m.foundState = s;
          const symbol = heap[s]!;
          m.update1();
          return symbol;
        }
      }
      if (count >= summ) return -2;
      m.hiBitsFlag = HIGH_BIT_FLAG[heap[m.foundState]!]!;
      rc.decode(hiCnt, summ - hiCnt);
      open.fill(1);
      for (let i = m.numStats(mc), t = m.stats(mc); i > 0; i--, t += 6) open[heap[t]!] = 0;
    } else {
      const one = mc + 2;
      m.hiBitsFlag = HIGH_BIT_FLAG[heap[m.foundState]!]!;
      const index =
        (heap[one + 1]! - 1) * 64 +
        m.prevSuccess +
        NS_TO_BS_INDEX[m.numStats(m.suffix(mc)) - 1]! +
        m.hiBitsFlag +
        2 * HIGH_BIT_FLAG[heap[one]!]! +
        ((m.runLength >> 26) & 0x20);
      const prob = m.binSumm[index]!;
      if (rc.bit(prob) === 0) {
        m.binSumm[index] = prob + 128 - ((prob + 32) >>> 7);
        m.foundState = one;
        const symbol = heap[one]!;
        m.updateBin();
        return symbol;
      }
      const next = prob - ((prob + 32) >>> 7);
      m.binSumm[index] = next;
      m.initEsc = EXP_ESCAPE[next >>> 10]!;
      open.fill(1);
      open[heap[one]!] = 0;
      m.prevSuccess = 0;
    }
    return this.escaped();
  }

  /** After an escape: the symbol from the shorter contexts, their symbols already seen masked out. */
  private escaped(): number {
    const { m, rc, open, ps } = this;
    const heap = m.heap;
    for (;;) {
      const numMasked = m.numStats(m.minContext);
      let mc: number;
      do {
        m.orderFall++;
        mc = m.suffix(m.minContext);
        if (mc === 0) return -1;
        m.minContext = mc;
      } while (m.numStats(mc) === numMasked);
      const ns = m.numStats(mc);
      const num = ns - numMasked;
      let hiCnt = 0;
      let i = 0;
      // Branch-free: a masked state is written to ps and then overwritten, its frequency multiplied by 0.
      for (let k = 0, s = m.stats(mc); k < ns && i < num; k++, s += 6) {
        const keep = open[heap[s]!]!;
        hiCnt += heap[s + 1]! * keep;
        ps[i] = s;
        i += keep;
      }
      if (i !== num) return -2;

      let see = DUMMY_SEE;
      let escFreq = 1;
      if (ns !== 256) {
        see =
          NS_TO_INDEX[num - 1]! * 16 +
          (num < (m.numStats(m.suffix(mc)) - ns) >>> 0 ? 1 : 0) +
          2 * (m.summFreq(mc) < 11 * ns ? 1 : 0) +
          4 * (numMasked > num ? 1 : 0) +
          m.hiBitsFlag;
        const summ = m.seeSumm[see]!;
        const r = summ >>> m.seeShift[see]!;
        m.seeSumm[see] = summ - r;
        escFreq = r + (r === 0 ? 1 : 0);
      }
      const freqSum = escFreq + hiCnt;
      const count = rc.threshold(freqSum);
      if (count < hiCnt) {
        let k = 0;
        let s = ps[0]!;
        let sum = heap[s + 1]!;
        while (sum <= count) {
          s = ps[++k]!;
          sum += heap[s + 1]!;
        }
        rc.decode(sum - heap[s + 1]!, heap[s + 1]!);
        const shift = m.seeShift[see]!;
        if (shift < PERIOD_BITS) {
          const left = m.seeCount[see]! - 1;
          m.seeCount[see] = left;
          if (left === 0) {
            m.seeSumm[see] = m.seeSumm[see]! << 1;
            m.seeCount[see] = 3 << shift;
            m.seeShift[see] = shift + 1;
          }
        }
        m.foundState = s;
        const symbol = heap[s]!;
        m.update2();
        return symbol;
      }
      if (count >= freqSum) return -2;
      rc.decode(hiCnt, freqSum - hiCnt);
      m.seeSumm[see] = m.seeSumm[see]! + freqSum;
      for (let j = 0; j < i; j++) open[heap[ps[j]!]!] = 0;
    }
  }
}
