// Function features → fixed-size vector: per group, counts damped by log(1 + n) and hashed into `dim`
// signed buckets, the group scaled to unit length and by its weight, the sum scaled to unit length.
// Cosine similarity of two vectors is then their dot product.
import { FEATURE_GROUPS, type FeatureGroup, type FunctionFeatures } from '../features/index.js';
import { hashedSlot } from './feature-hash.js';
import { DEFAULT_WEIGHTS } from './weights.js';

/**
 * 1024 float32 = 4 KiB a function. A sqlite function has ~250 distinct keys; at 1024 buckets about 22 %
 * of them share a bucket with another (1 − e^(−250/1024)), and signed hashing makes those mostly cancel.
 */
export const VECTOR_DIM = 1024;

export function functionVector(
  features: FunctionFeatures,
  weights: Readonly<Record<FeatureGroup, number>> = DEFAULT_WEIGHTS,
  dim: number = VECTOR_DIM,
): Float32Array {
  const out = new Float64Array(dim);
  const group = new Float64Array(dim);
  for (const g of FEATURE_GROUPS) {
    const counts = features[g];
    const w = weights[g];
    if (!counts || !w) continue;
    group.fill(0);
    // Keys are namespaced by group, so `3` as a constant and as a count land in unrelated buckets.
    for (const [key, n] of Object.entries(counts)) {
      const { index, sign } = hashedSlot(`${g}:${key}`, dim);
      group[index]! += sign * Math.log1p(n);
    }
    let sq = 0;
    for (let i = 0; i < dim; i++) sq += group[i]! * group[i]!;
    const norm = Math.sqrt(sq);
    if (norm > 0) for (let i = 0; i < dim; i++) out[i]! += (w * group[i]!) / norm;
  }
  return normalise(out);
}

function normalise(v: Float64Array): Float32Array {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i]! * v[i]!;
  const scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * scale;
  return out;
}
