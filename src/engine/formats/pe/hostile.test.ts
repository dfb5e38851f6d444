import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_STRING } from '../byte-view.js';
import { FormatError } from '../errors.js';
import { ByteWriter, cpuTimed, seededRandom } from '../../../../test/helpers/engine/formats.js';
import type { BinaryImage } from '../image.js';
import { PE_OFFSETS, syntheticPe } from '../../../../test/helpers/engine/pe.js';
import { parsePe } from './index.js';

const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');
const REAL_PE = path.join(CORPUS, 'bin/lmdb/lmdb-0.9.29_win-x86_64_mingw-gcc12_O2.exe');
const TIME_LIMIT_MS = 1000;
const DIR = { export: 0, import: 1, exception: 3, security: 4, reloc: 5, debug: 6, tls: 9, delay: 13 };

const base64 = syntheticPe(64);

/** Parses, and checks the outcome: a sane image, or a FormatError, within the time limit. */
function survive(bytes: Uint8Array, label: string): BinaryImage | null {
  const { value: image, ms } = cpuTimed((): BinaryImage | null => {
    try {
      return parsePe(bytes);
    } catch (error) {
      assert.ok(error instanceof FormatError, `${label}: threw ${String(error)}`);
      return null;
    }
  });
  assert.ok(ms < TIME_LIMIT_MS, `${label}: took ${ms.toFixed(0)} ms of CPU`);
  if (image) assertSane(image, label);
  return image;
}

function assertSane(img: BinaryImage, label: string): void {
  const addr = (x: number): boolean => Number.isFinite(x) && x >= 0;
  for (const s of img.sections) {
    assert.ok(s.fileOffset + s.fileSize <= img.bytes.length, `${label}: section ${s.name} past EOF`);
    assert.ok(s.name.length <= MAX_STRING, `${label}: section name length`);
  }
  for (const i of img.imports) {
    assert.ok(i.name.length > 0 && i.name.length <= MAX_STRING, `${label}: import name`);
    assert.ok(addr(i.slot) && i.stubs.every(addr), `${label}: import addresses`);
  }
  for (const e of img.exports) assert.ok(e.name.length <= MAX_STRING && addr(e.vaddr), `${label}: export`);
  for (const s of img.symbols) assert.ok(s.name.length <= MAX_STRING && addr(s.vaddr), `${label}: symbol`);
  for (const u of img.unwind) assert.ok(u.start < u.end, `${label}: unwind range`);
  assert.ok(
    img.diagnostics.every((d) => !d.startsWith('internal error')),
    `${label}: ${img.diagnostics.join('; ')}`,
  );
  if (img.overlay) assert.ok(img.overlay.offset + img.overlay.size <= img.bytes.length, `${label}: overlay`);
}

/** Copy of `bytes` (grown to `size` when larger) with u32 writes applied: [offset, value]. */
function patch(bytes: Uint8Array, writes: [number, number][], size = bytes.length): Uint8Array {
  const w = new ByteWriter(Math.max(size, bytes.length));
  w.bytes.set(bytes);
  for (const [at, value] of writes) w.u32(at, value);
  return w.bytes;
}

const dir = (index: number, rva: number, size: number): [number, number][] => [
  [base64.dirsAt + index * 8, rva],
  [base64.dirsAt + index * 8 + 4, size],
];

/**
 * The synthetic PE32+ with its last section (RVA 0x5000, file offset = RVA) grown to `tail` bytes and the
 * symbol table dropped, so tests can lay hostile tables out at 0x5000….
 */
function withTail(tail: number, writes: [number, number][] = []): Uint8Array {
  const last = base64.sectionTableAt + 4 * 40;
  return patch(
    base64.bytes,
    [
      [last + 8, tail],
      [last + 16, tail],
      [PE_OFFSETS.pointerToSymbolTable, 0],
      [PE_OFFSETS.numberOfSymbols, 0],
      ...writes,
    ],
    0x5000 + tail,
  );
}

/** [name, bytes, what the result must show (null: a FormatError is expected)]. */
const hostile: [string, () => Uint8Array, ((img: BinaryImage) => void) | null][] = [
  ['empty', () => new Uint8Array(0), null],
  ['MZ only', () => new Uint8Array([0x4d, 0x5a]), null],
  ['e_lfanew = 0xffffffff', () => patch(base64.bytes, [[0x3c, 0xffffffff]]), null],
  ['ELF bytes', () => new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), null],
  [
    'NumberOfSections = 65535',
    () => {
      const b = base64.bytes.slice();
      new DataView(b.buffer).setUint16(PE_OFFSETS.numberOfSections, 0xffff, true);
      return b;
    },
    (img) => assert.ok(img.diagnostics.some((d) => d.includes('NumberOfSections'))),
  ],
  [
    'NumberOfRvaAndSizes = 0xffffffff',
    () => patch(base64.bytes, [[base64.rvaCountAt, 0xffffffff]]),
    (img) => assert.equal(img.imports.length, 6),
  ],
  [
    'NumberOfSymbols = 0xffffffff',
    () => patch(base64.bytes, [[PE_OFFSETS.numberOfSymbols, 0xffffffff]]),
    (img) => assert.ok(img.diagnostics.some((d) => d.includes('COFF symbol table truncated'))),
  ],
  [
    'PointerToSymbolTable past EOF',
    () => patch(base64.bytes, [[PE_OFFSETS.pointerToSymbolTable, 0x7fffff00]]),
    (img) => assert.equal(img.symbols.length, 0),
  ],
  [
    'import directory out of the file',
    () => patch(base64.bytes, dir(DIR.import, 0x7ffff000, 40)),
    (img) => assert.equal(img.libraries.length, 1),
  ],
  [
    'import descriptors without a terminator (5 000 copies of one descriptor)',
    () => {
      const copies = 5000;
      const writes: [number, number][] = [];
      for (let i = 0; i < copies; i++)
        writes.push([0x5000 + i * 20, 0x2100], [0x5000 + i * 20 + 12, 0x2380], [0x5000 + i * 20 + 16, 0x2200]);
      return withTail(copies * 20, [...writes, ...dir(DIR.import, 0x5000, 40)]);
    },
    (img) => assert.ok(img.diagnostics.some((d) => d.includes('without a terminator'))),
  ],
  [
    'lookup table that points at itself (each entry the RVA of the next)',
    () => {
      const writes: [number, number][] = [
        [0x5000, 0x5100],
        [0x5000 + 12, 0x2380],
        [0x5000 + 16, 0x5100],
      ];
      for (let i = 0; i < 0x10000; i++) writes.push([0x5100 + i * 8, 0x5100 + i * 8 + 8]);
      return withTail(0x100 + 0x80000, [...writes, ...dir(DIR.import, 0x5000, 40)]);
    },
    (img) => assert.ok(img.diagnostics.includes('import lookup entries capped at 65536')),
  ],
  [
    'import names without a NUL: 65 536 names of 4 KiB each stop at the name budget',
    () => {
      const w = withTail(0x100 + 0x80000 + 0x11000, [
        [0x5000, 0x5100],
        [0x5000 + 12, 0x2380],
        [0x5000 + 16, 0x5100],
        ...dir(DIR.import, 0x5000, 40),
      ]);
      const v = new DataView(w.buffer);
      for (let i = 0; i < 0x10000; i++) v.setUint32(0x5100 + i * 8, 0x5100 + 0x80000 + i - 2, true);
      w.fill(0x41, 0x5100 + 0x80000);
      return w;
    },
    (img) => assert.ok(img.diagnostics.some((d) => d.includes('name budget'))),
  ],
  [
    'DLL name RVA out of the file',
    () => patch(base64.bytes, [[0x2000 + 12, 0x7fffffff]]),
    (img) => assert.ok(img.imports.length >= 3),
  ],
  [
    'export table with counts 0xffffffff',
    () =>
      patch(base64.bytes, [
        [0x2400 + 20, 0xffffffff],
        [0x2400 + 24, 0xffffffff],
      ]),
    (img) => assert.ok(img.diagnostics.some((d) => d.includes('export'))),
  ],
  [
    'export tables out of the file',
    () =>
      patch(base64.bytes, [
        [0x2400 + 28, 0xfffffff0],
        [0x2400 + 32, 0xfffffff0],
      ]),
    (img) => assert.equal(img.exports.length, 0),
  ],
  [
    '.pdata past EOF (size 0xffffffff)',
    () => patch(base64.bytes, dir(DIR.exception, 0x3000, 0xffffffff)),
    (img) => assert.equal(img.unwind.length, 4),
  ],
  [
    '.pdata entirely outside the file',
    () => patch(base64.bytes, dir(DIR.exception, 0x7ffffff0, 0x1000)),
    (img) => assert.equal(img.unwind.length, 0),
  ],
  [
    'relocation block of size 0',
    () => patch(base64.bytes, [[0x4004, 0]]),
    (img) => assert.equal(img.pointers.length, 0),
  ],
  [
    'relocation directory of size 0xffffffff',
    () => patch(base64.bytes, dir(DIR.reloc, 0x4000, 0xffffffff)),
    (img) => assert.equal(img.pointers.length, 1),
  ],
  [
    'TLS callback array without a terminator',
    () => {
      const writes: [number, number][] = [];
      for (let i = 0; i < 4096; i++) writes.push([0x5000 + i * 8, 0x40001030 + (i % 0x100)], [0x5000 + i * 8 + 4, 0x1]);
      return withTail(0x8000, [...writes, [0x2818, 0x40005000], [0x281c, 0x1]]);
    },
    (img) => assert.ok(img.diagnostics.some((d) => d.includes('TLS callbacks capped'))),
  ],
  [
    'debug directory of size 0xffffffff',
    () => patch(base64.bytes, dir(DIR.debug, 0x2600, 0xffffffff)),
    (img) => assert.equal(img.debug.pdbPath, 'C:\\build\\synth.pdb'),
  ],
  [
    'delay-load directory out of the file',
    () => patch(base64.bytes, dir(DIR.delay, 0xfffffff0, 64)),
    (img) => assert.equal(img.libraries.length, 2),
  ],
  [
    'certificate table past EOF',
    () => patch(base64.bytes, dir(DIR.security, 0x7ffffff0, 0x1000)),
    (img) => assert.equal(img.signed, true),
  ],
];

for (const [name, build, expect] of hostile) {
  test(`parsePe hostile: ${name}`, () => {
    const image = survive(build(), name);
    if (expect === null) assert.equal(image, null, `${name}: expected a FormatError`);
    else {
      assert.ok(image, `${name}: expected an image`);
      expect(image);
    }
  });
}

test('parsePe hostile: FormatError says why', () => {
  assert.throws(
    () => parsePe(new Uint8Array(16)),
    (e: unknown) => e instanceof FormatError && e.reason === 'bad-magic',
  );
  assert.throws(
    () => parsePe(base64.bytes.slice(0, 0x90)),
    (e: unknown) => e instanceof FormatError && e.reason === 'truncated',
  );
});

test('parsePe hostile: every truncation of the synthetic PE', () => {
  for (const bits of [64, 32] as const) {
    const bytes = syntheticPe(bits).bytes;
    for (let length = 0; length <= bytes.length; length += 7)
      survive(bytes.subarray(0, length), `PE${bits} cut at ${length}`);
  }
});

test('parsePe hostile: 300 seeded random mutations of the synthetic PE', () => {
  const random = seededRandom(0x5eed);
  for (let i = 0; i < 300; i++) {
    const bytes = base64.bytes.slice();
    const flips = 1 + Math.floor(random() * 16);
    for (let k = 0; k < flips; k++) {
      // Half of the flips hit the headers, where a bit decides the most.
      const at = random() < 0.5 ? Math.floor(random() * 0x400) : Math.floor(random() * bytes.length);
      bytes[at]! ^= 1 << Math.floor(random() * 8);
    }
    survive(bytes, `mutation ${i}`);
  }
});

test('parsePe hostile: truncations and 300 seeded mutations of a real PE', (t) => {
  if (!existsSync(REAL_PE)) {
    t.skip(`${CORPUS} absent`);
    return;
  }
  const real = new Uint8Array(readFileSync(REAL_PE));
  const lengths = new Set<number>();
  for (let l = 0; l < 0x1000; l += 61) lengths.add(l);
  for (let i = 0; i <= 200; i++) lengths.add(Math.floor((real.length * i) / 200));
  for (const length of lengths) survive(real.subarray(0, length), `real cut at ${length}`);

  // Flips go to the headers, to the data sections (the tables) and anywhere, in equal parts.
  const tables = parsePe(real).sections.filter((s) => !s.exec && s.fileSize > 0);
  const random = seededRandom(0xb1e55);
  const pick = (n: number): number => Math.floor(random() * n);
  const t0 = performance.now();
  for (let i = 0; i < 300; i++) {
    const bytes = real.slice();
    const flips = 1 + pick(32);
    for (let k = 0; k < flips; k++) {
      const r = random();
      const s = tables[pick(tables.length)]!;
      const at = r < 1 / 3 ? pick(0x400) : r < 2 / 3 ? s.fileOffset + pick(s.fileSize) : pick(real.length);
      bytes[at]! ^= 1 << pick(8);
    }
    survive(bytes, `real mutation ${i}`);
  }
  t.diagnostic(`${lengths.size} truncations; 300 mutations in ${(performance.now() - t0).toFixed(0)} ms`);
});
