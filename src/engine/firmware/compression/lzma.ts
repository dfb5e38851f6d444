// LZMA, the range-coded LZ77 of 7-Zip and xz: raw streams, the 13-byte ".lzma" (LZMA-alone) header of uImage
// kernels and SquashFS/JFFS2 "lzma", and the decoder state that LZMA2 (lzma2.ts) carries from chunk to chunk.
// The whole output doubles as the dictionary (it is kept anyway), so a header claiming a 1.5 GiB dictionary
// costs nothing until that much output exists: memory is bounded by maxOutput alone.
import { DecodeError, OutputLimitError, type Decoded } from './errors.js';

/** lc: literal context bits (0–8), lp: literal position bits (0–4), pb: position bits (0–4). */
export interface LzmaProps {
  lc: number;
  lp: number;
  pb: number;
  dictSize: number;
}

// The probability model is one Uint16Array with each part at a fixed offset; the literal coders come last
// because their count, 0x300 << (lc + lp), is the only part that depends on the properties.
const STATES = 12;
const POS_STATES_MAX = 16;
const IS_MATCH = 0;
const IS_REP = IS_MATCH + STATES * POS_STATES_MAX;
const IS_REP_G0 = IS_REP + STATES;
const IS_REP_G1 = IS_REP_G0 + STATES;
const IS_REP_G2 = IS_REP_G1 + STATES;
const IS_REP0_LONG = IS_REP_G2 + STATES;
/** Six-bit distance slot trees, one per length state (lengths 2, 3, 4, 5+). */
const POS_SLOT = IS_REP0_LONG + STATES * POS_STATES_MAX;
/** Reverse trees for the low bits of slots 4–13, addressed as SPEC_POS + base − slot + node (node ≥ 1): 115. */
const SPEC_POS = POS_SLOT + 4 * 64;
/** The reverse tree of the four lowest distance bits for slots 14–63. */
const ALIGN = SPEC_POS + 115;
// A length coder: choice, choice2, then low[16][8] (2–9), mid[16][8] (10–17), high[256] (18–273).
const CHOICE = 0;
const CHOICE2 = 1;
const LEN_LOW = 2;
const LEN_MID = LEN_LOW + 16 * 8;
const LEN_HIGH = LEN_MID + 16 * 8;
const LEN_CODER = LEN_HIGH + 256;
const LEN = ALIGN + 16;
const REP_LEN = LEN + LEN_CODER;
const LITERAL = REP_LEN + LEN_CODER;

/** 11-bit probabilities start at even odds. */
const HALF = 1024;
/** Distances are checked against at least this window, as liblzma and 7-Zip allocate no smaller dictionary. */
const MIN_WINDOW = 4096;
/** The first output buffer holds at least this much (or the known size, if smaller); it doubles as needed. */
const MIN_HINT = 1 << 20;
const LZMA_ALONE_HEADER = 13;
/** Sizes an LZMA-alone header may carry: 2^40 bytes is far past any real image, hence "not a header". */
const MAX_ALONE_SIZE = 2 ** 40;
const MAX_ALONE_DICT = 3 << 29;

/** Properties from the packed byte (pb × 45 + lp × 9 + lc), or null past the 225 valid values. */
export function lzmaPropsFromByte(byte: number): { lc: number; lp: number; pb: number } | null {
  if (byte >= 9 * 5 * 5) return null;
  return { lc: byte % 9, lp: Math.floor(byte / 9) % 5, pb: Math.floor(byte / 45) };
}

/**
 * One LZMA decoder's state: the probability model, the state machine and the four repeat distances, plus the
 * output it writes. LZMA2 reuses it across chunks: `resetDict`, `setProps` (which resets the state) and
 * `resetState` are its three kinds of reset, and `decode` runs one range-coded stretch.
 */
export class LzmaDecoder {
  /** Output so far; matches may reach back to `dictStart` (the last dictionary reset). */
  out: Uint8Array;
  pos = 0;
  dictStart = 0;
  private probs = new Uint16Array(0);
  private used = 0;
  private lc = 0;
  private lpMask = 0;
  private pbMask = 0;
  private state = 0;
  private rep0 = 0;
  private rep1 = 0;
  private rep2 = 0;
  private rep3 = 0;

  constructor(
    readonly limit: number,
    sizeHint: number,
    public dictSize: number,
  ) {
    this.out = new Uint8Array(Math.max(16, Math.min(sizeHint, limit)));
  }

  setProps(lc: number, lp: number, pb: number): void {
    if (lc > 8 || lp > 4 || pb > 4) throw new DecodeError(`LZMA properties lc=${lc} lp=${lp} pb=${pb} out of range`);
    this.used = LITERAL + (0x300 << (lc + lp));
    if (this.probs.length < this.used) this.probs = new Uint16Array(this.used);
    this.lc = lc;
    this.lpMask = (1 << lp) - 1;
    this.pbMask = (1 << pb) - 1;
    this.resetState();
  }

  resetState(): void {
    this.probs.fill(HALF, 0, this.used);
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
  }

  resetDict(): void {
    this.dictStart = this.pos;
  }

  /** Appends stored bytes (an LZMA2 uncompressed chunk); they join the dictionary. */
  appendStored(input: Uint8Array, start: number, end: number): void {
    if (end - start > this.limit - this.pos) throw new OutputLimitError(this.limit);
    if (this.pos + (end - start) > this.out.length) this.grow(this.pos + (end - start), this.pos);
    this.out.set(input.subarray(start, end), this.pos);
    this.pos += end - start;
  }

  /** The output, trimmed (copied when the buffer is more than an eighth larger than the data). */
  take(): Uint8Array {
    const { out, pos } = this;
    return out.length - pos > pos >>> 3 ? out.slice(0, pos) : out.subarray(0, pos);
  }

  /** A larger output buffer holding the first `used` bytes (callers have checked `need` against the limit). */
  private grow(need: number, used: number): Uint8Array {
    let size = this.out.length;
    while (size < need) size *= 2;
    const next = new Uint8Array(Math.min(size, this.limit));
    next.set(this.out.subarray(0, used));
    this.out = next;
    return next;
  }

  /**
   * Decodes the range-coded bytes input[inPos, inEnd) until the output reaches `target` (an absolute position;
   * −1 when unknown: then until an end marker, or leniently until the input ends cleanly between symbols).
   * Returns where the range decoder stopped reading.
   *
   * `range` and `code` are unsigned 32-bit values held in int32 locals: every update wraps mod 2^32 (`| 0`,
   * `Math.imul`, `<<`) and every comparison is made on `>>> 0` values, which keeps V8 on 32-bit integer
   * arithmetic.
   */
  decode(input: Uint8Array, inPos: number, inEnd: number, target: number, markerAllowed: boolean): number {
    if (inEnd - inPos < 5) throw new DecodeError('LZMA data shorter than the range coder needs');
    if (input[inPos] !== 0) throw new DecodeError('LZMA range coder does not start with 0x00');
    const known = target >= 0;
    const limit = this.limit;
    if (known && target > limit) throw new OutputLimitError(limit);
    const stop = known ? target : limit;
    let code = (input[inPos + 1]! << 24) | (input[inPos + 2]! << 16) | (input[inPos + 3]! << 8) | input[inPos + 4]!;
    let range = -1;
    inPos += 5;
    const probs = this.probs;
    const lc = this.lc;
    const lpMask = this.lpMask;
    const pbMask = this.pbMask;
    const dictStart = this.dictStart;
    const window = Math.max(this.dictSize, MIN_WINDOW);
    let out = this.out;
    let pos = this.pos;
    let state = this.state;
    let rep0 = this.rep0;
    let rep1 = this.rep1;
    let rep2 = this.rep2;
    let rep3 = this.rep3;
    let i = 0;
    let p = 0;
    let bound = 0;
    for (;;) {
      // Each adaptive bit is this normalization, then bound, compare and adapt, written out in place so the
      // coder's state stays in locals: decoding a 20 MB .xz took 27 % more CPU time with a range-decoder object
      // and bit/tree helpers (324 ms against 255 ms, Node 20), 68 % more with closures over these locals.
      if (range >>> 24 === 0) {
        if (inPos >= inEnd) throw truncated();
        range <<= 8;
        code = (code << 8) | input[inPos++]!;
      }
      if (pos === target) {
        if (code === 0) break;
        if (!markerAllowed) throw new DecodeError('LZMA data goes on past its declared size');
      } else if (!known && code === 0 && inPos === inEnd) break;
      const posState = (pos - dictStart) & pbMask;

      // Is-match bit (the range was normalized just above): a literal (0) or a match (1).
      i = IS_MATCH + (state << 4) + posState;
      p = probs[i]!;
      bound = Math.imul(range >>> 11, p);
      if (code >>> 0 < bound >>> 0) {
        range = bound;
        probs[i] = p + ((2048 - p) >>> 5);
        if (pos >= stop) throw overrun(known, limit);
        const prev = pos > dictStart ? out[pos - 1]! : 0;
        const base = LITERAL + 0x300 * ((((pos - dictStart) & lpMask) << lc) | (prev >>> (8 - lc)));
        let sym = 1;
        if (state >= 7) {
          // After a match the literal is coded against the byte at rep0, up to the first bit that differs.
          let match = out[pos - rep0 - 1]!;
          do {
            const matchBit = (match >>> 7) & 1;
            match <<= 1;
            i = base + ((1 + matchBit) << 8) + sym;
            p = probs[i]!;
            if (range >>> 24 === 0) {
              if (inPos >= inEnd) throw truncated();
              range <<= 8;
              code = (code << 8) | input[inPos++]!;
            }
            bound = Math.imul(range >>> 11, p);
            if (code >>> 0 < bound >>> 0) {
              range = bound;
              probs[i] = p + ((2048 - p) >>> 5);
              sym <<= 1;
              if (matchBit !== 0) break;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[i] = p - (p >>> 5);
              sym = (sym << 1) | 1;
              if (matchBit === 0) break;
            }
          } while (sym < 0x100);
        }
        while (sym < 0x100) {
          i = base + sym;
          p = probs[i]!;
          if (range >>> 24 === 0) {
            if (inPos >= inEnd) throw truncated();
            range <<= 8;
            code = (code << 8) | input[inPos++]!;
          }
          bound = Math.imul(range >>> 11, p);
          if (code >>> 0 < bound >>> 0) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            sym <<= 1;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[i] = p - (p >>> 5);
            sym = (sym << 1) | 1;
          }
        }
        if (pos >= out.length) out = this.grow(pos + 1, pos);
        out[pos++] = sym;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
        continue;
      }
      range = (range - bound) | 0;
      code = (code - bound) | 0;
      probs[i] = p - (p >>> 5);

      // Is-rep bit: a new distance follows (0), or one of the four recent distances is reused (1).
      let lenBase: number;
      i = IS_REP + state;
      p = probs[i]!;
      if (range >>> 24 === 0) {
        if (inPos >= inEnd) throw truncated();
        range <<= 8;
        code = (code << 8) | input[inPos++]!;
      }
      bound = Math.imul(range >>> 11, p);
      if (code >>> 0 < bound >>> 0) {
        range = bound;
        probs[i] = p + ((2048 - p) >>> 5);
        rep3 = rep2;
        rep2 = rep1;
        rep1 = rep0;
        state = state < 7 ? 7 : 10;
        lenBase = LEN;
      } else {
        range = (range - bound) | 0;
        code = (code - bound) | 0;
        probs[i] = p - (p >>> 5);
        lenBase = REP_LEN;
        i = IS_REP_G0 + state;
        p = probs[i]!;
        if (range >>> 24 === 0) {
          if (inPos >= inEnd) throw truncated();
          range <<= 8;
          code = (code << 8) | input[inPos++]!;
        }
        bound = Math.imul(range >>> 11, p);
        if (code >>> 0 < bound >>> 0) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          i = IS_REP0_LONG + (state << 4) + posState;
          p = probs[i]!;
          if (range >>> 24 === 0) {
            if (inPos >= inEnd) throw truncated();
            range <<= 8;
            code = (code << 8) | input[inPos++]!;
          }
          bound = Math.imul(range >>> 11, p);
          if (code >>> 0 < bound >>> 0) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            // A "short rep": the one byte at rep0.
            if (rep0 >>> 0 >= Math.min(pos - dictStart, window)) throw distanceError(rep0);
            if (pos >= stop) throw overrun(known, limit);
            if (pos >= out.length) out = this.grow(pos + 1, pos);
            out[pos] = out[pos - rep0 - 1]!;
            pos++;
            state = state < 7 ? 9 : 11;
            continue;
          }
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          let dist: number;
          i = IS_REP_G1 + state;
          p = probs[i]!;
          if (range >>> 24 === 0) {
            if (inPos >= inEnd) throw truncated();
            range <<= 8;
            code = (code << 8) | input[inPos++]!;
          }
          bound = Math.imul(range >>> 11, p);
          if (code >>> 0 < bound >>> 0) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            dist = rep1;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[i] = p - (p >>> 5);
            i = IS_REP_G2 + state;
            p = probs[i]!;
            if (range >>> 24 === 0) {
              if (inPos >= inEnd) throw truncated();
              range <<= 8;
              code = (code << 8) | input[inPos++]!;
            }
            bound = Math.imul(range >>> 11, p);
            if (code >>> 0 < bound >>> 0) {
              range = bound;
              probs[i] = p + ((2048 - p) >>> 5);
              dist = rep2;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[i] = p - (p >>> 5);
              dist = rep3;
              rep3 = rep2;
            }
            rep2 = rep1;
          }
          rep1 = rep0;
          rep0 = dist;
        }
        state = state < 7 ? 8 : 11;
      }

      // Length: two choice bits pick the low (2–9), mid (10–17) or high (18–273) tree.
      let treeBase: number;
      let treeBits: number;
      let len: number;
      i = lenBase + CHOICE;
      p = probs[i]!;
      if (range >>> 24 === 0) {
        if (inPos >= inEnd) throw truncated();
        range <<= 8;
        code = (code << 8) | input[inPos++]!;
      }
      bound = Math.imul(range >>> 11, p);
      if (code >>> 0 < bound >>> 0) {
        range = bound;
        probs[i] = p + ((2048 - p) >>> 5);
        treeBase = lenBase + LEN_LOW + (posState << 3);
        treeBits = 3;
        len = 2;
      } else {
        range = (range - bound) | 0;
        code = (code - bound) | 0;
        probs[i] = p - (p >>> 5);
        i = lenBase + CHOICE2;
        p = probs[i]!;
        if (range >>> 24 === 0) {
          if (inPos >= inEnd) throw truncated();
          range <<= 8;
          code = (code << 8) | input[inPos++]!;
        }
        bound = Math.imul(range >>> 11, p);
        if (code >>> 0 < bound >>> 0) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          treeBase = lenBase + LEN_MID + (posState << 3);
          treeBits = 3;
          len = 10;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          treeBase = lenBase + LEN_HIGH;
          treeBits = 8;
          len = 18;
        }
      }
      let m = 1;
      for (let k = 0; k < treeBits; k++) {
        i = treeBase + m;
        p = probs[i]!;
        if (range >>> 24 === 0) {
          if (inPos >= inEnd) throw truncated();
          range <<= 8;
          code = (code << 8) | input[inPos++]!;
        }
        bound = Math.imul(range >>> 11, p);
        if (code >>> 0 < bound >>> 0) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          m <<= 1;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          m = (m << 1) | 1;
        }
      }
      len += m - (1 << treeBits);

      if (lenBase === LEN) {
        // Distance: a six-bit slot (its tree chosen by the length), then the slot's low bits.
        const slotBase = POS_SLOT + ((len < 6 ? len - 2 : 3) << 6);
        m = 1;
        do {
          i = slotBase + m;
          p = probs[i]!;
          if (range >>> 24 === 0) {
            if (inPos >= inEnd) throw truncated();
            range <<= 8;
            code = (code << 8) | input[inPos++]!;
          }
          bound = Math.imul(range >>> 11, p);
          if (code >>> 0 < bound >>> 0) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            m <<= 1;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[i] = p - (p >>> 5);
            m = (m << 1) | 1;
          }
        } while (m < 64);
        const slot = m - 64;
        if (slot < 4) rep0 = slot;
        else {
          const low = (slot >>> 1) - 1;
          let dist = (2 | (slot & 1)) << low;
          let revBase: number;
          let revBits: number;
          if (slot < 14) {
            revBase = SPEC_POS + dist - slot;
            revBits = low;
          } else {
            // Bits 4 … low−1 at fixed even odds, then the four lowest bits by the align tree.
            for (let k = low - 1; k >= 4; k--) {
              if (range >>> 24 === 0) {
                if (inPos >= inEnd) throw truncated();
                range <<= 8;
                code = (code << 8) | input[inPos++]!;
              }
              range >>>= 1;
              if (code >>> 0 >= range) {
                code = (code - range) | 0;
                dist |= 1 << k;
              }
            }
            revBase = ALIGN;
            revBits = 4;
          }
          m = 1;
          for (let k = 0; k < revBits; k++) {
            i = revBase + m;
            p = probs[i]!;
            if (range >>> 24 === 0) {
              if (inPos >= inEnd) throw truncated();
              range <<= 8;
              code = (code << 8) | input[inPos++]!;
            }
            bound = Math.imul(range >>> 11, p);
            if (code >>> 0 < bound >>> 0) {
              range = bound;
              probs[i] = p + ((2048 - p) >>> 5);
              m <<= 1;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[i] = p - (p >>> 5);
              m = (m << 1) | 1;
              dist |= 1 << k;
            }
          }
          rep0 = dist;
          if (rep0 === -1) {
            // The end marker: distance 0xFFFFFFFF, after which the range coder must be flushed to code 0.
            if (!markerAllowed || (known && pos !== target)) throw new DecodeError('LZMA end marker out of place');
            if (range >>> 24 === 0) {
              if (inPos >= inEnd) throw truncated();
              range <<= 8;
              code = (code << 8) | input[inPos++]!;
            }
            if (code !== 0) throw new DecodeError('LZMA range coder not flushed at the end marker');
            break;
          }
        }
      }

      if (rep0 >>> 0 >= Math.min(pos - dictStart, window)) throw distanceError(rep0);
      if (len > stop - pos) throw overrun(known, limit);
      if (pos + len > out.length) out = this.grow(pos + len, pos);
      let from = pos - rep0 - 1;
      const end = pos + len;
      // Long copies that do not overlap their source go to memmove; short or overlapping ones byte by byte.
      if (len >= 32 && rep0 >= len) {
        out.copyWithin(pos, from, from + len);
        pos = end;
      } else while (pos < end) out[pos++] = out[from++]!;
    }
    this.pos = pos;
    this.state = state;
    this.rep0 = rep0;
    this.rep1 = rep1;
    this.rep2 = rep2;
    this.rep3 = rep3;
    return inPos;
  }
}

const truncated = () => new DecodeError('LZMA data truncated');
const distanceError = (rep0: number) =>
  new DecodeError(`LZMA match distance ${(rep0 >>> 0) + 1} reaches before the start of the data`);
const overrun = (known: boolean, limit: number) =>
  known ? new DecodeError('LZMA data runs past its declared size') : new OutputLimitError(limit);

/**
 * A raw LZMA stream (no header). With `unpackedSize` null it ends at its end marker — or, leniently, where the
 * input ends cleanly; with a size it ends there, an end marker after it being accepted.
 */
export function decodeLzmaRaw(
  input: Uint8Array,
  props: LzmaProps,
  maxOutput: number,
  unpackedSize: number | null,
): Decoded {
  if (unpackedSize !== null && unpackedSize > maxOutput) throw new OutputLimitError(maxOutput);
  // Start at the known size but at most 8× the input: a header that lies about the size then costs nothing.
  const hint = Math.min(unpackedSize ?? Infinity, Math.max(MIN_HINT, input.length * 8));
  const dec = new LzmaDecoder(maxOutput, hint, props.dictSize);
  dec.setProps(props.lc, props.lp, props.pb);
  const consumed = dec.decode(input, 0, input.length, unpackedSize ?? -1, true);
  return { data: dec.take(), consumed };
}

/** A plausible dictionary size: 2^n or 2^n + 2^(n−1) (what xz and 7-Zip write), 4 KiB to 1.5 GiB. */
function plausibleDictSize(size: number): boolean {
  if (size < MIN_WINDOW || size > MAX_ALONE_DICT) return false;
  const half = size % 3 === 0 ? size / 3 : size;
  return (half & (half - 1)) === 0;
}

/**
 * The 13-byte LZMA-alone header (properties byte, little-endian dictionary size, 64-bit size with all-ones for
 * "unknown"), or null unless it is plausible enough to carve on: carving meets these bytes by chance all the
 * time, so the dictionary must be a size encoders write, a known size under 2^40, and the range-coded data
 * must begin with its 0x00 byte.
 */
export function lzmaAloneHeader(input: Uint8Array): { props: LzmaProps; unpackedSize: number | null } | null {
  if (input.length < LZMA_ALONE_HEADER + 5 || input[LZMA_ALONE_HEADER] !== 0) return null;
  const packed = lzmaPropsFromByte(input[0]!);
  const v = new DataView(input.buffer, input.byteOffset, LZMA_ALONE_HEADER);
  const dictSize = v.getUint32(1, true);
  if (!packed || !plausibleDictSize(dictSize)) return null;
  const low = v.getUint32(5, true);
  const high = v.getUint32(9, true);
  let unpackedSize: number | null = null;
  if (low !== 0xffffffff || high !== 0xffffffff) {
    unpackedSize = high * 2 ** 32 + low;
    if (unpackedSize >= MAX_ALONE_SIZE) return null;
  }
  return { props: { ...packed, dictSize }, unpackedSize };
}

/** An LZMA-alone (.lzma) stream; `consumed` counts the header and the range-coded bytes used. */
export function decodeLzmaAlone(input: Uint8Array, maxOutput: number): Decoded {
  const header = lzmaAloneHeader(input);
  if (!header) throw new DecodeError('not an LZMA-alone header');
  const body = decodeLzmaRaw(input.subarray(LZMA_ALONE_HEADER), header.props, maxOutput, header.unpackedSize);
  return { data: body.data, consumed: LZMA_ALONE_HEADER + body.consumed };
}
