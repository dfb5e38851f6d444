// Vectors for measuring the nearest-function index (bench:index, tools/tune/lsh.ts): the corpus's real
// function vectors (bench:similarity's feature cache), held-out real queries, and synthetic vectors —
// mixtures of two real ones plus noise — to reach index sizes the corpus does not have.
import { seededRandom } from '../../src/shared/seeded-random.js';
import { loadCorpus, shuffle } from './similarity-protocol.js';

/** The corpus's function vectors (all builds, ≥ 5 blocks), shuffled; `queries` of them held out. */
export async function corpusVectors({ queries = 200, seed = 42 }: { queries?: number; seed?: number } = {}): Promise<{
  queries: Float32Array[];
  base: Float32Array[];
} | null> {
  const data = await loadCorpus();
  if (!data) return null;
  const all = data.pool.map((f) => f.vec);
  shuffle(all, seededRandom(seed));
  return { queries: all.slice(0, queries), base: all.slice(queries) };
}

/**
 * Vector i of the index: a real one while they last, then a synthetic one — normalise(a + β·b + γ·g)
 * with a and b real, β ∈ [0, 0.5), g a random unit direction and γ ∈ [0, 0.3): near a, on the data's
 * manifold (it keeps the common direction all function vectors share), and deterministic in i.
 */
export function indexVector(
  base: Float32Array[],
  i: number,
  out: Float32Array = new Float32Array(base[0]?.length ?? 0),
): Float32Array {
  const real = base[i];
  if (real) {
    out.set(real);
    return out;
  }
  const rand = seededRandom(0x9e3779b9 ^ i);
  const a = base[Math.floor(rand() * base.length)]!;
  const b = base[Math.floor(rand() * base.length)]!;
  const beta = rand() * 0.5;
  const gamma = rand() * 0.3;
  // Uniform coordinates: in 1024 dimensions their direction is as good as a Gaussian's, and cheaper.
  const g = Float64Array.from(out, () => rand() - 0.5);
  let gn = 0;
  for (const x of g) gn += x * x;
  gn = Math.sqrt(gn);
  let sq = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = a[k]! + beta * b[k]! + (gamma * g[k]!) / gn;
    // The stored float32, not the double it was rounded from.
    sq += out[k]! * out[k]!;
  }
  const scale = 1 / Math.sqrt(sq);
  for (let k = 0; k < out.length; k++) out[k] = out[k]! * scale;
  return out;
}

/** [similarity, row] */
export type Hit = [number, number];

/**
 * Exact search over int8 rows, as the index re-ranks them: the cosine of the float query and each row
 * (row norms computed once). `topK(q, k)` gives [similarity, row] best first, ties by row.
 */
export function exactScan(data: Int8Array, dim: number): { topK(q: Float32Array, k: number): Hit[] } {
  const rows = data.length / dim;
  const inv = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let sq = 0;
    for (let i = r * dim; i < (r + 1) * dim; i++) sq += data[i]! * data[i]!;
    inv[r] = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  }
  return {
    topK(q, k) {
      const top: Hit[] = [];
      let floor = -Infinity;
      for (let r = 0; r < rows; r++) {
        let dot = 0;
        const o = r * dim;
        for (let i = 0; i < dim; i++) dot += q[i]! * data[o + i]!;
        const sim = dot * inv[r]!;
        if (top.length === k && sim <= floor) continue;
        top.push([sim, r]);
        top.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
        if (top.length > k) top.pop();
        if (top.length === k) floor = top[k - 1]![0];
      }
      return top;
    },
  };
}
