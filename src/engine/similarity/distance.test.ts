import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONFIDENCE_MIDPOINT, similarityConfidence } from './confidence.js';
import { cosineDistance, cosineSimilarity } from './distance.js';

test('cosineSimilarity and cosineDistance on unit vectors', () => {
  const x = Float32Array.of(1, 0);
  const y = Float32Array.of(0, 1);
  const cases: [Float32Array, Float32Array, number][] = [
    [x, x, 1],
    [x, y, 0],
    [x, Float32Array.of(-1, 0), -1],
    [x, Float32Array.of(Math.SQRT1_2, Math.SQRT1_2), Math.SQRT1_2],
  ];
  for (const [a, b, s] of cases) {
    assert.ok(Math.abs(cosineSimilarity(a, b) - s) < 1e-6);
    assert.ok(Math.abs(cosineDistance(a, b) - (1 - s)) < 1e-6);
  }
  assert.throws(() => cosineSimilarity(x, Float32Array.of(1, 0, 0)), RangeError);
});

test('similarityConfidence: monotone, one half at the midpoint', () => {
  assert.ok(Math.abs(similarityConfidence(CONFIDENCE_MIDPOINT) - 0.5) < 1e-9);
  const sims = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 1];
  const conf = sims.map(similarityConfidence);
  for (let i = 1; i < conf.length; i++) assert.ok(conf[i]! > conf[i - 1]!);
  assert.ok(conf[0]! < 0.01 && conf[conf.length - 1]! > 0.9);
});
