import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BinaryIdentity } from '../../contracts/result.js';
import { elf, fatMachO, machO, pe, poke } from '../../../test/helpers/engine/formats.js';
import { identify, rawIdentity } from './identify.js';

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
const ARM64 = 0x0100000c;
const X86_64 = 0x01000007;
const RAW = rawIdentity();

const idOf = (bytes: Uint8Array): BinaryIdentity => identify(bytes, bytes.length);

const mipsBe = elf({
  bits: 32,
  little: false,
  type: 2,
  machine: 8,
  entry: 0x400100,
  segments: [
    { type: PT_LOAD, vaddr: 0x410000 },
    { type: PT_LOAD, vaddr: 0x400234 },
  ],
});
const pie = elf({
  bits: 64,
  little: true,
  type: 3,
  machine: 62,
  entry: 0x1060,
  segments: [
    { type: PT_INTERP, data: '/lib64/ld-linux-x86-64.so.2' },
    { type: PT_LOAD, vaddr: 0 },
    { type: PT_LOAD, vaddr: 0x3db8 },
    { type: PT_DYNAMIC, vaddr: 0x3dc8 },
  ],
  sections: ['.interp', '.text', '.debug_info'],
});
const arm64Mach = machO({
  bits: 64,
  cputype: ARM64,
  filetype: 2,
  commands: [
    { kind: 'segment', name: '__PAGEZERO', vmaddr: 0 },
    { kind: 'segment', name: '__TEXT', vmaddr: 0x100000000 },
    { kind: 'dylinker', path: '/usr/lib/dyld' },
    { kind: 'dylib', path: '/usr/lib/libSystem.B.dylib' },
    { kind: 'main', entryoff: 0x3f80 },
  ],
});
const x64Mach = machO({
  bits: 64,
  cputype: X86_64,
  filetype: 6,
  commands: [{ kind: 'dylib', path: '/usr/lib/libc++.dylib' }],
});
const fat = fatMachO([
  { cputype: X86_64, image: x64Mach },
  { cputype: ARM64, image: arm64Mach },
]);

const base = { dynamic: false, entryPoint: null, baseAddress: null, debug: false };
const elfBase = { ...base, format: 'elf', endianness: 'little', platform: 'linux' } as const;
const peBase = {
  ...base,
  format: 'pe',
  endianness: 'little',
  platform: 'windows',
  binaryType: 'executable',
  subsystem: 'Windows CUI',
} as const;
const machBase = { ...base, format: 'macho', endianness: 'little', platform: 'macos', bits: 64 } as const;

const wellFormed: { name: string; bytes: Uint8Array; want: BinaryIdentity }[] = [
  {
    name: 'ELF32 BE MIPS static executable',
    bytes: mipsBe,
    want: {
      ...elfBase,
      architecture: 'mips',
      bits: 32,
      endianness: 'big',
      binaryType: 'executable',
      entryPoint: 0x400100,
      baseAddress: 0x400000,
    },
  },
  {
    name: 'ELF64 LE x86_64 PIE with PT_INTERP and DWARF',
    bytes: pie,
    want: {
      ...elfBase,
      architecture: 'x86_64',
      bits: 64,
      binaryType: 'executable',
      dynamic: true,
      entryPoint: 0x1060,
      baseAddress: 0,
      debug: true,
    },
  },
  {
    name: 'ELF64 shared library (ET_DYN, PT_DYNAMIC, no interpreter)',
    bytes: elf({
      bits: 64,
      little: true,
      type: 3,
      machine: 183,
      segments: [{ type: PT_LOAD, vaddr: 0x10 }, { type: PT_DYNAMIC }],
    }),
    want: { ...elfBase, architecture: 'arm64', bits: 64, binaryType: 'shared_library', dynamic: true, baseAddress: 0 },
  },
  {
    name: 'ELF64 Android executable (linker64 interpreter)',
    bytes: elf({
      bits: 64,
      little: true,
      type: 3,
      machine: 183,
      entry: 0x5000,
      segments: [{ type: PT_INTERP, data: '/system/bin/linker64' }],
    }),
    want: {
      ...elfBase,
      architecture: 'arm64',
      bits: 64,
      platform: 'android',
      binaryType: 'executable',
      dynamic: true,
      entryPoint: 0x5000,
    },
  },
  {
    name: 'ELF32 Android library (.note.android.ident)',
    bytes: elf({ bits: 32, little: true, type: 3, machine: 40, sections: ['.note.android.ident', '.text'] }),
    want: { ...elfBase, architecture: 'arm', bits: 32, platform: 'android', binaryType: 'shared_library' },
  },
  {
    name: 'ELF64 BE MIPS64 relocatable with .zdebug_info',
    bytes: elf({ bits: 64, little: false, type: 1, machine: 8, sections: ['.text', '.zdebug_info'] }),
    want: { ...elfBase, architecture: 'mips64', bits: 64, endianness: 'big', binaryType: 'relocatable', debug: true },
  },
  {
    name: 'ELF64 ppc64 core file',
    bytes: elf({ bits: 64, little: false, type: 4, machine: 21 }),
    want: { ...elfBase, architecture: 'ppc64', bits: 64, endianness: 'big', binaryType: 'core' },
  },
  {
    name: 'PE32 DLL x86 with imports',
    bytes: pe({ bits: 32, machine: 0x14c, imageBase: 0x10000000, entryRva: 0x1234, dll: true, importSize: 0x50 }),
    want: {
      ...peBase,
      architecture: 'x86',
      bits: 32,
      binaryType: 'dll',
      dynamic: true,
      entryPoint: 0x10001234,
      baseAddress: 0x10000000,
    },
  },
  {
    name: 'PE32+ x86_64 executable with debug directory',
    bytes: pe({
      bits: 64,
      machine: 0x8664,
      imageBase: 0x140000000,
      entryRva: 0x1500,
      importSize: 0x28,
      debugSize: 0x1c,
    }),
    want: {
      ...peBase,
      architecture: 'x86_64',
      bits: 64,
      dynamic: true,
      entryPoint: 0x140001500,
      baseAddress: 0x140000000,
      debug: true,
    },
  },
  {
    name: 'PE32+ native-subsystem driver',
    bytes: pe({ bits: 64, machine: 0x8664, imageBase: 0x140000000, entryRva: 0x2000, subsystem: 1 }),
    want: {
      ...peBase,
      architecture: 'x86_64',
      bits: 64,
      binaryType: 'driver',
      subsystem: 'Native',
      entryPoint: 0x140002000,
      baseAddress: 0x140000000,
    },
  },
  {
    name: 'PE32+ arm64 DLL without entry point',
    bytes: pe({ bits: 64, machine: 0xaa64, imageBase: 0x180000000, entryRva: 0, dll: true }),
    want: { ...peBase, architecture: 'arm64', bits: 64, binaryType: 'dll', baseAddress: 0x180000000 },
  },
  {
    name: 'PE32 ARMNT executable',
    bytes: pe({ bits: 32, machine: 0x1c4, imageBase: 0x400000, entryRva: 0x1000 }),
    want: { ...peBase, architecture: 'arm', bits: 32, entryPoint: 0x401000, baseAddress: 0x400000 },
  },
  {
    name: 'Mach-O 64 arm64 executable',
    bytes: arm64Mach,
    want: {
      ...machBase,
      architecture: 'arm64',
      binaryType: 'executable',
      dynamic: true,
      entryPoint: 0x3f80,
      baseAddress: 0x100000000,
    },
  },
  {
    name: 'Mach-O 32 big-endian ppc dylib',
    bytes: machO({ bits: 32, little: false, cputype: 18, filetype: 6 }),
    want: { ...machBase, architecture: 'ppc', bits: 32, endianness: 'big', binaryType: 'shared_library' },
  },
  {
    name: 'Mach-O 64 bundle with __DWARF segment',
    bytes: machO({
      bits: 64,
      cputype: X86_64,
      filetype: 8,
      commands: [{ kind: 'segment', name: '__DWARF', vmaddr: 0x4000 }],
    }),
    want: { ...machBase, architecture: 'x86_64', binaryType: 'bundle', debug: true },
  },
  {
    name: 'fat Mach-O: first slice (x86_64 dylib) decides',
    bytes: fat,
    want: { ...machBase, architecture: 'x86_64', binaryType: 'shared_library', dynamic: true },
  },
  { name: 'raw text', bytes: new TextEncoder().encode('hello, world\n'.repeat(10)), want: RAW },
  { name: 'empty file', bytes: new Uint8Array(0), want: RAW },
  {
    name: 'DOS MZ executable without PE header',
    bytes: poke(new Uint8Array(0x200).fill(0x90).fill(0x4d, 0, 1).fill(0x5a, 1, 2), 0x3c, 4, 0x40),
    want: RAW,
  },
  {
    name: 'Java class file (0xcafebabe, major version 52)',
    bytes: new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34, 0, 0x1d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    want: RAW,
  },
];

for (const c of wellFormed) {
  test(`identify: ${c.name}`, () => {
    assert.deepEqual(idOf(c.bytes), c.want);
  });
}

test('identify: ELF e_machine table', () => {
  const table: [number, 32 | 64, string][] = [
    [3, 32, 'x86'],
    [62, 64, 'x86_64'],
    [40, 32, 'arm'],
    [183, 64, 'arm64'],
    [8, 32, 'mips'],
    [8, 64, 'mips64'],
    [20, 32, 'ppc'],
    [21, 64, 'ppc64'],
    [243, 64, 'riscv'],
    [0x1234, 64, 'unknown'],
  ];
  for (const [machine, bits, arch] of table) {
    assert.equal(idOf(elf({ bits, little: true, type: 2, machine })).architecture, arch, `e_machine ${machine}`);
  }
});

test('identify: fat Mach-O whose first slice lies past the prefix falls back to the fat header', () => {
  assert.deepEqual(identify(fat.subarray(0, 0x800), fat.length), {
    ...machBase,
    architecture: 'x86_64',
    binaryType: 'unknown',
  });
});

test('identify: fileSize smaller than the prefix hides the bytes past it', () => {
  assert.deepEqual(identify(pie, 20), RAW);
  assert.equal(identify(pie, Number.NaN).format, 'elf');
});
