// LZMA2, the chunked LZMA inside xz: each chunk is stored or LZMA-coded, at most 2 MiB out and 64 KiB in, and
// says what it resets (dictionary, state, properties). The chunk sizes are exact, so a chunk's range coder
// must stop precisely at its end; the stream ends with a 0x00 control byte.
import { DecodeError } from './errors.js';
import { LzmaDecoder, lzmaPropsFromByte } from './lzma.js';
import type { Decoded } from './errors.js';

const END = 0x00;
const STORED_RESET_DICT = 0x01;
const STORED = 0x02;
const LZMA_CHUNK = 0x80;
/** Control ≥ 0xE0: an LZMA chunk that resets the dictionary (and so the state and properties). */
const LZMA_RESET_DICT = 0xe0;
/** LZMA2 keeps lc + lp ≤ 4, so a literal model never passes 0x300 << 4 probabilities. */
const MAX_LC_LP = 4;
const MIN_HINT = 1 << 20;

/**
 * Decodes LZMA2 chunks from input[at] into `dec` (whose earlier output stays: xz blocks share one decoder),
 * reading no further than `end`; returns the offset after the end byte. The first chunk must reset the
 * dictionary, as every LZMA2 stream's does.
 */
export function decodeLzma2Into(dec: LzmaDecoder, input: Uint8Array, at: number, end = input.length): number {
  let needDict = true;
  let needProps = true;
  for (;;) {
    if (at >= end) throw new DecodeError('LZMA2 data ends before its end byte');
    const control = input[at++]!;
    if (control === END) return at;
    if (control > STORED && control < LZMA_CHUNK)
      throw new DecodeError(`LZMA2 control byte 0x${control.toString(16)} is invalid`);
    if (control === STORED_RESET_DICT || control >= LZMA_RESET_DICT) {
      dec.resetDict();
      needDict = false;
      needProps = true;
    } else if (needDict) throw new DecodeError('LZMA2 data does not start with a dictionary reset');

    if (control < LZMA_CHUNK) {
      if (end - at < 2) throw truncated();
      const size = ((input[at]! << 8) | input[at + 1]!) + 1;
      at += 2;
      if (end - at < size) throw truncated();
      dec.appendStored(input, at, at + size);
      at += size;
      continue;
    }

    if (end - at < 4) throw truncated();
    const unpacked = (((control & 0x1f) << 16) | (input[at]! << 8) | input[at + 1]!) + 1;
    const packed = ((input[at + 2]! << 8) | input[at + 3]!) + 1;
    at += 4;
    const reset = (control >>> 5) & 3;
    if (reset >= 2) {
      if (at >= end) throw truncated();
      const props = lzmaPropsFromByte(input[at++]!);
      if (!props || props.lc + props.lp > MAX_LC_LP) throw new DecodeError('LZMA2 chunk has invalid properties');
      dec.setProps(props.lc, props.lp, props.pb);
      needProps = false;
    } else if (needProps) throw new DecodeError('LZMA2 chunk continues a state that was never set up');
    else if (reset === 1) dec.resetState();
    if (end - at < packed) throw truncated();
    const stopped = dec.decode(input, at, at + packed, dec.pos + unpacked, false);
    if (stopped !== at + packed) throw new DecodeError('LZMA2 chunk ends before its packed size');
    at += packed;
  }
}

const truncated = () => new DecodeError('LZMA2 data truncated');

/** A bare LZMA2 stream; `consumed` ends after its 0x00 end byte. */
export function decodeLzma2(input: Uint8Array, dictSize: number, maxOutput: number): Decoded {
  const dec = new LzmaDecoder(maxOutput, Math.max(MIN_HINT, input.length * 8), dictSize);
  const consumed = decodeLzma2Into(dec, input, 0);
  return { data: dec.take(), consumed };
}
