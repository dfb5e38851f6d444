import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanIds, type ScanStep } from './id-scan.js';

/** Rows 1..100 of which the multiples of 3 match; records the steps asked for. */
function table() {
  const asked: string[] = [];
  const matching = (from: number, to: number) =>
    Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i).filter(
      (id) => id >= 1 && id <= 100 && id % 3 === 0,
    );
  const step = (order: 'asc' | 'desc'): ScanStep<number> => ({
    count: async (from, to) => {
      asked.push(`count ${from}-${to}`);
      return matching(from, to).length;
    },
    rows: async (from, to, skip, limit) => {
      asked.push(`rows ${from}-${to}`);
      const m = matching(from, to);
      return (order === 'asc' ? m : m.reverse()).slice(skip, skip + limit);
    },
  });
  return { asked, step };
}

const all = Array.from({ length: 33 }, (_, i) => 3 * (i + 1));

test('walks the range in steps, ascending or descending, and pages like one query would', async () => {
  for (const [offset, limit] of <[number, number][]>[
    [0, 5],
    [4, 7],
    [9, 30],
    [32, 5],
    [33, 5],
  ]) {
    const t = table();
    assert.deepEqual(
      await scanIds({ lo: 1, hi: 100 }, { offset, limit }, 'asc', 10, t.step('asc')),
      all.slice(offset, offset + limit),
    );
    const d = table();
    assert.deepEqual(
      await scanIds({ lo: 1, hi: 100 }, { offset, limit }, 'desc', 10, d.step('desc')),
      [...all].reverse().slice(offset, offset + limit),
    );
  }
});

test('stops at the step that fills the page; steps before the page are only counted', async () => {
  const t = table();
  assert.deepEqual(await scanIds({ lo: 1, hi: 100 }, { offset: 4, limit: 2 }, 'asc', 10, t.step('asc')), [15, 18]);
  assert.deepEqual(t.asked, ['count 1-11', 'count 11-21', 'rows 11-21']);
});

test('an empty table is an empty page', async () => {
  assert.deepEqual(await scanIds(null, { offset: 0, limit: 5 }, 'asc', 10, table().step('asc')), []);
});
