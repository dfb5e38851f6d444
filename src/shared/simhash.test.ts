import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HASHED_DIM,
  LSH_BANDS,
  LSH_BITS,
  dequantiseVector,
  int8Cosine,
  lshBuckets,
  lshProbeRanges,
  packVectors,
  quantiseVector,
  simhashProjections,
} from './simhash.js';

let seed = 1;
const rand = () => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  return seed / 2 ** 32 - 0.5;
};
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const randomUnit = () => unit(Float32Array.from({ length: HASHED_DIM }, rand));
const turned = (v: Float32Array, noise: number) => unit(v.map((x) => x + noise * rand()));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

test('simhashProjections: orthogonal hyperplanes, so lengths scale by √1024', () => {
  const v = randomUnit();
  const p = simhashProjections(v);
  assert.ok(Math.abs(Math.hypot(...p) - Math.sqrt(HASHED_DIM)) < 1e-6);
  assert.throws(() => simhashProjections(new Float32Array(3)), RangeError);
});

test("simhashProjections: the first 256, folded, are the full transform's first 256", () => {
  const v = randomUnit();
  const full = simhashProjections(v);
  const first = simhashProjections(v, new Float64Array(256), 256);
  for (let j = 0; j < 256; j++) assert.ok(Math.abs(first[j]! - full[j]!) < 1e-9, `projection ${j}`);
  assert.throws(() => simhashProjections(v, new Float64Array(300), 300), RangeError);
});

test('quantiseVector / dequantiseVector / int8Cosine: int8 keeps the cosine to 1e-2', () => {
  const a = randomUnit();
  const b = turned(a, 0.05);
  const q = quantiseVector(b);
  assert.equal(Math.max(...q.map(Math.abs)), 127);
  assert.ok(Math.abs(int8Cosine(a, q) - dot(a, b)) < 1e-2);
  assert.ok(dot(dequantiseVector(q), b) > 0.999);
  assert.deepEqual([...quantiseVector(new Float32Array(4))], [0, 0, 0, 0]);
  assert.equal(int8Cosine(a, new Int8Array(HASHED_DIM)), 0);
});

test('lshBuckets: one bucket a band, band in the high bits; near vectors share more of them', () => {
  const v = randomUnit();
  const buckets = lshBuckets(v);
  assert.equal(buckets.length, LSH_BANDS);
  buckets.forEach((b, band) => assert.equal(b >> LSH_BITS, band));
  assert.deepEqual(lshBuckets(Float32Array.from(v)), buckets, 'deterministic');
  const shared = (w: Float32Array) => lshBuckets(w).filter((b, i) => b === buckets[i]).length;
  assert.equal(shared(v), LSH_BANDS);
  let near = 0;
  let far = 0;
  for (let i = 0; i < 20; i++) {
    near += shared(turned(v, 0.01));
    far += shared(randomUnit());
  }
  assert.ok(near > far + 20, `near ${near} vs far ${far}`);
});

test('lshProbeRanges: each band’s prefix range holding its own bucket, then one-bit neighbours', () => {
  const v = randomUnit();
  const own = lshBuckets(v);
  const span = 1 << (LSH_BITS - 10);
  const ranges = lshProbeRanges(v, 10, 2);
  assert.equal(ranges.length, LSH_BANDS * 3);
  for (let band = 0; band < LSH_BANDS; band++) {
    const [own_, ...flips] = ranges.slice(band * 3, band * 3 + 3);
    const [first, last] = own_!;
    assert.ok(first <= own[band]! && own[band]! <= last, 'the own bucket is in the first range');
    assert.equal(last - first + 1, span);
    assert.equal(first % span, 0);
    for (const [f, l] of flips) {
      assert.equal(l - f + 1, span);
      assert.equal(popcount((f ^ first) / span), 1, 'one prefix bit flipped');
      assert.equal(f >> LSH_BITS, band);
    }
  }
  assert.deepEqual(
    lshProbeRanges(v, LSH_BITS, 0).map(([f]) => f),
    [...own],
  );
  assert.throws(() => lshProbeRanges(v, 0, 0), RangeError);
});

test('packVectors: one buffer, index-aligned vectors and buckets', () => {
  const vs = [randomUnit(), randomUnit(), randomUnit()];
  const p = packVectors(vs.length, (i) => vs[i]!);
  assert.equal(p.count, 3);
  assert.equal(p.vectors.buffer, p.buckets.buffer);
  assert.deepEqual(p.vectors.subarray(HASHED_DIM, 2 * HASHED_DIM), quantiseVector(vs[1]!));
  assert.deepEqual(p.buckets.subarray(2 * LSH_BANDS), lshBuckets(vs[2]!));
  assert.equal(packVectors(0, () => new Float32Array(HASHED_DIM)).count, 0);
});

function popcount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}
