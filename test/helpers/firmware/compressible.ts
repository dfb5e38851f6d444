// Data for the decompressors' tests that exercises every kind of LZ77 symbol a compressor emits, seeded so
// every run (and every failure) repeats.
import { seededRandom } from '../../../src/shared/seeded-random.js';

const WORDS = [
  'firmware ',
  'kernel ',
  'squashfs ',
  'router ',
  'block ',
  '0x1f ',
  '\n',
  '\x00\x00\x00\x00',
  '0123456789',
];

/**
 * `size` bytes in stretches of 1 to `stretch` bytes, each one of: noise (literals), a run of one byte
 * (matches at distance 1), words drawn at random (matches of every length and repeated distances), or a copy
 * of earlier bytes from at most `window` back (long matches, near and far).
 */
export function compressible(size: number, seed = 1, { stretch = 4000, window = size } = {}): Uint8Array {
  const next = seededRandom(seed);
  const out = new Uint8Array(size);
  for (let at = 0; at < size;) {
    const n = Math.min(size - at, 1 + Math.floor(next() * stretch));
    const kind = Math.floor(next() * 4);
    if (kind === 0) for (let k = 0; k < n; k++) out[at + k] = next() * 256;
    else if (kind === 1) out.fill(next() * 256, at, at + n);
    else if (kind === 2 || at === 0) {
      for (let k = 0; k < n;)
        for (const c of WORDS[Math.floor(next() * WORDS.length)]!) if (k < n) out[at + k++] = c.charCodeAt(0);
    } else {
      const from = at - 1 - Math.floor(next() * Math.min(at, window));
      for (let k = 0; k < n; k++) out[at + k] = out[from + k]!;
    }
    at += n;
  }
  return out;
}
