// Distances between unit-length function vectors, and the mapping from similarity to a confidence.

/** Cosine similarity of two unit vectors: their dot product, in [-1, 1]. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vector lengths differ: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return Math.max(-1, Math.min(1, s));
}

/** 1 − cosine similarity, in [0, 2]. */
export const cosineDistance = (a: Float32Array, b: Float32Array): number => 1 - cosineSimilarity(a, b);
