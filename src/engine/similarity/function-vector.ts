// Function features → fixed-size vector: per group, counts damped by log(1 + n) and hashed into `dim`
// signed buckets, the group scaled to unit length and by its weight, the sum scaled to unit length.
// Cosine similarity of two vectors is then their dot product.
import {
  extractFeatures,
  FEATURE_GROUPS,
  type FeatureGroup,
  type FunctionFeatures,
  type FunctionInput,
} from '../features/index.js';
import { packVectors, type PackedVectors } from '../../shared/simhash.js';
import { hashKey, signOf, slotOf } from './feature-hash.js';
import { DEFAULT_WEIGHTS } from './weights.js';

/**
 * 1024 float32 = 4 KiB a function. A sqlite function has ~250 distinct keys; at 1024 buckets about 22 %
 * of them share a bucket with another (1 − e^(−250/1024)), and signed hashing makes those mostly cancel.
 */
export const VECTOR_DIM = 1024;

/** Per group, its keys' hashes and counts, in order of first occurrence. */
export type HashedCounts = ReadonlyMap<FeatureGroup, { hashes: number[]; counts: number[] }>;

export function functionVector(
  features: FunctionFeatures,
  weights: Readonly<Record<FeatureGroup, number>> = DEFAULT_WEIGHTS,
  dim: number = VECTOR_DIM,
): Float32Array {
  const groups = new Map<FeatureGroup, { hashes: number[]; counts: number[] }>();
  for (const g of FEATURE_GROUPS) {
    const counts = features[g];
    if (!counts) continue;
    const entries = Object.entries(counts);
    groups.set(g, { hashes: entries.map(([key]) => groupKeyHash(g, key)), counts: entries.map(([, n]) => n) });
  }
  return hashedVector(groups, weights, dim);
}

/**
 * Counts features as they are emitted, by hash: the analysis's path to vectors, with no record of string
 * keys per function in between (building and reading those was most of the vectors stage). Two keys of
 * one group with the same 32-bit hash count as one. `take` hands out one function's counts.
 */
export class HashedCounter {
  private readonly slots = new Map<FeatureGroup, Map<number, number>>();
  private groups = new Map<FeatureGroup, { hashes: number[]; counts: number[] }>();

  readonly emit = (group: FeatureGroup, key: string, count = 1): void => {
    let slots = this.slots.get(group);
    if (!slots) this.slots.set(group, (slots = new Map()));
    let g = this.groups.get(group);
    if (!g) this.groups.set(group, (g = { hashes: [], counts: [] }));
    const h = groupKeyHash(group, key);
    const at = slots.get(h);
    if (at === undefined) {
      slots.set(h, g.hashes.push(h) - 1);
      g.counts.push(count);
    } else g.counts[at]! += count;
  };

  take(): HashedCounts {
    const out = this.groups;
    this.groups = new Map();
    for (const s of this.slots.values()) s.clear();
    return out;
  }
}

/** Every function's vector, packed for the index: features extracted straight into hashed counts. */
export function packedFunctionVectors(inputs: FunctionInput[]): PackedVectors {
  const counter = new HashedCounter();
  const vector = new Float32Array(VECTOR_DIM);
  return packVectors(inputs.length, (i) => {
    extractFeatures(inputs[i]!, counter.emit);
    return hashedVector(counter.take(), DEFAULT_WEIGHTS, VECTOR_DIM, vector);
  });
}

/** The vector of hashed counts (functionVector's math, shared by both paths). */
export function hashedVector(
  groups: HashedCounts,
  weights: Readonly<Record<FeatureGroup, number>> = DEFAULT_WEIGHTS,
  dim: number = VECTOR_DIM,
  into = new Float32Array(dim),
): Float32Array {
  const { out, group, seen } = scratchFor(dim);
  // A function touches tens of buckets of 1024: only those are visited, in ascending order, so every sum
  // adds the same terms in the same order as a dense pass would (bit-identical vectors, ~20× less work).
  const touched: number[] = [];
  for (const g of FEATURE_GROUPS) {
    const counts = groups.get(g);
    const w = weights[g];
    if (!counts || !w) continue;
    touched.length = 0;
    for (let k = 0; k < counts.hashes.length; k++) {
      const h = counts.hashes[k]!;
      const index = slotOf(h, dim);
      if (!seen[index]) {
        seen[index] = 1;
        touched.push(index);
      }
      group[index]! += signOf(h) * Math.log1p(counts.counts[k]!);
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
  normalise(out, into);
  out.fill(0);
  return into;
}

/**
 * `hashKey("group:key")`, remembered per group: n-gram, CFG and call keys recur in every function.
 * Bounded so a worker thread that analyses for days does not keep every constant and string it met.
 */
const hashes = new Map<FeatureGroup, Map<string, number>>();
const MAX_REMEMBERED = 1 << 16;

function groupKeyHash(group: FeatureGroup, key: string): number {
  let known = hashes.get(group);
  if (!known) hashes.set(group, (known = new Map()));
  let h = known.get(key);
  if (h === undefined) {
    if (known.size >= MAX_REMEMBERED) known.clear();
    // Keys are namespaced by group, so `3` as a constant and as a count land in unrelated buckets.
    h = hashKey(`${group}:${key}`);
    known.set(key, h);
  }
  return h;
}

function normalise(v: Float64Array, out: Float32Array): void {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i]! * v[i]!;
  const scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * scale;
}

/** Zeroed working arrays, kept between calls: three fresh ones per function were most of its garbage. */
const scratch = new Map<number, { out: Float64Array; group: Float64Array; seen: Uint8Array }>();
function scratchFor(dim: number): { out: Float64Array; group: Float64Array; seen: Uint8Array } {
  let s = scratch.get(dim);
  if (!s)
    scratch.set(dim, (s = { out: new Float64Array(dim), group: new Float64Array(dim), seen: new Uint8Array(dim) }));
  return s;
}
