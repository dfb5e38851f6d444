import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_STRING } from '../byte-view.js';
import { FormatError } from '../errors.js';
import { ByteWriter, cpuTimed, fatMachO, seededRandom } from '../../../../test/helpers/engine/formats.js';
import type { BinaryImage } from '../image.js';
import { syntheticMachO } from '../../../../test/helpers/engine/macho.js';
import { parseMachO } from './index.js';

const TIME_LIMIT_MS = 1000;
const X86_64 = 0x01000007;
const LC = { symtab: 0x2, dysymtab: 0xb, segment64: 0x19, main: 0x80000028, functionStarts: 0x26, thread: 0x5 };
const thin = syntheticMachO({ bits: 64, cputype: X86_64 });
const threaded = syntheticMachO({ bits: 64, cputype: X86_64, entry: 'thread' });

function survive(bytes: Uint8Array, label: string): BinaryImage | null {
  const { value: image, ms } = cpuTimed((): BinaryImage | null => {
    try {
      return parseMachO(bytes);
    } catch (error) {
      assert.ok(error instanceof FormatError, `${label}: threw ${String(error)}`);
      return null;
    }
  });
  assert.ok(ms < TIME_LIMIT_MS, `${label}: took ${ms.toFixed(0)} ms of CPU`);
  if (image) {
    for (const s of [...image.sections, ...image.segments.map((g) => ({ ...g, name: 'segment' }))])
      assert.ok(s.fileOffset + s.fileSize <= image.bytes.length, `${label}: ${s.name} past EOF`);
    for (const x of [...image.symbols, ...image.imports, ...image.exports])
      assert.ok(x.name.length > 0 && x.name.length <= MAX_STRING, `${label}: name`);
    assert.ok(
      image.diagnostics.every((d) => !d.startsWith('internal error')),
      `${label}: ${image.diagnostics}`,
    );
    if (image.overlay) assert.ok(image.overlay.offset + image.overlay.size <= image.bytes.length, `${label}: overlay`);
  }
  return image;
}

/** Offset of the first load command `cmd` in a little-endian thin image. */
function command(bytes: Uint8Array, cmd: number): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 32, i = 0; i < v.getUint32(16, true); i++) {
    if (v.getUint32(at, true) === cmd) return at;
    at += v.getUint32(at + 4, true);
  }
  throw new Error(`no command 0x${cmd.toString(16)}`);
}

/** Copy with u32 (little-endian) writes [offset, value] applied. */
function patch(bytes: Uint8Array, writes: [number, number][], size = bytes.length, little = true): Uint8Array {
  const w = new ByteWriter(Math.max(size, bytes.length), little);
  w.bytes.set(bytes);
  for (const [at, value] of writes) w.u32(at, value);
  return w.bytes;
}

const at = (cmd: number, field: number, source = thin.bytes): number => command(source, cmd) + field;
/** The __TEXT segment command: the second LC_SEGMENT_64, after __PAGEZERO. */
const text = command(thin.bytes, LC.segment64) + 72;
const has = (img: BinaryImage, text: string): boolean => img.diagnostics.some((d) => d.includes(text));

/** [name, bytes, what the result must show (null: a FormatError is expected)]. */
const hostile: [string, () => Uint8Array, ((img: BinaryImage) => void) | null][] = [
  ['empty', () => new Uint8Array(0), null],
  ['magic only', () => thin.bytes.slice(0, 4), null],
  [
    'Java class file (0xcafebabe, version 52)',
    () =>
      patch(
        new Uint8Array(64),
        [
          [0, 0xcafebabe],
          [4, 52],
        ],
        64,
        false,
      ),
    null,
  ],
  ['ncmds = 0xffffffff', () => patch(thin.bytes, [[16, 0xffffffff]]), (img) => assert.equal(img.imports.length, 3)],
  [
    'sizeofcmds = 0xffffffff',
    () => patch(thin.bytes, [[20, 0xffffffff]]),
    (img) => assert.ok(has(img, 'past the end')),
  ],
  [
    'first cmdsize = 0 (must not loop)',
    () => patch(thin.bytes, [[36, 0]]),
    (img) => assert.ok(has(img, 'bad cmdsize 0')),
  ],
  ['cmdsize = 0xffffffff', () => patch(thin.bytes, [[36, 0xffffffff]]), (img) => assert.equal(img.sections.length, 0)],
  [
    '100 000 load commands of 8 bytes',
    () => {
      const count = 100_000;
      const writes: [number, number][] = [
        [16, count],
        [20, count * 8],
      ];
      for (let i = 0; i < count; i++) writes.push([32 + i * 8, 0x7fff], [32 + i * 8 + 4, 8]);
      return patch(thin.bytes.slice(0, 32), writes, 32 + count * 8);
    },
    (img) => assert.ok(has(img, 'load commands capped')),
  ],
  [
    // Fuzz finding (ELF's twin): addresses past 2^53 are not exact numbers; what sits there is dropped.
    '__TEXT vmaddr = 2^63',
    () => patch(thin.bytes, [[text + 28, 0x80000000]]),
    (img) => {
      assert.ok(has(img, '2^53'));
      for (const s of img.segments) assert.ok(Number.isSafeInteger(s.vaddr + s.fileSize), 'segment');
      for (const e of img.entryPoints) assert.ok(Number.isSafeInteger(e.vaddr), 'entry point');
    },
  ],
  [
    '__TEXT nsects = 0xffffffff',
    () => patch(thin.bytes, [[text + 64, 0xffffffff]]),
    (img) => assert.ok(has(img, 'sections declared')),
  ],
  [
    'nsyms = 0xffffffff',
    () => patch(thin.bytes, [[at(LC.symtab, 12), 0xffffffff]]),
    (img) => assert.ok(has(img, 'symbol table truncated')),
  ],
  [
    'symoff past EOF',
    () => patch(thin.bytes, [[at(LC.symtab, 8), 0xfffffff0]]),
    (img) => assert.equal(img.symbols.length, 0),
  ],
  [
    'stroff past EOF',
    () => patch(thin.bytes, [[at(LC.symtab, 16), 0xfffffff0]]),
    (img) => assert.equal(img.symbols.length, 0),
  ],
  [
    'strsize = 0xffffffff',
    () => patch(thin.bytes, [[at(LC.symtab, 20), 0xffffffff]]),
    (img) => assert.equal(img.symbols.length, 5),
  ],
  [
    'nindirectsyms = 0xffffffff',
    () => patch(thin.bytes, [[at(LC.dysymtab, 60), 0xffffffff]]),
    (img) => assert.equal(img.imports.length, 3),
  ],
  [
    'indirect table past EOF',
    () => patch(thin.bytes, [[at(LC.dysymtab, 56), 0xfffffff0]]),
    (img) => assert.equal(img.imports.length, 0),
  ],
  [
    '__stubs with stub size 0 and reserved1 = 0xffffffff',
    () => {
      const stubs = text + 72 + 80 + 68; // __TEXT's second section (__stubs): reserved1, reserved2
      return patch(thin.bytes, [
        [stubs, 0xffffffff],
        [stubs + 4, 0],
      ]);
    },
    (img) => assert.ok(has(img, 'stub size 0')),
  ],
  [
    'LC_MAIN entryoff near 2^64',
    () =>
      patch(thin.bytes, [
        [at(LC.main, 8), 0xffffffff],
        [at(LC.main, 12), 0xffffffff],
      ]),
    (img) => assert.ok(img.identity.entryPoint === null && has(img, 'LC_MAIN')),
  ],
  [
    'LC_UNIXTHREAD count = 0xffffffff',
    () => patch(threaded.bytes, [[at(LC.thread, 12, threaded.bytes), 0xffffffff]]),
    (img) => assert.equal(img.identity.entryPoint, threaded.base + 0x1000),
  ],
  [
    'function starts: unterminated ULEB, datasize past EOF',
    () => {
      const b = thin.bytes.slice();
      const off = new DataView(b.buffer).getUint32(at(LC.functionStarts, 8), true);
      b.fill(0xff, off, off + 6);
      return b;
    },
    (img) => assert.ok(has(img, 'ULEB128')),
  ],
  [
    'function starts past EOF',
    () => patch(thin.bytes, [[at(LC.functionStarts, 12), 0xffffffff]]),
    (img) => assert.deepEqual(img.functionStarts, []),
  ],
  [
    'nested fat: the only slice is another fat header',
    () => fatMachO([{ cputype: X86_64, image: fatMachO([{ cputype: X86_64, image: thin.bytes }]) }]),
    null,
  ],
  [
    'fat slice at offset 0 (the fat header itself)',
    () => patch(fatMachO([{ cputype: X86_64, image: thin.bytes }]), [[16, 0]], undefined, false),
    null,
  ],
  [
    'fat slice offset past EOF',
    () => patch(fatMachO([{ cputype: X86_64, image: thin.bytes }]), [[16, 0x7ffffff0]], undefined, false),
    null,
  ],
  [
    'fat slice size 0xffffffff',
    () => patch(fatMachO([{ cputype: X86_64, image: thin.bytes }]), [[20, 0xffffffff]], undefined, false),
    (img) => assert.ok(has(img, 'slice truncated')),
  ],
  [
    'fat nfat_arch = 19 with 18 empty entries',
    () => patch(fatMachO([{ cputype: X86_64, image: thin.bytes }]), [[4, 19]], undefined, false),
    (img) => assert.equal(img.diagnostics.filter((d) => d.endsWith('not parsed')).length, 18),
  ],
  [
    'fat table past EOF',
    () => patch(fatMachO([{ cputype: 0x99, image: thin.bytes }]), [[4, 19]], undefined, false).slice(0, 40),
    null,
  ],
];

for (const [name, build, expect] of hostile) {
  test(`parseMachO hostile: ${name}`, () => {
    const image = survive(build(), name);
    if (expect === null) assert.equal(image, null, `${name}: expected a FormatError`);
    else {
      assert.ok(image, `${name}: expected an image`);
      expect(image);
    }
  });
}

test('parseMachO hostile: FormatError says why', () => {
  assert.throws(
    () => parseMachO(new Uint8Array(64)),
    (e: unknown) => e instanceof FormatError && e.reason === 'bad-magic',
  );
});

test('parseMachO hostile: every truncation, thin and fat', () => {
  const fat = fatMachO([{ cputype: X86_64, image: thin.bytes }]);
  for (const [label, bytes] of [
    ['thin', thin.bytes],
    ['fat', fat],
  ] as const) {
    for (let length = 0; length <= bytes.length; length += 5)
      survive(bytes.subarray(0, length), `${label} cut at ${length}`);
  }
});

test('parseMachO hostile: 300 seeded random mutations', () => {
  const random = seededRandom(0x3ac0);
  const linkedit = 0x3100;
  for (let i = 0; i < 300; i++) {
    const bytes = thin.bytes.slice();
    const flips = 1 + Math.floor(random() * 16);
    for (let k = 0; k < flips; k++) {
      // Load commands, linkedit tables and anywhere, in equal parts.
      const r = random();
      const where =
        r < 1 / 3
          ? Math.floor(random() * 0x400)
          : r < 2 / 3
            ? linkedit + Math.floor(random() * (bytes.length - linkedit))
            : Math.floor(random() * bytes.length);
      bytes[where]! ^= 1 << Math.floor(random() * 8);
    }
    survive(bytes, `mutation ${i}`);
  }
});
