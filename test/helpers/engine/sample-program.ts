// Test-only: a small but complete dynamically linked program for any class, byte order and machine, with
// the facts the parser should find listed beside it (symbols, imports with PLT stubs, init/fini arrays
// filled by RELATIVE relocations, .eh_frame, build ID, hardening flags).
import { DataBuilder, buildElf, stringTable, type SectionSpec } from './elf.js';

export interface ProgramSpec {
  bits: 32 | 64;
  little: boolean;
  machine: number;
  bindNow?: boolean;
  /** Functions of .text are Thumb code (ARM): symbol values and array entries carry the low bit. */
  thumb?: boolean;
}

/** Relocation numbers per machine: [JUMP_SLOT, GLOB_DAT, RELATIVE], and whether tables are RELA. */
const RELOCS: Record<number, { types: [number, number, number]; rela: boolean }> = {
  62: { types: [7, 6, 8], rela: true },
  3: { types: [7, 6, 8], rela: false },
  183: { types: [1026, 1025, 1027], rela: true },
  40: { types: [22, 21, 23], rela: false },
  20: { types: [21, 20, 22], rela: true },
  21: { types: [21, 20, 22], rela: true },
};

export const PROGRAM = {
  plt: 0x10e00,
  text: 0x11000,
  start: 0x11000,
  exported: 0x11010,
  init: 0x11020,
  fini: 0x11030,
  local: 0x11040,
  ehFrame: 0x12000,
  initArray: 0x13010,
  finiArray: 0x13018,
  got: 0x13030,
  gotPlt: 0x13038,
  data: 0x13800,
  dynamic: 0x13100,
  buildId: '0102030405060708090a0b0c0d0e0f1011121314',
  imports: ['printf', '__printf_chk'],
};

const A = PROGRAM;
const SHF_WA = 3;
const SHF_AX = 6;

/** PLT entries (entry i jumps through `slots[i]`) in the machine's usual form; empty for others. */
function pltBytes(spec: ProgramSpec, slots: number[]): { data: Uint8Array; stubs: number[] } {
  const d = new DataBuilder(true);
  const stubs: number[] = [];
  d.raw(new Uint8Array(16)); // PLT0: never a stub of an import
  slots.forEach((slot, i) => {
    const at = A.plt + d.length;
    stubs.push(at);
    if (spec.machine === 62)
      d.raw([0xff, 0x25])
        .u32(slot - (at + 6))
        .u8(0x68)
        .u32(i)
        .u8(0xe9)
        .u32(0);
    else if (spec.machine === 3) d.raw([0xff, 0x25]).u32(slot).u8(0x68).u32(i).u8(0xe9).u32(0);
    else if (spec.machine === 183) {
      const pages = Math.floor(slot / 4096) - Math.floor(at / 4096);
      d.u32((0x90000010 | ((pages & 3) << 29) | (((pages >> 2) & 0x7ffff) << 5)) >>> 0);
      d.u32((0xf9400211 | (((slot & 0xfff) / 8) << 10)) >>> 0);
      d.u32((0x91000210 | ((slot & 0xfff) << 10)) >>> 0).u32(0xd61f0220);
    } else if (spec.machine === 40) {
      const delta = slot - (at + 8);
      d.u32((0xe28fc600 | ((delta >>> 20) & 0xff)) >>> 0);
      d.u32((0xe28cca00 | ((delta >>> 12) & 0xff)) >>> 0);
      d.u32((0xe5bcf000 | (delta & 0xfff)) >>> 0).u32(0);
    } else stubs.pop();
  });
  return { data: d.bytes(), stubs };
}

/** CIE "zR" with pcrel|sdata4 FDE pointers, then one FDE per [start, size], then the terminator. */
export function ehFrame(little: boolean, base: number, fdes: [number, number][]): Uint8Array {
  const d = new DataBuilder(little);
  d.u32(16).u32(0).u8(1).ascii('zR\0').u8(1).u8(0x78).u8(16).u8(1).u8(0x1b).raw([0, 0, 0]);
  for (const [start, size] of fdes) {
    const at = d.length;
    d.u32(16).u32(at + 4); // CIE pointer: distance back to the CIE at 0
    d.u32(start - (base + at + 8))
      .u32(size)
      .u8(0)
      .raw([0, 0, 0]);
  }
  return d.u32(0).bytes();
}

export function sampleProgram(spec: ProgramSpec): Uint8Array {
  const is64 = spec.bits === 64;
  const le = spec.little;
  const word = is64 ? 8 : 4;
  const { types, rela } = RELOCS[spec.machine] ?? { types: [7, 6, 8], rela: true };
  const [JUMP_SLOT, GLOB_DAT, RELATIVE] = types;
  const t = spec.thumb ? 1 : 0;
  const dynstr = stringTable(['libc.so.6', 'libm.so.6', ...A.imports, '__stack_chk_fail', 'exported_fn', 'data_obj']);
  const strtab = stringTable([
    'crt.c',
    '_start',
    'exported_fn',
    'init_fn',
    'local_fn',
    'data_obj',
    'printf',
    '$t',
    '$d',
  ]);

  const sym = (d: DataBuilder, name: number, value: number, size: number, info: number, shndx: number): void => {
    if (is64) d.u32(name).u8(info).u8(0).u16(shndx).u64(value).u64(size);
    else d.u32(name).u32(value).u32(size).u8(info).u8(0).u16(shndx);
  };
  // Section indices of .text and .data in the list below.
  const TEXT = 9;
  const DATA = 15;
  const dynsym = new DataBuilder(le, is64);
  sym(dynsym, 0, 0, 0, 0, 0);
  for (const n of [...A.imports, '__stack_chk_fail']) sym(dynsym, dynstr.offset(n), 0, 0, 0x12, 0);
  sym(dynsym, dynstr.offset('exported_fn'), A.exported + t, 16, 0x12, TEXT);
  sym(dynsym, dynstr.offset('data_obj'), A.data, 8, 0x11, DATA);

  const symtab = new DataBuilder(le, is64);
  sym(symtab, 0, 0, 0, 0, 0);
  sym(symtab, strtab.offset('crt.c'), 0, 0, 0x04, 0xfff1);
  sym(symtab, 0, A.text, 0, 0x03, TEXT);
  sym(symtab, strtab.offset('$t'), A.text, 0, 0x00, TEXT);
  sym(symtab, strtab.offset('init_fn'), A.init + t, 16, 0x02, TEXT);
  sym(symtab, strtab.offset('local_fn'), A.local + t, 32, 0x02, TEXT);
  sym(symtab, strtab.offset('_start'), A.start + t, 16, 0x12, TEXT);
  sym(symtab, strtab.offset('exported_fn'), A.exported + t, 16, 0x12, TEXT);
  sym(symtab, strtab.offset('data_obj'), A.data, 8, 0x11, DATA);
  sym(symtab, strtab.offset('printf'), 0, 0, 0x12, 0);

  const reloc = (d: DataBuilder, at: number, type: number, symIndex: number, addend: number): void => {
    d.word(at);
    if (is64) d.u64((BigInt(symIndex) << 32n) | BigInt(type));
    else d.u32(symIndex * 256 + type);
    if (rela) d.word(addend);
  };
  const dynRel = new DataBuilder(le, is64);
  reloc(dynRel, A.initArray, RELATIVE, 0, A.init + t);
  reloc(dynRel, A.finiArray, RELATIVE, 0, A.fini + t);
  reloc(dynRel, A.got, GLOB_DAT, 3, 0);
  const slots = A.imports.map((_, i) => A.gotPlt + (3 + i) * word);
  const pltRel = new DataBuilder(le, is64);
  slots.forEach((slot, i) => reloc(pltRel, slot, JUMP_SLOT, i + 1, 0));
  const relEnt = (is64 ? 16 : 8) + (rela ? word : 0);

  // REL keeps the addend in the relocated word; RELA leaves the file's word 0 (as PIE linkers do).
  const arrayWord = (v: number): Uint8Array => new DataBuilder(le, is64).word(rela ? 0 : v).bytes();
  const plt = pltBytes(spec, slots);

  const interp = new TextEncoder().encode('/lib/ld-test.so.1\0');
  const note = new DataBuilder(le).u32(4).u32(20).u32(3).ascii('GNU\0');
  for (let i = 1; i <= 20; i++) note.u8(i);

  const dynamic = new DataBuilder(le, is64);
  const dt = (tag: number, value: number): void => void dynamic.word(tag).word(value);
  dt(1, dynstr.offset('libc.so.6'));
  dt(1, dynstr.offset('libm.so.6'));
  dt(25, A.initArray);
  dt(27, word);
  dt(26, A.finiArray);
  dt(28, word);
  dt(5, 0x10a00);
  dt(10, dynstr.data.length);
  dt(6, 0x10900);
  dt(11, is64 ? 24 : 16);
  dt(rela ? 7 : 17, 0x10b00);
  dt(rela ? 8 : 18, dynRel.length);
  dt(rela ? 9 : 19, relEnt);
  dt(23, 0x10c00);
  dt(2, pltRel.length);
  dt(20, rela ? 7 : 17);
  dt(3, A.gotPlt);
  if (spec.bindNow) dt(30, 8);
  dt(0x6ffffffb, spec.bindNow ? 0x08000001 : 0x08000000);
  dt(0, 0);

  const text = new Uint8Array(0x100).fill(spec.machine === 62 || spec.machine === 3 ? 0xc3 : 0);
  const sections: SectionSpec[] = [
    { name: '.interp', type: 1, flags: 2, addr: 0x10800, data: interp },
    { name: '.note.gnu.build-id', type: 7, flags: 2, addr: 0x10820, data: note.bytes(), align: 4 },
    {
      name: '.dynsym',
      type: 11,
      flags: 2,
      addr: 0x10900,
      data: dynsym.bytes(),
      link: '.dynstr',
      info: 1,
      entsize: is64 ? 24 : 16,
    },
    { name: '.dynstr', type: 3, flags: 2, addr: 0x10a00, data: dynstr.data },
    {
      name: rela ? '.rela.dyn' : '.rel.dyn',
      type: rela ? 4 : 9,
      flags: 2,
      addr: 0x10b00,
      data: dynRel.bytes(),
      link: '.dynsym',
      entsize: relEnt,
    },
    {
      name: rela ? '.rela.plt' : '.rel.plt',
      type: rela ? 4 : 9,
      flags: 0x42,
      addr: 0x10c00,
      data: pltRel.bytes(),
      link: '.dynsym',
      entsize: relEnt,
    },
    { name: '.init', type: 1, flags: SHF_AX, addr: 0x10d00, data: new Uint8Array(16) },
    { name: '.plt', type: 1, flags: SHF_AX, addr: A.plt, data: plt.data },
    { name: '.text', type: 1, flags: SHF_AX, addr: A.text, data: text },
    {
      name: '.eh_frame',
      type: 1,
      flags: 2,
      addr: A.ehFrame,
      data: ehFrame(le, A.ehFrame, [
        [A.start, 16],
        [A.exported, 16],
        [A.local, 32],
      ]),
    },
    { name: '.init_array', type: 14, flags: SHF_WA, addr: A.initArray, data: arrayWord(A.init + t), entsize: word },
    { name: '.fini_array', type: 15, flags: SHF_WA, addr: A.finiArray, data: arrayWord(A.fini + t), entsize: word },
    { name: '.got', type: 1, flags: SHF_WA, addr: A.got, data: new Uint8Array(word) },
    { name: '.got.plt', type: 1, flags: SHF_WA, addr: A.gotPlt, data: new Uint8Array(word * (3 + slots.length)) },
    { name: '.data', type: 1, flags: SHF_WA, addr: A.data, data: new Uint8Array(16) },
    {
      name: '.dynamic',
      type: 6,
      flags: SHF_WA,
      addr: A.dynamic,
      data: dynamic.bytes(),
      link: '.dynstr',
      entsize: 2 * word,
    },
    { name: '.symtab', type: 2, data: symtab.bytes(), link: '.strtab', info: 6, entsize: is64 ? 24 : 16 },
    { name: '.strtab', type: 3, data: strtab.data },
    { name: '.debug_info', type: 1, data: new Uint8Array(32) },
  ];
  return buildElf({
    bits: spec.bits,
    little: le,
    machine: spec.machine,
    type: 3,
    entry: A.start + t,
    sections,
    segments: [
      { type: 3, flags: 4, addr: 0x10800, size: interp.length },
      { type: 2, flags: 6, addr: A.dynamic, size: dynamic.length },
      { type: 4, flags: 4, addr: 0x10820, size: note.length },
      { type: 0x6474e551, flags: 6 },
      { type: 0x6474e552, flags: 4, addr: A.initArray, size: A.data - A.initArray },
    ],
  });
}

/** Stub addresses sampleProgram gives each import, for machines with a PLT decoder. */
export function expectedStubs(spec: ProgramSpec): number[] {
  const word = spec.bits === 64 ? 8 : 4;
  return pltBytes(
    spec,
    A.imports.map((_, i) => A.gotPlt + (3 + i) * word),
  ).stubs;
}

/** A little-endian ELF64 with its .symtab hidden (section type set to SHT_NULL), as `strip` leaves the code. */
export function withoutSymtab(elf: Uint8Array): Uint8Array {
  const out = elf.slice();
  const v = new DataView(out.buffer);
  const shoff = Number(v.getBigUint64(0x28, true));
  const shentsize = v.getUint16(0x3a, true);
  const shnum = v.getUint16(0x3c, true);
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * shentsize + 4;
    if (v.getUint32(at, true) === 2 /* SHT_SYMTAB */) v.setUint32(at, 0, true);
  }
  return out;
}
