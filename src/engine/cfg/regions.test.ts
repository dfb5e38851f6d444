// Code regions of damaged files: found by fuzzing (tools/fuzz), where overlapping or nested executable
// sections, or one at 2^63, made regionAt miss an address inside code and gap scanning throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRaw } from '../formats/raw.js';
import type { BinaryImage } from '../formats/image.js';
import { codeRegions, regionAt } from './regions.js';

/** A 0x300-byte x86-64 image whose executable sections are `spans` ([vaddr, size], all at file offset 0). */
function imageWith(spans: [number, number][]): BinaryImage {
  const image = parseRaw(new Uint8Array(0x300).fill(0x90), 0x1000, { architecture: 'x86_64' });
  const section = image.sections[0]!;
  return {
    ...image,
    sections: spans.map(([vaddr, size], i) => ({ ...section, name: `s${i}`, vaddr, size, fileSize: size })),
  };
}

test('codeRegions: nested, overlapping and unaddressable sections give disjoint regions over the same code', () => {
  const image = imageWith([
    [0x1000, 0x100],
    [0x1010, 0x10],
    [0x1080, 0x200],
    [0x1080, 0x200],
    [2 ** 63, 0x100],
  ]);
  const regions = codeRegions(image);
  for (let i = 1; i < regions.length; i++) assert.ok(regions[i - 1]!.end <= regions[i]!.start, 'disjoint');
  assert.deepEqual(
    regions.map((r) => [r.start, r.end]),
    [
      [0x1000, 0x1100],
      [0x1100, 0x1280],
    ],
  );
  for (let a = 0x1000; a < 0x1280; a++) {
    const r = regionAt(regions, a);
    assert.ok(r, `0x${a.toString(16)} is code`);
    // The clipped region still maps its addresses to the bytes its section gave them.
    assert.equal(r.bytes.byteOffset + (a - r.start), a >= 0x1100 ? a - 0x1080 : a - 0x1000);
  }
});
