import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BinaryIdentity } from '../../contracts/result.js';
import {
  PE_LFANEW,
  ByteWriter,
  elf,
  fatMachO,
  machO,
  pe,
  poke,
  seededRandom,
} from '../../../test/helpers/engine/formats.js';
import { identify, rawIdentity } from './identify.js';

const RAW = rawIdentity();
const pie = elf({
  bits: 64,
  little: true,
  type: 3,
  machine: 62,
  entry: 0x1060,
  segments: [
    { type: 3, data: '/lib64/ld-linux-x86-64.so.2' },
    { type: 1, vaddr: 0 },
    { type: 2, vaddr: 0x3dc8 },
  ],
  sections: ['.text', '.debug_info'],
});
const mipsBe = elf({
  bits: 32,
  little: false,
  type: 2,
  machine: 8,
  entry: 0x400100,
  segments: [{ type: 1, vaddr: 0x400000 }],
});
const pe32 = pe({ bits: 32, machine: 0x14c, imageBase: 0x400000, entryRva: 0x1000, importSize: 0x28, dll: true });
const pe64 = pe({
  bits: 64,
  machine: 0x8664,
  imageBase: 0x140000000,
  entryRva: 0x1500,
  importSize: 0x28,
  debugSize: 0x1c,
});
const mach = machO({
  bits: 64,
  cputype: 0x0100000c,
  filetype: 2,
  commands: [
    { kind: 'segment', name: '__TEXT', vmaddr: 0x100000000 },
    { kind: 'dylib', path: '/usr/lib/libSystem.B.dylib' },
    { kind: 'main', entryoff: 0x3f80 },
  ],
});
const fat = fatMachO([{ cputype: 0x0100000c, image: mach }]);
const fixtures: Record<string, Uint8Array> = { pie, mipsBe, pe32, pe64, mach, fat };

const FORMATS = ['elf', 'pe', 'macho', 'raw'];
const ARCHS = ['x86', 'x86_64', 'arm', 'arm64', 'mips', 'mips64', 'ppc', 'ppc64', 'riscv', 'unknown'];
const PLATFORMS = ['linux', 'windows', 'android', 'macos', 'unknown'];
const address = (x: number | null): boolean => x === null || (Number.isFinite(x) && x >= 0);

function assertSane(id: BinaryIdentity, label: string): void {
  assert.ok(FORMATS.includes(id.format), `${label}: format ${id.format}`);
  assert.ok(ARCHS.includes(id.architecture), `${label}: architecture ${id.architecture}`);
  assert.ok(PLATFORMS.includes(id.platform), `${label}: platform ${id.platform}`);
  assert.ok([32, 64, null].includes(id.bits), `${label}: bits`);
  assert.ok(['little', 'big', null].includes(id.endianness), `${label}: endianness`);
  assert.equal(typeof id.binaryType, 'string', `${label}: binaryType`);
  assert.equal(typeof id.dynamic, 'boolean', `${label}: dynamic`);
  assert.equal(typeof id.debug, 'boolean', `${label}: debug`);
  assert.ok(address(id.entryPoint) && address(id.baseAddress), `${label}: addresses`);
  if (id.format === 'raw') assert.deepEqual(id, RAW, `${label}: raw identity`);
}

/** [name, bytes, expected fields] — each must identify without throwing and match the fields given. */
const hostile: [string, Uint8Array, Partial<BinaryIdentity>][] = [
  ['ELF magic + 10 bytes', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0]), RAW],
  ['ELF with invalid class', poke(pie, 4, 1, 3), RAW],
  ['ELF with invalid data encoding', poke(pie, 5, 1, 0), RAW],
  ['ELF64 header one byte short', pie.slice(0, 63), RAW],
  [
    'ELF phnum=65535, phoff out of range',
    poke(poke(pie, 56, 2, 0xffff), 32, 8, 0xffffffffffff),
    { format: 'elf', architecture: 'x86_64', dynamic: false, baseAddress: null, binaryType: 'shared_library' },
  ],
  ['ELF phoff near 2^64', poke(pie, 32, 8, 2 ** 64 - 2 ** 12), { format: 'elf', dynamic: false, baseAddress: null }],
  ['ELF phnum=65535 overrunning the prefix', poke(pie, 56, 2, 0xffff), { format: 'elf', architecture: 'x86_64' }],
  ['ELF phentsize=0, phnum=65535', poke(poke(pie, 54, 2, 0), 56, 2, 0xffff), { format: 'elf', dynamic: false }],
  [
    'ELF shoff out of range, shnum=65535',
    poke(poke(pie, 40, 8, 0x7fffffff0), 60, 2, 0xffff),
    { format: 'elf', debug: false },
  ],
  ['ELF shstrndx past shnum', poke(pie, 62, 2, 0xfffe), { format: 'elf', debug: false }],
  ['ELF shentsize=1', poke(pie, 58, 2, 1), { format: 'elf', debug: false }],
  ['PE e_lfanew past the end', poke(pe64, 0x3c, 4, 0x10000), RAW],
  ['PE e_lfanew = 0xFFFFFFF0', poke(pe64, 0x3c, 4, 0xfffffff0), RAW],
  ['PE e_lfanew = 0 (points at MZ)', poke(pe64, 0x3c, 4, 0), RAW],
  ['PE optional header cut short', pe64.slice(0, PE_LFANEW + 24 + 40), RAW],
  ['PE SizeOfOptionalHeader = 0', poke(pe64, PE_LFANEW + 20, 2, 0), RAW],
  ['PE unknown optional magic', poke(pe64, PE_LFANEW + 24, 2, 0x107), RAW],
  [
    'PE NumberOfRvaAndSizes=0xFFFFFFFF, SizeOfOptionalHeader=0xFFFF',
    poke(poke(pe64, PE_LFANEW + 24 + 108, 4, 0xffffffff), PE_LFANEW + 20, 2, 0xffff),
    { format: 'pe', architecture: 'x86_64', dynamic: true, debug: true },
  ],
  [
    'PE NumberOfRvaAndSizes=0 hides directories',
    poke(pe32, PE_LFANEW + 24 + 92, 4, 0),
    { format: 'pe', dynamic: false },
  ],
  [
    'Mach-O ncmds=1e6, huge cmdsize',
    poke(poke(mach, 16, 4, 1e6), 36, 4, 0xfffffff0),
    { format: 'macho', architecture: 'arm64', dynamic: false, baseAddress: null, entryPoint: null },
  ],
  ['Mach-O cmdsize=0', poke(mach, 36, 4, 0), { format: 'macho', dynamic: false }],
  ['Mach-O sizeofcmds=0', poke(mach, 20, 4, 0), { format: 'macho', dynamic: false, baseAddress: null }],
  ['Mach-O header cut short', mach.slice(0, 20), RAW],
  ['fat nfat_arch=0xFFFFFFFF', poke(fat, 4, 4, 0xffffffff, false), RAW],
  ['fat with implausible cputype', poke(fat, 8, 4, 0x4242, false), RAW],
  [
    'fat slice offset 0xFFFFFFF0',
    poke(fat, 16, 4, 0xfffffff0, false),
    { format: 'macho', architecture: 'arm64', binaryType: 'unknown' },
  ],
  ['fat slice offset 0 (points at itself)', poke(fat, 16, 4, 0, false), { format: 'macho', binaryType: 'unknown' }],
  ['1 MiB of zeros', new Uint8Array(1 << 20), RAW],
];

for (const [name, bytes, want] of hostile) {
  test(`identify (hostile): ${name}`, () => {
    const id = identify(bytes, bytes.length);
    assertSane(id, name);
    for (const [key, value] of Object.entries(want)) assert.deepEqual(id[key as keyof BinaryIdentity], value, key);
  });
}

test('identify (hostile): Mach-O with ncmds=1e6 and 8-byte commands filling 64 KiB stays bounded', () => {
  const w = new ByteWriter(64 * 1024);
  w.u32(0, 0xfeedfacf).u32(4, 0x01000007).u32(12, 2).u32(16, 1e6).u32(20, 0xffffffff);
  for (let at = 32; at + 8 <= w.bytes.length; at += 8) w.u32(at, 0x1234).u32(at + 4, 8);
  assertSane(identify(w.bytes, 1e9), 'many commands');
});

test('identify (hostile): every truncation of every fixture', () => {
  for (const [name, bytes] of Object.entries(fixtures)) {
    for (let cut = 0; cut <= bytes.length; cut++) {
      assertSane(identify(bytes.subarray(0, cut), bytes.length), `${name}[0..${cut})`);
    }
  }
});

test('identify (hostile): random header corruption never throws', () => {
  const rand = seededRandom(0xb1a5);
  const pick = (n: number): number => Math.floor(rand() * n);
  const special = [0, 0xff, 0x7f, 0x80, 0x01];
  for (const [name, original] of Object.entries(fixtures)) {
    for (let round = 0; round < 500; round++) {
      const bytes = original.slice(0, rand() < 0.2 ? pick(original.length + 1) : original.length);
      const flips = 1 + pick(8);
      for (let i = 0; i < flips && bytes.length > 0; i++) {
        // Bias towards the headers, where every field matters.
        const at = pick(rand() < 0.7 ? Math.min(bytes.length, 128) : bytes.length);
        bytes[at] = rand() < 0.5 ? pick(256) : special[pick(special.length)]!;
      }
      assertSane(identify(bytes, original.length), `${name} round ${round}`);
    }
  }
});
