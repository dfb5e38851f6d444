// The random numbers a guest draws (getrandom, CryptGenRandom, BCryptGenRandom): deterministic, so the same
// run of the same sample always draws the same bytes.

/** `n` bytes from xorshift seeded with `seed` (the run's clock). */
export function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
