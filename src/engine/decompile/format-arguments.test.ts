import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatArguments } from './format-arguments.js';

test('formatArguments: printf conversions, * widths, %% and lengths; floats and unknowns say null', () => {
  assert.equal(formatArguments('hello\n', false), 0);
  assert.equal(formatArguments('%d %s %c %p %%', false), 4);
  assert.equal(formatArguments('%-*.*lld|%08zx|%hhu', false), 5);
  assert.equal(formatArguments('%f', false), null);
  assert.equal(formatArguments('%.2e', false), null);
  assert.equal(formatArguments('%k', false), null);
  assert.equal(formatArguments('50%', false), null);
});

test('formatArguments: scanf takes a pointer per conversion (floats too), none for %*', () => {
  assert.equal(formatArguments('%d %lf %s', true), 3);
  assert.equal(formatArguments('%*d %d', true), 1);
  assert.equal(formatArguments('%[^]\n] %3c', true), 2);
  assert.equal(formatArguments('%[abc', true), null);
});
