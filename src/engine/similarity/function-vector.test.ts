import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cosineSimilarity } from './distance.js';
import { FEATURE_GROUPS, functionFeatures, type FunctionFeatures, type FunctionInput } from '../features/index.js';
import { packVectors } from '../../shared/simhash.js';
import { hashKey, signOf, slotOf } from './feature-hash.js';
import { VECTOR_DIM, functionVector, packedFunctionVectors } from './function-vector.js';
import { DEFAULT_WEIGHTS } from './weights.js';

const A: FunctionFeatures = {
  unigram: { load: 4, add: 2, compare: 1, branch: 1, ret: 1 },
  bigram: { 'load add': 2, 'compare branch': 1 },
  cfg: { 'blocks:3': 1, 'loops:1': 1 },
  constant: { '-1640531535': 1 },
  import: { memcpy: 1 },
};
const A_NEAR: FunctionFeatures = { ...A, unigram: { load: 5, add: 2, compare: 1, branch: 1, ret: 1 } };
const B: FunctionFeatures = {
  unigram: { store: 6, call: 3, ret: 1 },
  bigram: { 'store call': 3 },
  cfg: { 'blocks:1': 1, 'loops:0': 1 },
  string: { 'usage: %s': 1 },
  import: { printf: 2 },
};

test('functionVector: fixed size, unit length, deterministic', () => {
  const v = functionVector(A);
  assert.equal(v.length, VECTOR_DIM);
  assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
  assert.deepEqual(functionVector(A), v);
  assert.deepEqual(functionVector(structuredClone(A)), v, 'a thawed copy gives the same vector');
});

test('functionVector: similarity orders identical > near > different', () => {
  const a = functionVector(A);
  const cases: [string, FunctionFeatures, number, number][] = [
    ['identical', A, 0.9999, 1],
    ['one count changed', A_NEAR, 0.95, 0.9999],
    ['a different function', B, -1, 0.3],
  ];
  for (const [what, f, lo, hi] of cases) {
    const s = cosineSimilarity(a, functionVector(f));
    assert.ok(s >= lo && s <= hi, `${what}: ${s} not in [${lo}, ${hi}]`);
  }
});

test('functionVector: a group weighted 0 does not count; no features give the zero vector', () => {
  const onlyImports = { ...DEFAULT_WEIGHTS, unigram: 0, bigram: 0, trigram: 0, cfg: 0, constant: 0 };
  const s = cosineSimilarity(functionVector(A, onlyImports), functionVector({ import: { memcpy: 1 } }, onlyImports));
  assert.ok(Math.abs(s - 1) < 1e-5);
  assert.ok(functionVector({}).every((x) => x === 0));
});

test('slotOf/signOf: stable buckets in range', () => {
  const cases: string[] = ['unigram:load', 'constant:16', 'string:usage: %s', ''];
  for (const key of cases) {
    const index = slotOf(hashKey(key), VECTOR_DIM);
    assert.ok(index >= 0 && index < VECTOR_DIM);
    assert.equal(slotOf(hashKey(key), VECTOR_DIM), index);
    assert.ok([1, -1].includes(signOf(hashKey(key))));
  }
});

/** The definition, dense: every bucket of every group visited (what the sparse pass must equal bit for bit). */
function denseVector(features: FunctionFeatures): Float32Array {
  const out = new Float64Array(VECTOR_DIM);
  for (const g of FEATURE_GROUPS) {
    const counts = features[g];
    const w = DEFAULT_WEIGHTS[g];
    if (!counts || !w) continue;
    const group = new Float64Array(VECTOR_DIM);
    for (const [key, n] of Object.entries(counts)) {
      const h = hashKey(`${g}:${key}`);
      group[slotOf(h, VECTOR_DIM)]! += signOf(h) * Math.log1p(n);
    }
    let sq = 0;
    for (let i = 0; i < VECTOR_DIM; i++) sq += group[i]! * group[i]!;
    const norm = Math.sqrt(sq);
    if (norm > 0) for (let i = 0; i < VECTOR_DIM; i++) out[i]! += (w * group[i]!) / norm;
  }
  let sq = 0;
  for (let i = 0; i < VECTOR_DIM; i++) sq += out[i]! * out[i]!;
  const scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  return Float32Array.from(out, (x) => x * scale);
}

test('functionVector: the sparse pass gives the dense definition bit for bit', () => {
  const many: Record<string, number> = {};
  for (let i = 0; i < 3000; i++) many[`k${i}`] = 1 + (i % 7); // collisions, including ones that cancel
  for (const f of [A, { unigram: many, constant: { '16': 2, '-1': 1 } }, { string: { x: 1 } }] as FunctionFeatures[]) {
    assert.deepEqual(functionVector(f), denseVector(f));
  }
});

test('packedFunctionVectors: the analysis path packs the vectors of functionFeatures', () => {
  const input = (seed: number): FunctionInput => ({
    blocks: [
      { classes: ['load', 'add', 'compare', 'branch'], succ: [1, 2] },
      { classes: seed % 2 ? ['call', 'move', 'ret'] : ['store', 'ret'], succ: [] },
      { classes: ['logic', 'shift', 'jump'], succ: [0] },
    ],
    constants: [String(seed), '16', '-1', '4096'],
    strings: [`message ${seed}`],
    imports: ['malloc', 'free'],
    internalCalls: seed,
    distinctCallees: 1,
    callers: 2,
    neighbours: ['import:puts'],
  });
  const inputs = [1, 2, 3, 40].map(input);
  const packed = packedFunctionVectors(inputs);
  const each = packVectors(inputs.length, (i) => functionVector(functionFeatures(inputs[i]!)));
  assert.deepEqual(packed, each);
});
