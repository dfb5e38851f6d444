import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fatMachO } from '../../../../test/helpers/engine/formats.js';
import type { BinaryImage } from '../image.js';
import {
  FUNCTION_START_OFFSETS,
  LIBSYSTEM,
  LIBZ,
  STUB_SIZE,
  syntheticMachO,
} from '../../../../test/helpers/engine/macho.js';
import type { MachOBuild } from '../../../../test/helpers/engine/macho.js';
import { parseMachO } from './index.js';

const X86_64 = 0x01000007;
const ARM64 = 0x0100000c;
const X86 = 7;
const PPC = 18;

interface Build {
  label: string;
  spec: MachOBuild;
  bytes: Uint8Array;
  base: number;
  /** Expected architecture and byte order. */
  arch: string;
  little: boolean;
}

function build(label: string, spec: MachOBuild, arch: string, wrap?: (thin: Uint8Array) => Uint8Array): Build {
  const thin = syntheticMachO(spec);
  return {
    label,
    spec,
    bytes: wrap ? wrap(thin.bytes) : thin.bytes,
    base: thin.base,
    arch,
    little: spec.little ?? true,
  };
}

const builds: Build[] = [
  build('x86_64, LC_MAIN, __DWARF', { bits: 64, cputype: X86_64, dwarf: true }, 'x86_64'),
  build('arm64, LC_UNIXTHREAD', { bits: 64, cputype: ARM64, entry: 'thread' }, 'arm64'),
  build('i386', { bits: 32, cputype: X86 }, 'x86'),
  build('ppc, big-endian', { bits: 32, cputype: PPC, little: false }, 'ppc'),
  // An unknown CPU first, then two known slices: the first known one is parsed.
  build('fat: unknown, arm64, x86_64', { bits: 64, cputype: ARM64 }, 'arm64', (arm) =>
    fatMachO([
      { cputype: 0x99, image: arm },
      { cputype: ARM64, image: arm },
      { cputype: X86_64, image: syntheticMachO({ bits: 64, cputype: X86_64 }).bytes },
    ]),
  ),
];

/** [what, check(image, build)]: each row runs on every build. */
const cases: [string, (img: BinaryImage, b: Build) => void][] = [
  [
    'identity of the parsed slice, entry as a virtual address',
    (img, b) => {
      assert.equal(img.identity.format, 'macho');
      assert.equal(img.identity.architecture, b.arch);
      assert.equal(img.identity.endianness, b.little ? 'little' : 'big');
      assert.equal(img.identity.entryPoint, b.base + 0x1000);
      assert.equal(img.identity.debug, b.spec.dwarf === true);
    },
  ],
  [
    'segments and sections (segment,section names; code only where instructions are)',
    (img, b) => {
      const names = ['__TEXT,__text', '__TEXT,__stubs', '__TEXT,__cstring', '__DATA,__la_symbol_ptr', '__DATA,__got'];
      assert.deepEqual(
        img.sections.slice(0, 5).map((s) => s.name),
        names,
      );
      assert.deepEqual(
        img.sections.slice(0, 5).map((s) => s.exec),
        [true, true, false, false, false],
      );
      assert.equal(img.sections[0]!.vaddr, b.base + 0x1000);
      assert.equal(img.segments.length, b.spec.dwarf ? 5 : 4);
    },
  ],
  [
    'nlist symbols: functions in code, data, header marker, weak; stabs skipped',
    (img, b) => {
      assert.deepEqual(
        img.symbols.map((s) => [s.name, s.vaddr - b.base, s.kind, s.binding]),
        [
          ['_main', 0x1000, 'function', 'global'],
          ['_helper', 0x1020, 'function', 'local'],
          ['_data_var', 0x2040, 'object', 'global'],
          ['__mh_execute_header', 0, 'other', 'global'],
          ['_weak_fn', 0x1220, 'function', 'weak'],
        ],
      );
      assert.ok(img.symbols.every((s) => s.source === 'nlist'));
    },
  ],
  [
    'imports via the indirect table: stubs, lazy and non-lazy slots, library by ordinal',
    (img, b) => {
      const ptr = b.spec.bits === 64 ? 8 : 4;
      assert.deepEqual(img.imports, [
        { name: '_printf', library: LIBSYSTEM, slot: b.base + 0x2000, stubs: [b.base + 0x1400] },
        { name: '_compress', library: LIBZ, slot: b.base + 0x2000 + ptr, stubs: [b.base + 0x1400 + STUB_SIZE] },
        { name: '___stack_chk_fail', library: LIBSYSTEM, slot: b.base + 0x2010, stubs: [] },
      ]);
      assert.deepEqual(img.libraries, [LIBSYSTEM, LIBZ]);
    },
  ],
  [
    'exports: external defined symbols',
    (img) =>
      assert.deepEqual(
        img.exports.map((e) => e.name),
        ['_main', '_data_var', '__mh_execute_header', '_weak_fn'],
      ),
  ],
  [
    'entry points: LC_MAIN / LC_UNIXTHREAD, __mod_init_func, exported functions',
    (img, b) =>
      assert.deepEqual(img.entryPoints, [
        { vaddr: b.base + 0x1000, kind: 'entry' },
        { vaddr: b.base + 0x1020, kind: 'init' },
        { vaddr: b.base + 0x1000, kind: 'export' },
        { vaddr: b.base + 0x1220, kind: 'export' },
      ]),
  ],
  [
    'LC_FUNCTION_STARTS (multi-byte ULEB deltas) → functionStarts',
    (img, b) =>
      assert.deepEqual(
        img.functionStarts,
        FUNCTION_START_OFFSETS.map((o) => b.base + o),
      ),
  ],
  [
    'LC_UUID, __DWARF, LC_CODE_SIGNATURE',
    (img, b) => {
      assert.equal(img.debug.uuid, 'DEADBEEF-0001-0203-0405-060708090A0B');
      assert.equal(img.debug.dwarf, b.spec.dwarf === true);
      assert.deepEqual(img.debug.dwarfSections, b.spec.dwarf ? ['__debug_info'] : []);
      assert.equal(img.signed, true);
    },
  ],
  [
    'security: PIE flag, no executable stack, ___stack_chk_fail import; PE-only fields null',
    (img) =>
      assert.deepEqual(img.security, {
        nx: true,
        pie: true,
        relro: null,
        canary: true,
        fortify: false,
        aslr: null,
        dep: null,
        cfg: null,
        seh: null,
        highEntropyVa: null,
      }),
  ],
  [
    'no overlay; diagnostics only for the fat slices',
    (img, b) => {
      assert.equal(img.overlay, null);
      if (!b.label.startsWith('fat')) assert.deepEqual(img.diagnostics, []);
      else
        assert.deepEqual(img.diagnostics, [
          'fat: slice 0 (cputype 0x99) at 0x1000 skipped: unknown CPU',
          'fat: slice 1 (arm64) at 0x5000 parsed',
          'fat: slice 2 (x86_64) at 0x9000 not parsed',
        ]);
    },
  ],
];

for (const [what, check] of cases) {
  test(`parseMachO: ${what}`, () => {
    for (const b of builds) {
      try {
        check(parseMachO(b.bytes), b);
      } catch (error) {
        if (error instanceof Error) error.message = `[${b.label}] ${error.message}`;
        throw error;
      }
    }
  });
}

test('parseMachO: bytes and offsets are those of the parsed slice', () => {
  const fat = builds[4]!;
  const img = parseMachO(fat.bytes);
  assert.equal(img.bytes.byteOffset, 0x5000);
  assert.equal(img.bytes[img.sections[0]!.fileOffset], 0xc3, '__text begins with ret');
});

test('parseMachO: bytes past the linkedit data are the overlay', () => {
  const thin = syntheticMachO({ bits: 64, cputype: X86_64 }).bytes;
  const padded = new Uint8Array(thin.length + 100);
  padded.set(thin);
  assert.deepEqual(parseMachO(padded).overlay, { offset: thin.length, size: 100 });
});
