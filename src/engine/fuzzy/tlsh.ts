// TLSH, Trend Micro's locality-sensitive hash (Oliver, Cheng, Chen 2013), in the configuration every
// public TLSH tool prints by default: 128 buckets, 1-byte checksum, sliding window of 5, "T1" version
// prefix — 72 hex characters, the string py-tlsh 4.x `tlsh.hash()` returns.
//
// Every 5-byte window (from the 5th byte on) adds 1 to six of 256 buckets, picked by Pearson hashes of
// byte triples (the newest byte and two of the four before it); only buckets 0–127 are read. The digest
// keeps, per bucket, which quartile of the 128 counts it falls in (2 bits × 128 = 32 bytes), plus the
// checksum, a log-scale length code and the ratios of the quartile values.

/** Pearson's sample permutation of 0–255, the one TLSH specifies (its `v_table`). */
// prettier-ignore
const PEARSON = Uint8Array.of(
  1, 87, 49, 12, 176, 178, 102, 166, 121, 193, 6, 84, 249, 230, 44, 163,
  14, 197, 213, 181, 161, 85, 218, 80, 64, 239, 24, 226, 236, 142, 38, 200,
  110, 177, 104, 103, 141, 253, 255, 50, 77, 101, 81, 18, 45, 96, 31, 222,
  25, 107, 190, 70, 86, 237, 240, 34, 72, 242, 20, 214, 244, 227, 149, 235,
  97, 234, 57, 22, 60, 250, 82, 175, 208, 5, 127, 199, 111, 62, 135, 248,
  174, 169, 211, 58, 66, 154, 106, 195, 245, 171, 17, 187, 182, 179, 0, 243,
  132, 56, 148, 75, 128, 133, 158, 100, 130, 126, 91, 13, 153, 246, 216, 219,
  119, 68, 223, 78, 83, 88, 201, 99, 122, 11, 92, 32, 136, 114, 52, 10,
  138, 30, 48, 183, 156, 35, 61, 26, 143, 74, 251, 94, 129, 162, 63, 152,
  170, 7, 115, 167, 241, 206, 3, 150, 55, 59, 151, 220, 90, 53, 23, 131,
  125, 173, 15, 238, 79, 95, 89, 16, 105, 137, 225, 224, 217, 160, 37, 123,
  118, 73, 2, 157, 46, 116, 9, 145, 134, 228, 207, 212, 202, 215, 69, 229,
  27, 188, 67, 124, 168, 252, 42, 4, 29, 108, 21, 247, 19, 205, 39, 203,
  233, 40, 186, 147, 198, 192, 155, 33, 164, 191, 98, 204, 165, 180, 117, 76,
  140, 36, 210, 172, 41, 54, 159, 8, 185, 232, 113, 196, 231, 47, 146, 120,
  51, 65, 28, 144, 254, 221, 93, 189, 194, 139, 112, 43, 71, 109, 184, 209,
);

/** The salts of the checksum (0) and of the six bucket triples (the primes 2 … 13). */
const SALTS = [0, 2, 3, 5, 7, 11, 13] as const;

/**
 * SALTED[s * 256 + b] = PEARSON[PEARSON[salt_s] ^ b]: the first two of the four Pearson steps of each
 * triple hash, which depend only on the salt and the newest byte. Looking them up saves one dependent
 * load of four in the hot loop (7 × 256 bytes).
 */
const SALTED = new Uint8Array(SALTS.length * 256);
SALTS.forEach((salt, s) => {
  for (let b = 0; b < 256; b++) SALTED[s * 256 + b] = PEARSON[(PEARSON[salt] as number) ^ b] as number;
});

/**
 * py-tlsh 4.x hashes from 50 bytes on (`tlsh.hash`; only the "conservative" variant keeps the old 256-byte
 * minimum) and answers "TNULL" below that, or when the buckets are too uniform to rank: the third
 * quartile is 0, or 64 or more of the 128 buckets are empty (e.g. a few hundred identical bytes).
 */
const MIN_LENGTH = 50;
const NULL_DIGEST = 'TNULL';
const BUCKETS = 128;

/** The TLSH digest of `bytes`: "T1" + 70 uppercase hex characters, or "TNULL" (see MIN_LENGTH). */
export function tlshDigest(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n < MIN_LENGTH) return NULL_DIGEST;
  const { buckets, checksum } = countTriples(bytes);

  // The 32nd, 64th and 96th smallest of the 128 counts.
  const sorted = buckets.slice(0, BUCKETS).sort();
  const q1 = sorted[31] as number;
  const q2 = sorted[63] as number;
  const q3 = sorted[95] as number;
  let nonzero = 0;
  for (let b = 0; b < BUCKETS; b++) if ((buckets[b] as number) > 0) nonzero++;
  if (q3 === 0 || nonzero <= BUCKETS / 2) return NULL_DIGEST;

  // Header bytes, each printed low nibble first (the reference swaps nibbles), then the 32 code bytes
  // from the last to the first; in each, bucket 4i + j's quartile (0–3) sits at bits 2j.
  let out = 'T1' + swappedHex(checksum) + swappedHex(lengthCode(n));
  out += hexDigit(Math.floor((q1 * 100) / q3) % 16) + hexDigit(Math.floor((q2 * 100) / q3) % 16);
  for (let i = BUCKETS / 4 - 1; i >= 0; i--) {
    let code = 0;
    for (let j = 0; j < 4; j++) {
      const k = buckets[4 * i + j] as number;
      code |= (k > q3 ? 3 : k > q2 ? 2 : k > q1 ? 1 : 0) << (2 * j);
    }
    out += hexDigit(code >>> 4) + hexDigit(code & 15);
  }
  return out;
}

/** The single pass: bucket counts (all 256, indexed by the hash byte) and the running checksum. */
function countTriples(bytes: Uint8Array): { buckets: Uint32Array; checksum: number } {
  const T = PEARSON;
  const S = SALTED;
  const buckets = new Uint32Array(256);
  let checksum = 0;
  // b1 … b4: the four bytes before the current one.
  let b1 = bytes[3] as number;
  let b2 = bytes[2] as number;
  let b3 = bytes[1] as number;
  let b4 = bytes[0] as number;
  for (let i = 4, n = bytes.length; i < n; i++) {
    const b0 = bytes[i] as number;
    checksum = T[(T[(S[b0] as number) ^ b1] as number) ^ checksum] as number;
    const t2 = T[(S[256 + b0] as number) ^ b1] as number;
    const t3 = T[(S[512 + b0] as number) ^ b1] as number;
    const t5 = T[(S[768 + b0] as number) ^ b2] as number;
    const t7 = T[(S[1024 + b0] as number) ^ b2] as number;
    const t11 = T[(S[1280 + b0] as number) ^ b1] as number;
    const t13 = T[(S[1536 + b0] as number) ^ b3] as number;
    bump(buckets, T[t2 ^ b2] as number);
    bump(buckets, T[t3 ^ b3] as number);
    bump(buckets, T[t5 ^ b3] as number);
    bump(buckets, T[t7 ^ b4] as number);
    bump(buckets, T[t11 ^ b4] as number);
    bump(buckets, T[t13 ^ b4] as number);
    b4 = b3;
    b3 = b2;
    b2 = b1;
    b1 = b0;
  }
  return { buckets, checksum };
}

/**
 * The length code: ⌊log(n)/log 1.5⌋ up to 656 bytes, ⌊log(n)/log 1.3 − 8.72777⌋ up to 3,199 and
 * ⌊log(n)/log 1.1 − 62.5472⌋ beyond, mod 256. The reference now looks n up in a table of 170 bounds made
 * from this formula with a single-precision logarithm. Computing log in float32 (Math.fround) gives the
 * same code as that table for every n from 1 to 4,224,281,216, its last bound (checked exhaustively; past
 * it the reference reads beyond its table), where a double-precision log moves 87 of the 170
 * bounds (e.g. n = 190,336).
 */
function lengthCode(n: number): number {
  const log = Math.fround(Math.log(Math.fround(n)));
  const code =
    n <= 656
      ? Math.floor(log / 0.4054651)
      : n <= 3199
        ? Math.floor(log / 0.26236426 - 8.72777)
        : Math.floor(log / 0.09531018 - 62.5472);
  return code & 0xff;
}

/** A call V8 inlines; `buckets[r]++` does not type-check under noUncheckedIndexedAccess. */
function bump(buckets: Uint32Array, r: number): void {
  buckets[r] = (buckets[r] as number) + 1;
}

const HEX = '0123456789ABCDEF';
const hexDigit = (v: number): string => HEX[v] as string;
const swappedHex = (byte: number): string => hexDigit(byte & 15) + hexDigit(byte >>> 4);
