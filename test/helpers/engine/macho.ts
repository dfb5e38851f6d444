// Test-only builder of a small thin Mach-O executable (32/64-bit, either byte order): __TEXT (__text,
// __stubs, __cstring), __DATA (__la_symbol_ptr, __got, __mod_init_func, __data), optionally __DWARF, and
// __LINKEDIT holding LC_SYMTAB's nlists and strings, LC_DYSYMTAB's indirect symbols, LC_FUNCTION_STARTS and
// a code signature; two LC_LOAD_DYLIBs, LC_UUID, and LC_MAIN or LC_UNIXTHREAD.
import { ByteWriter } from './formats.js';

export interface MachOBuild {
  bits: 32 | 64;
  little?: boolean;
  cputype: number;
  entry?: 'main' | 'thread';
  dwarf?: boolean;
}

export interface SyntheticMachO {
  bytes: Uint8Array;
  base: number;
  /** File offsets worth corrupting: ncmds, sizeofcmds, and the first load command. */
  at: { ncmds: number; sizeofcmds: number; firstCommand: number; symtabCommand: number };
}

export const UUID_BYTES = [0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xa, 0xb];
export const LIBSYSTEM = '/usr/lib/libSystem.B.dylib';
export const LIBZ = '/usr/lib/libz.1.dylib';
export const STUB_SIZE = 6;
/** Function starts as deltas: 0x1000 from __TEXT (two ULEB bytes), then +0x20, then +0x200 (two bytes). */
export const FUNCTION_START_OFFSETS = [0x1000, 0x1020, 0x1220];

const N_EXT = 0x01;
const N_SECT = 0x0e;
const N_WEAK_DEF = 0x80;
const N_FUN_STAB = 0x24;
const PURE_INSTRUCTIONS = 0x80000400;

/** [name, type, sect, desc, value offset from base]: sections are numbered 1 … 8 as laid out below. */
export const NLISTS: [string, number, number, number, number][] = [
  ['_main', N_SECT | N_EXT, 1, 0, 0x1000],
  ['_helper', N_SECT, 1, 0, 0x1020],
  ['_data_var', N_SECT | N_EXT, 7, 0, 0x2040],
  ['__mh_execute_header', N_SECT | N_EXT, 1, 0, 0],
  ['_printf', N_EXT, 0, 1 << 8, 0],
  ['___stack_chk_fail', N_EXT, 0, 1 << 8, 0],
  ['_compress', N_EXT, 0, 2 << 8, 0],
  ['_main', N_FUN_STAB, 1, 0, 0x1000],
  ['_weak_fn', N_SECT | N_EXT, 1, N_WEAK_DEF, 0x1220],
];
/** __stubs: printf, compress; __la_symbol_ptr: printf, compress; __got: ___stack_chk_fail, a local. */
export const INDIRECT = [4, 6, 4, 6, 5, 0x80000000];

export function syntheticMachO(spec: MachOBuild): SyntheticMachO {
  const is64 = spec.bits === 64;
  const little = spec.little ?? true;
  const ptr = is64 ? 8 : 4;
  const base = is64 ? 0x100000000 : 0x1000;
  const w = new ByteWriter(0x4000, little);
  const word = (at: number, value: number): void => void w.word(at, value, is64);
  const headerSize = is64 ? 32 : 28;

  // Linkedit layout.
  const symoff = 0x3100;
  const nlistSize = is64 ? 16 : 12;
  let strings = '\0';
  const strx = NLISTS.map(([name]) => {
    const at = strings.length;
    strings += name + '\0';
    return at;
  });
  const stroff = symoff + NLISTS.length * nlistSize;
  const indirectOff = (stroff + strings.length + 3) & ~3;
  const startsOff = indirectOff + INDIRECT.length * 4;
  const starts = [0x80, 0x20, 0x20, 0x80, 0x04, 0x00];
  const signatureOff = (startsOff + starts.length + 15) & ~15;
  const end = signatureOff + 16;

  const seg = (name: string, vm: number, vmsize: number, off: number, size: number, prot: number, sects: Sect[]) =>
    ({ name, vm, vmsize, off, size, prot, sects }) as const;
  type Sect = [string, string, number, number, number, number, number, number];
  // [sectname, segname, addr offset, size, file offset, flags, reserved1, reserved2]
  const segments = [
    seg('__PAGEZERO', 0, base, 0, 0, 0, []),
    seg('__TEXT', base, 0x2000, 0, 0x2000, 5, [
      ['__text', '__TEXT', 0x1000, 0x300, 0x1000, PURE_INSTRUCTIONS, 0, 0],
      ['__stubs', '__TEXT', 0x1400, 2 * STUB_SIZE, 0x1400, PURE_INSTRUCTIONS | 0x8, 0, STUB_SIZE],
      ['__cstring', '__TEXT', 0x1500, 6, 0x1500, 0x2, 0, 0],
    ]),
    seg('__DATA', base + 0x2000, 0x1000, 0x2000, 0x1000, 3, [
      ['__la_symbol_ptr', '__DATA', 0x2000, 2 * ptr, 0x2000, 0x7, 2, 0],
      ['__got', '__DATA', 0x2010, 2 * ptr, 0x2010, 0x6, 4, 0],
      ['__mod_init_func', '__DATA', 0x2030, ptr, 0x2030, 0x9, 0, 0],
      ['__data', '__DATA', 0x2040, 0x10, 0x2040, 0, 0, 0],
    ]),
    ...(spec.dwarf
      ? [
          seg('__DWARF', base + 0x3000, 0x100, 0x3000, 0x100, 3, [
            ['__debug_info', '__DWARF', 0x3000, 0x10, 0x3000, 0x02000000, 0, 0],
          ]),
        ]
      : []),
    seg('__LINKEDIT', base + 0x3100, 0x1000, 0x3100, end - 0x3100, 1, []),
  ];

  const commands: [number, (at: number) => void][] = [];
  for (const s of segments) {
    const size = (is64 ? 72 : 56) + s.sects.length * (is64 ? 80 : 68);
    commands.push([
      size,
      (at) => {
        w.u32(at, is64 ? 0x19 : 0x1).ascii(at + 8, s.name);
        const f = at + 24;
        word(f, s.vm);
        word(f + ptr, s.vmsize);
        word(f + 2 * ptr, s.off);
        word(f + 3 * ptr, s.size);
        w.u32(f + 4 * ptr, s.prot)
          .u32(f + 4 * ptr + 4, s.prot)
          .u32(f + 4 * ptr + 8, s.sects.length);
        s.sects.forEach(([sect, segname, addr, sz, off, flags, r1, r2], i) => {
          const x = at + (is64 ? 72 : 56) + i * (is64 ? 80 : 68);
          w.ascii(x, sect).ascii(x + 16, segname);
          word(x + 32, base + addr);
          word(x + 32 + ptr, sz);
          const tail = x + 32 + 2 * ptr;
          w.u32(tail, off)
            .u32(tail + 16, flags)
            .u32(tail + 20, r1)
            .u32(tail + 24, r2);
        });
      },
    ]);
  }
  commands.push([
    24,
    (at) =>
      w
        .u32(at, 0x2)
        .u32(at + 8, symoff)
        .u32(at + 12, NLISTS.length)
        .u32(at + 16, stroff)
        .u32(at + 20, strings.length),
  ]);
  commands.push([
    80,
    (at) =>
      w
        .u32(at, 0xb)
        .u32(at + 56, indirectOff)
        .u32(at + 60, INDIRECT.length),
  ]);
  for (const lib of [LIBSYSTEM, LIBZ]) {
    commands.push([
      (24 + lib.length + 1 + 7) & ~7,
      (at) =>
        w
          .u32(at, 0xc)
          .u32(at + 8, 24)
          .ascii(at + 24, lib),
    ]);
  }
  if (spec.entry === 'thread') {
    // x86_THREAD_STATE64 (flavor 4, 42 words) with rip = base + 0x1000; ARM64 (flavor 6, 68 words) likewise.
    const arm64 = spec.cputype === 0x0100000c;
    const [flavor, count, pc] = arm64 ? [6, 68, 32 * 8] : [4, 42, 16 * 8];
    commands.push([
      16 + count * 4,
      (at) => (
        w
          .u32(at, 0x5)
          .u32(at + 8, flavor)
          .u32(at + 12, count),
        word(at + 16 + pc, base + 0x1000)
      ),
    ]);
  } else commands.push([24, (at) => void w.u32(at, 0x80000028).u64(at + 8, 0x1000)]);
  commands.push([
    16,
    (at) =>
      w
        .u32(at, 0x26)
        .u32(at + 8, startsOff)
        .u32(at + 12, starts.length),
  ]);
  commands.push([24, (at) => UUID_BYTES.forEach((b, i) => w.u32(at, 0x1b).u8(at + 8 + i, b))]);
  commands.push([
    16,
    (at) =>
      w
        .u32(at, 0x1d)
        .u32(at + 8, signatureOff)
        .u32(at + 12, 16),
  ]);

  const sizeofcmds = commands.reduce((n, [size]) => n + size, 0);
  w.u32(0, is64 ? 0xfeedfacf : 0xfeedface)
    .u32(4, spec.cputype)
    .u32(12, 2)
    .u32(16, commands.length)
    .u32(20, sizeofcmds)
    .u32(24, 0x200085);
  let at = headerSize;
  for (const [size, write] of commands) {
    w.u32(at + 4, size);
    write(at);
    at += size;
  }
  // LC_SYMTAB comes right after the segment commands.
  const symtabCommand = headerSize + commands.slice(0, segments.length).reduce((n, [size]) => n + size, 0);

  // Contents: code, stubs, the initializer pointer (→ __text + 0x20), nlists, strings, indirect, starts.
  w.u8(0x1000, 0xc3);
  word(0x2030, base + 0x1020);
  NLISTS.forEach(([, type, sect, desc, value], i) => {
    const x = symoff + i * nlistSize;
    w.u32(x, strx[i]!)
      .u8(x + 4, type)
      .u8(x + 5, sect)
      .u16(x + 6, desc);
    word(x + 8, value === 0 && !(type & N_SECT) ? 0 : base + value);
  });
  w.ascii(stroff, strings);
  INDIRECT.forEach((s, i) => w.u32(indirectOff + i * 4, s));
  starts.forEach((b, i) => w.u8(startsOff + i, b));
  w.u32(signatureOff, 0xfade0cc0);
  return {
    bytes: w.bytes.slice(0, end),
    base,
    at: { ncmds: 16, sizeofcmds: 20, firstCommand: headerSize, symtabCommand },
  };
}
