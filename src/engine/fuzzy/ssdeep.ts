// ssdeep (spamsum, context-triggered piecewise hashing), giving what the ssdeep 2.14 CLI and libfuzzy's
// fuzzy_hash_buf print: "blocksize:hash1:hash2", base64 letters, no elimination of repeated characters.
//
// A rolling hash over the last 7 bytes marks piece boundaries: the end of a piece for block size
// bs = 3·2^k is where rollsum ≡ bs − 1 (mod bs). Each piece contributes one base64 letter, the low 6
// bits of an FNV-style hash of its bytes. All 31 block sizes run side by side (lazily, see below);
// the digest picks the smallest with a blocksize·64 ≥ length, then steps down while that one has
// fewer than 32 letters. hash1 is that size's letters (at most 64), hash2 the next size's, cut to 32.

const SPAMSUM_LENGTH = 64;
const HALF = SPAMSUM_LENGTH / 2;
const MIN_BLOCKSIZE = 3;
const NUM_BLOCKHASHES = 31;
const WINDOW = 7;
/** The FNV-style piece hash keeps only the 6 bits it prints: 0x28021967 mod 64, times 0x01000193 mod 64. */
const HASH_INIT = 0x27;
const HASH_PRIME_LOW = 0x13;
/**
 * A block size's two piece hashes (hash1's in bits 16–21, hash2's in bits 0–5) step together in one
 * int32: 63 × 19 < 2^16, so the multiplication never carries from one half into the other. One typed-array
 * update a byte per live block size instead of two.
 */
const LANES = 0x003f003f;
const BOTH_INIT = HASH_INIT * 0x10001;
const B64 = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');

const blockSize = (k: number): number => MIN_BLOCKSIZE * 2 ** k;

/**
 * The ssdeep digest of `bytes`. Inputs up to 4 GiB (the largest Uint8Array) need block sizes up to
 * 3·2^25 at most, so the reference's special case for the 31st block size (inputs over 51 GB) cannot
 * arise here.
 */
export function ssdeepDigest(bytes: Uint8Array): string {
  const n = bytes.length;
  // Per block size k: the running piece hashes (hash1's, and hash2's, which stops resetting after 31
  // letters; see LANES), the letters so far (digest[k·64 + i]) and their count, and the hash2 tail letter.
  const hashes = new Int32Array(NUM_BLOCKHASHES);
  const digest = new Uint8Array(NUM_BLOCKHASHES * SPAMSUM_LENGTH);
  const count = new Uint8Array(NUM_BLOCKHASHES);
  const halfTail = new Uint8Array(NUM_BLOCKHASHES);

  // Block sizes are worked on only from `start` to `end` − 1. A new size is forked from the last one
  // when that one ends its first piece (till then they are equal), up to one past the size the length
  // alone would pick; a size is dropped once the next one has 32 letters and blocksize·64 < length,
  // since the digest can then no longer choose it. Typically 2 to 4 sizes are live.
  let guess = 0;
  while (blockSize(guess) * SPAMSUM_LENGTH < n && guess < NUM_BLOCKHASHES - 2) guess++;
  const endLimit = guess + 1;
  let start = 0;
  let end = 1;
  let startBorder = MIN_BLOCKSIZE * SPAMSUM_LENGTH;
  let startMask = 0;
  hashes[0] = BOTH_INIT;

  // Rolling hash: h1 = sum of the window's bytes, h2 = their sum weighted 7…1 by age, h3 = shift-xor.
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i] as number;
    h2 = (h2 - h1 + WINDOW * c) | 0;
    h1 = (h1 + c - (i >= WINDOW ? (bytes[i - WINDOW] as number) : 0)) | 0;
    h3 = (h3 << 5) ^ c;
    const cc = (c & 63) * 0x10001;
    for (let k = start; k < end; k++) hashes[k] = (((hashes[k] as number) * HASH_PRIME_LOW) ^ cc) & LANES;
    // A boundary for 3·2^k is where rollsum + 1 is a multiple of 3·2^k. Checked cheaply: the low `start`
    // bits first (all sizes below `start` are dropped), then divisibility by 3 through the inverse of 3
    // mod 2^32 (x·0xAAAAAAAB mod 2^32 ≤ 0x55555555 exactly for multiples of 3). rollsum + 1 wrapping to
    // 0 is no boundary (2^32 is no multiple of 3).
    const next = (h1 + h2 + h3 + 1) | 0;
    if (next === 0 || (next & startMask) !== 0 || Math.imul(next, 0xaaaaaaab) >>> 0 > 0x55555555) continue;
    const zeros = 31 - Math.clz32(next & -next);
    for (let k = start; ; k++) {
      if (count[k] === 0 && end <= endLimit) {
        // First piece of size k (the last live one): fork size k + 1 from its state.
        hashes[end] = hashes[k] as number;
        end++;
      }
      const at = count[k] as number;
      const both = hashes[k] as number;
      digest[k * SPAMSUM_LENGTH + at] = B64[both >>> 16] as number;
      halfTail[k] = B64[both & 63] as number;
      if (at < SPAMSUM_LENGTH - 1) {
        count[k] = at + 1;
        if (at + 1 < HALF) {
          hashes[k] = BOTH_INIT;
          halfTail[k] = 0;
        } else {
          hashes[k] = (HASH_INIT << 16) | (both & 63);
        }
      } else if (end - start >= 2 && startBorder < n && (count[start + 1] as number) >= HALF) {
        // Size k is full: its last letter keeps absorbing the rest. Drop `start` if it is out of the race.
        start++;
        startBorder *= 2;
        startMask = startMask * 2 + 1;
      }
      if (k >= zeros || k + 1 >= end) break;
    }
  }

  let bi = start;
  while (blockSize(bi) * SPAMSUM_LENGTH < n) bi++;
  if (bi >= end) bi = end - 1;
  while (bi > start && (count[bi] as number) < HALF) bi--;

  // The letter for the unfinished last piece, when the rolling sum is not 0 (so the piece is not empty
  // in the reference's sense); when it is 0 the reference prints the full digest's 64th letter, if any.
  const rolled = (h1 + h2 + h3) | 0;
  const letters = (k: number, len: number): string =>
    String.fromCharCode(...digest.subarray(k * SPAMSUM_LENGTH, k * SPAMSUM_LENGTH + len));
  const tail = (letter: number): string => (letter === 0 ? '' : String.fromCharCode(letter));

  const at = count[bi] as number;
  let out = `${blockSize(bi)}:${letters(bi, at)}`;
  out += tail(
    rolled !== 0 ? (B64[(hashes[bi] as number) >>> 16] as number) : (digest[bi * SPAMSUM_LENGTH + at] as number),
  );
  out += ':';
  if (bi < end - 1) {
    const k = bi + 1;
    out += letters(k, Math.min(count[k] as number, HALF - 1));
    out += tail(rolled !== 0 ? (B64[(hashes[k] as number) & 63] as number) : (halfTail[k] as number));
  } else if (rolled !== 0) {
    out += tail(B64[(hashes[bi] as number) >>> 16] as number);
  }
  return out;
}
