import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextStartIndex } from './next-start.js';

test('nextStartIndex: the nearest start above, across the sorted and the recent starts', () => {
  const idx = nextStartIndex([0x300, 0x100, 0x200]);
  assert.equal(idx.after(0x100), 0x200);
  assert.equal(idx.after(0x50), 0x100);
  assert.equal(idx.after(0x300), Infinity);
  idx.add(0x150);
  assert.equal(idx.after(0x100), 0x150);
  for (let a = 0x1000; a < 0x1000 + 300 * 0x10; a += 0x10) idx.add(a); // past one merge
  assert.equal(idx.after(0x1005), 0x1010);
  assert.equal(idx.after(0x250), 0x300);
  assert.equal(idx.after(0x1000 + 299 * 0x10), Infinity);
});
