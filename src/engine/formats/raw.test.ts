import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from './errors.js';
import { fileOffsetOf } from './image.js';
import { parseRaw } from './raw.js';

const blob = new Uint8Array([0x00, 0x48, 0x2d, 0xe9, 0x1e, 0xff, 0x2f, 0xe1]);

/** [what, check] on a firmware blob loaded at 0x08000000 as 32-bit little-endian ARM. */
const cases: [string, () => void][] = [
  [
    'one executable section covering the file at base, entered at base',
    () => {
      const img = parseRaw(blob, 0x08000000, { architecture: 'arm', bits: 32, endianness: 'little' });
      assert.deepEqual(img.sections, [
        { name: 'raw', vaddr: 0x08000000, size: 8, fileOffset: 0, fileSize: 8, read: true, write: true, exec: true },
      ]);
      assert.deepEqual(img.entryPoints, [{ vaddr: 0x08000000, kind: 'entry' }]);
      assert.equal(fileOffsetOf(img, 0x08000004), 4);
    },
  ],
  [
    'identity carries the caller-given ISA; format and type raw',
    () => {
      const { identity } = parseRaw(blob, 0x1000, { architecture: 'mips', endianness: 'big' });
      assert.deepEqual(identity, {
        format: 'raw',
        architecture: 'mips',
        bits: null,
        endianness: 'big',
        platform: 'unknown',
        binaryType: 'raw',
        dynamic: false,
        entryPoint: 0x1000,
        baseAddress: 0x1000,
        debug: false,
      });
    },
  ],
  [
    'everything else empty',
    () => {
      const img = parseRaw(blob, 0, { architecture: 'x86' });
      for (const list of [img.segments, img.symbols, img.imports, img.exports, img.libraries, img.unwind, img.pointers])
        assert.deepEqual(list, []);
      assert.equal(img.overlay, null);
      assert.equal(img.signed, false);
      assert.deepEqual(img.diagnostics, []);
    },
  ],
  [
    'empty blob → FormatError',
    () => assert.throws(() => parseRaw(new Uint8Array(0), 0, { architecture: 'arm' }), FormatError),
  ],
  ...[-1, 0.5, NaN, 2 ** 53].map((base): [string, () => void] => [
    `base ${base} → FormatError`,
    () => assert.throws(() => parseRaw(blob, base, { architecture: 'arm' }), FormatError),
  ]),
];

for (const [what, check] of cases) test(`parseRaw: ${what}`, check);
