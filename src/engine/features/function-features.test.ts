import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucket, functionFeatures, type FunctionInput } from './function-features.js';

// entry → loop head ⇄ body, loop head → exit: one loop, 4 blocks, 4 edges.
const LOOP: FunctionInput = {
  blocks: [
    { classes: ['store', 'move'], succ: [1] },
    { classes: ['compare', 'branch'], succ: [2, 3] },
    { classes: ['load', 'add', 'store', 'jump'], succ: [1] },
    { classes: ['load', 'ret'], succ: [] },
  ],
  constants: ['16', '16'],
  strings: ['usage: %s'],
  imports: ['malloc', 'malloc', 'free'],
  internalCalls: 2,
  distinctCallees: 1,
  callers: 3,
  neighbours: ['import:strlen', 'string:%d rows'],
};

test('functionFeatures: n-grams stay inside blocks', () => {
  const f = functionFeatures(LOOP);
  assert.deepEqual(f.unigram?.['store'], 2);
  assert.deepEqual(f.bigram, {
    'store move': 1,
    'compare branch': 1,
    'load add': 1,
    'add store': 1,
    'store jump': 1,
    'load ret': 1,
  });
  assert.deepEqual(f.trigram, { 'load add store': 1, 'add store jump': 1 });
});

test('functionFeatures: CFG shape, loops and graphlets', () => {
  const f = functionFeatures(LOOP);
  // [key, count]: 4 blocks → bucket 3, 4 edges → 3, cyclomatic 4 − 4 + 2 = 2 → 2, one back edge → 1.
  const cfg: [string, number][] = [
    ['blocks:3', 1],
    ['edges:3', 1],
    ['cyclomatic:2', 1],
    ['loops:1', 1],
    ['out:1', 2],
    ['in:2', 1],
  ];
  for (const [key, n] of cfg) assert.equal(f.cfg?.[key], n, key);
  assert.equal(f.graphlet?.['2>2>0,1'], 1, 'loop head: two in, two out, successors with out-degrees 0 and 1');
});

test('functionFeatures: constants, strings, imports and call counts', () => {
  const f = functionFeatures(LOOP);
  assert.deepEqual(f.constant, { '16': 2 });
  assert.deepEqual(f.string, { 'usage: %s': 1 });
  assert.deepEqual(f.import, { malloc: 2, free: 1 });
  assert.equal(f.calls?.['sites:3'], 1, '2 internal + 3 import call sites = 5 → bucket 3');
  assert.equal(f.calls?.['callers:2'], 1);
  assert.deepEqual(f.neighbour, { 'import:strlen': 1, 'string:%d rows': 1 });
});

test('bucket: log2 size classes', () => {
  const cases: [number, number][] = [
    [0, 0],
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 3],
    [1000, 10],
  ];
  for (const [n, b] of cases) assert.equal(bucket(n), b, String(n));
});
