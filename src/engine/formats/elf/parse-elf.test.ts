import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../errors.js';
import { buildElf } from '../../../../test/helpers/engine/elf.js';
import { parseElf } from './index.js';
import {
  PROGRAM,
  expectedStubs,
  sampleProgram,
  type ProgramSpec,
} from '../../../../test/helpers/engine/sample-program.js';

const P = PROGRAM;

const PROGRAMS: { label: string; spec: ProgramSpec; arch: string }[] = [
  { label: 'x86-64 (RELA, rip-relative PLT)', spec: { bits: 64, little: true, machine: 62 }, arch: 'x86_64' },
  { label: 'i386 (REL, absolute PLT)', spec: { bits: 32, little: true, machine: 3, bindNow: true }, arch: 'x86' },
  { label: 'AArch64 (adrp/ldr PLT)', spec: { bits: 64, little: true, machine: 183 }, arch: 'arm64' },
  {
    label: 'ARM Thumb (REL, add/add/ldr PLT)',
    spec: { bits: 32, little: true, machine: 40, thumb: true },
    arch: 'arm',
  },
  { label: 'PowerPC64 big-endian', spec: { bits: 64, little: false, machine: 21, bindNow: true }, arch: 'ppc64' },
  { label: 'PowerPC big-endian 32-bit', spec: { bits: 32, little: false, machine: 20 }, arch: 'ppc' },
];

for (const { label, spec, arch } of PROGRAMS) {
  test(`parseElf: synthetic program, ${label}`, () => {
    const image = parseElf(sampleProgram(spec));
    const thumb = spec.thumb === true;
    assert.deepEqual(image.diagnostics, []);
    assert.equal(image.identity.architecture, arch);
    assert.equal(image.identity.bits, spec.bits);
    assert.equal(image.identity.endianness, spec.little ? 'little' : 'big');
    assert.equal(image.identity.debug, true, '.debug_info makes the identity a debug build');

    const functions = image.symbols
      .filter((s) => s.kind === 'function')
      .map((s) => [s.name, s.vaddr, s.thumb ?? false]);
    assert.deepEqual(functions.sort(), [
      ['_start', P.start, thumb],
      ['exported_fn', P.exported, thumb],
      ['init_fn', P.init, thumb],
      ['local_fn', P.local, thumb],
    ]);
    assert.ok(
      !image.symbols.some((s) => s.name === 'crt.c' || s.name === 'printf'),
      'file and undefined symbols left out',
    );
    if (spec.machine === 40) assert.ok(!image.symbols.some((s) => s.name === '$t'), 'ARM mapping symbols left out');
    assert.deepEqual(
      image.symbols.find((s) => s.name === 'data_obj'),
      {
        name: 'data_obj',
        vaddr: P.data,
        size: 8,
        kind: 'object',
        binding: 'global',
        source: 'symtab',
      },
    );

    const word = spec.bits === 64 ? 8 : 4;
    const stubs = expectedStubs(spec);
    assert.deepEqual(
      image.imports.map((i) => [i.name, i.slot, i.stubs]),
      [
        ['__stack_chk_fail', P.got, []],
        ['printf', P.gotPlt + 3 * word, stubs.slice(0, 1)],
        ['__printf_chk', P.gotPlt + 4 * word, stubs.slice(1, 2)],
      ],
    );
    assert.ok(image.imports.every((i) => i.library === null));
    assert.deepEqual(image.libraries, ['libc.so.6', 'libm.so.6']);
    assert.deepEqual(image.exports, [{ name: 'exported_fn', vaddr: P.exported }]);

    const t = thumb ? { thumb: true } : {};
    assert.deepEqual(image.entryPoints, [
      { vaddr: P.start, kind: 'entry', ...t },
      { vaddr: P.init, kind: 'init', ...t },
      { vaddr: P.fini, kind: 'fini', ...t },
      { vaddr: P.exported, kind: 'export', ...t },
    ]);
    assert.deepEqual(image.pointers, [
      { at: P.initArray, target: P.init + (thumb ? 1 : 0) },
      { at: P.finiArray, target: P.fini + (thumb ? 1 : 0) },
    ]);
    assert.deepEqual(image.unwind, [
      { start: P.start, end: P.start + 16 },
      { start: P.exported, end: P.exported + 16 },
      { start: P.local, end: P.local + 32 },
    ]);
    assert.deepEqual(image.security, {
      nx: true,
      pie: true,
      relro: spec.bindNow ? 'full' : 'partial',
      canary: true,
      fortify: true,
      aslr: null,
      dep: null,
      cfg: null,
      seh: null,
      highEntropyVa: null,
    });
    assert.deepEqual(image.debug, {
      dwarf: true,
      dwarfSections: ['.debug_info'],
      buildId: P.buildId,
      pdbPath: null,
      pdbGuid: null,
      uuid: null,
    });
    assert.equal(image.signed, false);
    assert.equal(image.overlay, null);
    const text = image.sections.find((s) => s.name === '.text');
    assert.deepEqual(text && [text.vaddr, text.size, text.read, text.write, text.exec], [
      P.text,
      0x100,
      true,
      false,
      true,
    ]);
    assert.equal(image.segments.length, 1, 'only PT_LOAD segments are reported');
  });
}

test('parseElf: bytes past everything the headers describe are the overlay', () => {
  const base = sampleProgram({ bits: 64, little: true, machine: 62 });
  const withOverlay = new Uint8Array(base.length + 100);
  withOverlay.set(base);
  assert.deepEqual(parseElf(withOverlay).overlay, { offset: base.length, size: 100 });
});

const NOT_ELF: { label: string; bytes: Uint8Array; reason: FormatError['reason'] }[] = [
  { label: 'empty', bytes: new Uint8Array(0), reason: 'truncated' },
  {
    label: 'PE header',
    bytes: new TextEncoder().encode('MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0'),
    reason: 'bad-magic',
  },
  { label: 'magic only', bytes: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46]), reason: 'bad-magic' },
  {
    label: 'class 3',
    bytes: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 3, 1, 1, ...new Array(57).fill(0)]),
    reason: 'bad-header',
  },
  {
    label: 'data encoding 0',
    bytes: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 0, 1, ...new Array(57).fill(0)]),
    reason: 'bad-header',
  },
  {
    label: '64-bit header cut at 40 bytes',
    bytes: buildElf({ bits: 64, little: true, machine: 62 }).subarray(0, 40),
    reason: 'truncated',
  },
];

for (const { label, bytes, reason } of NOT_ELF) {
  test(`parseElf: no usable header (${label}) throws FormatError`, () => {
    assert.throws(
      () => parseElf(bytes),
      (err: unknown) => err instanceof FormatError && err.reason === reason && err.format === 'elf' && err.permanent,
    );
  });
}

test('parseElf: a bare header with no tables parses to an empty image', () => {
  const bytes = buildElf({ bits: 32, little: false, machine: 8, type: 2, entry: 0x400100 });
  const image = parseElf(bytes);
  assert.equal(image.identity.architecture, 'mips');
  assert.deepEqual(image.symbols, []);
  assert.deepEqual(image.imports, []);
  assert.deepEqual(image.entryPoints, [{ vaddr: 0x400100, kind: 'entry' }]);
  assert.equal(image.security.nx, false, 'no PT_GNU_STACK means an executable stack');
  assert.equal(image.security.relro, 'none');
});

test('parseElf: ARM entry points without the Thumb bit are A32 code, not "unknown"', () => {
  // glibc's _init/_fini stay A32 in Thumb-2 builds; left unmarked they were decoded as Thumb (the
  // image's default) and the functions they call were lost.
  const image = parseElf(sampleProgram({ bits: 32, little: true, machine: 40 }));
  assert.deepEqual(
    image.entryPoints.filter((e) => e.kind !== 'export').map((e) => [e.kind, e.thumb]),
    [
      ['entry', false],
      ['init', false],
      ['fini', false],
    ],
  );
});
