// Locality-sensitive keys of function vectors (sign-random-projection, "SimHash") and their int8 form.
// Here rather than in engine/ because the analysis job (engine) and the index's queries (store) must
// compute the very same keys, and shared/ is the one layer both may import.
import { seededRandom } from './seeded-random.js';
import { LSH_THRESHOLDS } from './simhash-thresholds.js';

/** Length of the vectors hashed (engine/similarity's VECTOR_DIM); a power of two for the Hadamard transform. */
export const HASHED_DIM = 1024;
/** Bands (hash tables), and bits stored a band: see docs/similarity.md "Index" for how they were chosen. */
export const LSH_BANDS = 16;
export const LSH_BITS = 16;

const SEED = 0x5eed_1e55;

/** Random ±1 per coordinate: with the Hadamard transform after it, 1024 orthogonal random hyperplanes. */
const SIGNS = (() => {
  const r = seededRandom(SEED);
  return Float64Array.from({ length: HASHED_DIM }, () => (r() < 0.5 ? -1 : 1));
})();

/**
 * The vector's first `size` projections on the hyperplanes: sign flips then a fast Walsh–Hadamard
 * transform (D·H·v, 10 240 additions instead of a 1024 × 1024 product). Row j < size of H sees only the
 * low bits of a column index, so the first `size` rows are H_size applied to v folded (summed) into
 * `size` lanes: LSH keys need 256 of the 1024, a quarter of the work.
 */
export function simhashProjections(
  v: Float32Array,
  out = new Float64Array(HASHED_DIM),
  size: number = HASHED_DIM,
): Float64Array {
  if (v.length !== HASHED_DIM) throw new RangeError(`vector length ${v.length}, expected ${HASHED_DIM}`);
  if (size > HASHED_DIM || (size & (size - 1)) !== 0)
    throw new RangeError(`size ${size}: a power of two ≤ ${HASHED_DIM}`);
  for (let i = 0; i < size; i++) out[i] = v[i]! * SIGNS[i]!;
  for (let i = size; i < HASHED_DIM; i++) out[i & (size - 1)]! += v[i]! * SIGNS[i]!;
  for (let h = 1; h < size; h <<= 1)
    for (let i = 0; i < size; i += h << 1)
      for (let j = i; j < i + h; j++) {
        const a = out[j]!;
        const b = out[j + h]!;
        out[j] = a + b;
        out[j + h] = a - b;
      }
  return out;
}

/** Projections the LSH keys read: the first LSH_BANDS × LSH_BITS. */
const KEYED = LSH_BANDS * LSH_BITS;

/** How far projection r of band b lies above its threshold (bit r of the band's key: above or not). */
const margin = (p: Float64Array, band: number, r: number): number =>
  p[band * LSH_BITS + r]! - LSH_THRESHOLDS[band * LSH_BITS + r]!;

/** Band b's key from its first `bits` projections, most significant first. */
function bandKey(p: Float64Array, band: number, bits: number): number {
  let key = 0;
  for (let r = 0; r < bits; r++) key = (key << 1) | (margin(p, band, r) > 0 ? 1 : 0);
  return key;
}

/**
 * One bucket per band: `band << LSH_BITS | key`, where key bit r (most significant first) says whether
 * projection band·LSH_BITS + r lies above its threshold. The thresholds are the corpus medians of the
 * projections (hyperplanes through the data's centre): function vectors share a large common direction
 * (every function loads, moves and branches), and hyperplanes through the origin would put most of them
 * on the same side.
 */
export function lshBuckets(v: Float32Array, out = new Int32Array(LSH_BANDS)): Int32Array {
  const p = simhashProjections(v, projections, KEYED);
  for (let b = 0; b < LSH_BANDS; b++) out[b] = (b << LSH_BITS) | bandKey(p, b, LSH_BITS);
  return out;
}

/** Scratch for lshBuckets: every analysed function is hashed, and a fresh array each was garbage. */
const projections = new Float64Array(KEYED);

/**
 * Bucket ranges a query looks in, as [first, last] bucket numbers: in each band, the buckets sharing the
 * query's first `bits` key bits (a shorter prefix matches more functions: the index chooses it by its
 * size), then the same with one of the `probes` bits nearest their threshold flipped (multi-probe LSH:
 * the recall of more bands without storing them).
 */
export function lshProbeRanges(v: Float32Array, bits: number, probes: number): [number, number][] {
  if (!Number.isInteger(bits) || bits < 1 || bits > LSH_BITS) throw new RangeError(`bits must be 1…${LSH_BITS}`);
  const p = simhashProjections(v, new Float64Array(KEYED), KEYED);
  const span = LSH_BITS - bits;
  const out: [number, number][] = [];
  for (let b = 0; b < LSH_BANDS; b++) {
    const key = bandKey(p, b, bits);
    const margins = Array.from({ length: bits }, (_, r) => ({ r, m: Math.abs(margin(p, b, r)) }));
    margins.sort((x, y) => x.m - y.m);
    const prefixes = [key, ...margins.slice(0, probes).map(({ r }) => key ^ (1 << (bits - 1 - r)))];
    for (const prefix of prefixes) {
      const first = (b << LSH_BITS) | (prefix << span);
      out.push([first, first + (1 << span) - 1]);
    }
  }
  return out;
}

/** int8 form of a vector: x · 127 / max|x|, rounded (1 KiB for 1024 dimensions; cosine is scale-free). */
export function quantiseVector(v: Float32Array, out = new Int8Array(v.length)): Int8Array {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const scale = max > 0 ? 127 / max : 0;
  for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]! * scale);
  return out;
}

/** The unit vector an int8 form stands for (the zero vector stays zero). */
export function dequantiseVector(q: Int8Array): Float32Array {
  let sq = 0;
  for (let i = 0; i < q.length; i++) sq += q[i]! * q[i]!;
  const scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  return Float32Array.from(q, (x) => x * scale);
}

/** Cosine similarity of a unit float vector and an int8 vector (`dim` bytes of `data` from `offset`). */
export function int8Cosine(unit: Float32Array, data: Int8Array, offset = 0): number {
  let dot = 0;
  let sq = 0;
  for (let i = 0; i < unit.length; i++) {
    const c = data[offset + i]!;
    dot += unit[i]! * c;
    sq += c * c;
  }
  return sq > 0 ? Math.max(-1, Math.min(1, dot / Math.sqrt(sq))) : 0;
}

/**
 * Every function's int8 vector and LSH buckets in one ArrayBuffer, index-aligned with the functions: the
 * analysis worker transfers the buffer to the job handler instead of cloning 1024-element arrays.
 */
export interface PackedVectors {
  count: number;
  /** count × HASHED_DIM */
  vectors: Int8Array;
  /** count × LSH_BANDS */
  buckets: Int32Array;
}

/** `count` vectors, the i-th from `vectorAt(i)` (which may hand out the same array each time, refilled). */
export function packVectors(count: number, vectorAt: (i: number) => Float32Array): PackedVectors {
  const n = count;
  const buffer = new ArrayBuffer(n * HASHED_DIM + n * LSH_BANDS * 4);
  const packed = {
    count: n,
    vectors: new Int8Array(buffer, 0, n * HASHED_DIM),
    buckets: new Int32Array(buffer, n * HASHED_DIM, n * LSH_BANDS),
  };
  for (let i = 0; i < n; i++) {
    const v = vectorAt(i);
    quantiseVector(v, packed.vectors.subarray(i * HASHED_DIM, (i + 1) * HASHED_DIM));
    lshBuckets(v, packed.buckets.subarray(i * LSH_BANDS, (i + 1) * LSH_BANDS));
  }
  return packed;
}
