// Function features → fixed-size vector: per group, counts damped by log(1 + n) and hashed into `dim`
// signed buckets, the group scaled to unit length and by its weight, the sum scaled to unit length.
// Cosine similarity of two vectors is then their dot product.
import { FEATURE_GROUPS, type FeatureGroup, type FunctionFeatures } from '../features/index.js';
import { hashKey, signOf, slotOf } from './feature-hash.js';
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
  const { out, group, seen } = scratchFor(dim);
  // A function touches tens of buckets of 1024: only those are visited, in ascending order, so every sum
  // adds the same terms in the same order as a dense pass would (bit-identical vectors, ~20× less work).
  const touched: number[] = [];
  for (const g of FEATURE_GROUPS) {
    const counts = features[g];
    const w = weights[g];
    if (!counts || !w) continue;
    touched.length = 0;
    // Keys are namespaced by group, so `3` as a constant and as a count land in unrelated buckets.
    for (const [key, n] of Object.entries(counts)) {
      const h = groupKeyHash(g, key);
      const index = slotOf(h, dim);
      if (!seen[index]) {
        seen[index] = 1;
        touched.push(index);
      }
      group[index]! += signOf(h) * Math.log1p(n);
    }
    touched.sort((a, b) => a - b);
    let sq = 0;
    for (const i of touched) sq += group[i]! * group[i]!;
    const norm = Math.sqrt(sq);
    for (const i of touched) {
      if (norm > 0) out[i]! += (w * group[i]!) / norm;
      group[i] = 0;
      seen[i] = 0;
    }
  }
  const v = normalise(out);
  out.fill(0);
  return v;
}

/** Zeroed working arrays, kept between calls: three fresh ones per function were most of its garbage. */
const scratch = new Map<number, { out: Float64Array; group: Float64Array; seen: Uint8Array }>();
function scratchFor(dim: number): { out: Float64Array; group: Float64Array; seen: Uint8Array } {
  let s = scratch.get(dim);
  if (!s)
    scratch.set(dim, (s = { out: new Float64Array(dim), group: new Float64Array(dim), seen: new Uint8Array(dim) }));
  return s;
}

/**
 * `hashKey("group:key")`, remembered: n-gram, CFG and call keys recur in every function. Bounded so a
 * worker thread that analyses for days does not keep every constant and string it ever met.
 */
const hashes = new Map<string, number>();
const MAX_REMEMBERED = 1 << 18;

function groupKeyHash(group: FeatureGroup, key: string): number {
  const k = `${group}:${key}`;
  let h = hashes.get(k);
  if (h === undefined) {
    if (hashes.size >= MAX_REMEMBERED) hashes.clear();
    h = hashKey(k);
    hashes.set(k, h);
  }
  return h;
}

function normalise(v: Float64Array): Float32Array {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i]! * v[i]!;
  const scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * scale;
  return out;
}
