// The standard check value of CRC-32 (IEEE) and two short strings; the generated and corpus inputs are in
// known-answers.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from './crc32.js';

const TEXT: [string, string][] = [
  ['123456789', 'cbf43926'],
  ['a', 'e8b7be43'],
  ['The quick brown fox jumps over the lazy dog', '414fa339'],
];
for (const [text, want] of TEXT) {
  test(`crc32: ${JSON.stringify(text)} → ${want}`, () => assert.equal(crc32(new TextEncoder().encode(text)), want));
}
