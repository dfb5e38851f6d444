// Feature hashing: a feature key → one of `dim` buckets and a sign. The signed variant (Weinberger et
// al., 2009) makes colliding features cancel on average instead of always adding up, so the inner product
// of two hashed vectors is an unbiased estimate of the unhashed one.

/** FNV-1a over the key's UTF-16 code units, then a murmur3 finaliser to spread the low bits. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Bucket in [0, dim) from the low bits, sign from the top bit (independent of the bucket for dim ≤ 2^31). */
export const slotOf = (h: number, dim: number): number => h % dim;
export const signOf = (h: number): 1 | -1 => (h & 0x80000000 ? -1 : 1);
