// Test-only builder of a small but complete PE (PE32 or PE32+): imports by name and ordinal, jmp-thunks, a
// tail call that is no thunk, exports with a forwarder and exported data, delay-load imports, CodeView RSDS,
// TLS callbacks, .pdata, base relocations, a COFF symbol table with long names, a long section name, an
// overlay and a certificate table. Files are laid out with file offset = RVA, so tests can poke by RVA.
import { ByteWriter } from './formats.js';

export const PE_OFFSETS = {
  lfanew: 0x80,
  numberOfSections: 0x86,
  pointerToSymbolTable: 0x8c,
  numberOfSymbols: 0x90,
  optional: 0x98,
} as const;

export interface SyntheticPe {
  bytes: Uint8Array;
  base: number;
  /** File offsets of NumberOfRvaAndSizes, the data directories and the section table (5 headers). */
  rvaCountAt: number;
  dirsAt: number;
  sectionTableAt: number;
  /** Addresses the parser should report. */
  expect: {
    entry: number;
    exports: { name: string; vaddr: number; ordinal: number }[];
    thunks: Record<string, number>;
    tailCall: number;
    tlsCallback: number;
    iat: Record<string, number>;
    overlay: { offset: number; size: number };
  };
}

const TEXT = 0x1000;
const RDATA = 0x2000;
const PDATA = 0x3000;
const RELOC = 0x4000;
const DEBUG = 0x5000;
const SYMTAB = 0x5200;
const SYMBOL_RECORDS = 10;

export function syntheticPe(bits: 32 | 64): SyntheticPe {
  const is64 = bits === 64;
  const base = is64 ? 0x140000000 : 0x400000;
  const ptr = is64 ? 8 : 4;
  const w = new ByteWriter(0x6000);
  const optSize = is64 ? 240 : 224;
  const opt = PE_OFFSETS.optional;
  const sectionTable = opt + optSize;
  const dirsAt = opt + (is64 ? 112 : 96);
  const dir = (index: number, rva: number, size: number): void => {
    w.u32(dirsAt + index * 8, rva).u32(dirsAt + index * 8 + 4, size);
  };
  /** A lookup entry and its IAT copy: the RVA of a hint/name entry, or an ordinal flagged by the top bit. */
  const thunk = (rva: number, value: bigint, iatRva: number): void => {
    if (is64) w.u64(rva, value).u64(iatRva, value);
    else w.u32(rva, Number(value)).u32(iatRva, Number(value));
  };
  let names = RDATA + 0x300;
  const hintName = (name: string): bigint => {
    const at = names;
    w.u16(at, 0).ascii(at + 2, name);
    names += (name.length + 4) & ~1;
    return BigInt(at);
  };
  const ordinalFlag = (n: number): bigint => BigInt(n) | (is64 ? 1n << 63n : 1n << 31n);

  // Headers.
  w.ascii(0, 'MZ').u32(0x3c, PE_OFFSETS.lfanew).ascii(PE_OFFSETS.lfanew, 'PE\0\0');
  w.u16(0x84, is64 ? 0x8664 : 0x14c)
    .u16(0x86, 5)
    .u32(0x8c, SYMTAB)
    .u32(0x90, SYMBOL_RECORDS)
    .u16(0x94, optSize)
    .u16(0x96, 0x22);
  w.u16(opt, is64 ? 0x20b : 0x10b).u32(opt + 16, TEXT);
  if (is64) w.u64(opt + 24, base);
  else w.u32(opt + 28, base);
  w.u32(opt + 32, 0x1000)
    .u32(opt + 36, 0x200)
    .u32(opt + 56, 0x6000)
    .u32(opt + 60, 0x400);
  w.u16(opt + 68, 3).u16(opt + 70, 0x4160);
  w.u32(opt + (is64 ? 108 : 92), 16);
  const sections: [string, number, number, number][] = [
    ['.text', TEXT, 0x300, 0x60000020],
    ['.rdata', RDATA, 0xc00, 0x40000040],
    ['.pdata', PDATA, 0x30, 0x40000040],
    ['.reloc', RELOC, 0x20, 0x42000040],
    ['/30', DEBUG, 0x10, 0x42000040],
  ];
  sections.forEach(([name, rva, size, flags], i) => {
    const at = sectionTable + i * 40;
    w.ascii(at, name)
      .u32(at + 8, size)
      .u32(at + 12, rva)
      .u32(at + 16, (size + 0x1ff) & ~0x1ff)
      .u32(at + 20, rva)
      .u32(at + 36, flags);
  });

  // Imports: KERNEL32 by name, WS2_32 by ordinal 23 and by name.
  const iat = { CreateProcessA: RDATA + 0x200, VirtualAllocEx: RDATA + 0x200 + ptr } as Record<string, number>;
  iat.WriteProcessMemory = RDATA + 0x200 + 2 * ptr;
  iat.ordinal_23 = RDATA + 0x240;
  iat.__stack_chk_fail = RDATA + 0x240 + ptr;
  ['CreateProcessA', 'VirtualAllocEx', 'WriteProcessMemory'].forEach((n, i) =>
    thunk(RDATA + 0x100 + i * ptr, hintName(n), RDATA + 0x200 + i * ptr),
  );
  thunk(RDATA + 0x140, ordinalFlag(23), RDATA + 0x240);
  thunk(RDATA + 0x140 + ptr, hintName('__stack_chk_fail'), RDATA + 0x240 + ptr);
  w.ascii(RDATA + 0x380, 'KERNEL32.dll')
    .ascii(RDATA + 0x390, 'WS2_32.dll')
    .ascii(RDATA + 0x3a0, 'USER32.dll');
  w.u32(RDATA, RDATA + 0x100)
    .u32(RDATA + 12, RDATA + 0x380)
    .u32(RDATA + 16, RDATA + 0x200);
  w.u32(RDATA + 20, RDATA + 0x140)
    .u32(RDATA + 32, RDATA + 0x390)
    .u32(RDATA + 36, RDATA + 0x240);
  dir(1, RDATA, 60);
  dir(12, RDATA + 0x200, 0x60);

  // Thunks: jmp [CreateProcessA], jmp [ordinal_23]; a REX.W tail call and a jmp to a non-slot are not thunks.
  const jmp = (rva: number, slotRva: number, rex = false): void => {
    const at = rex ? rva + 1 : rva;
    if (rex) w.u8(rva, 0x48);
    w.u8(at, 0xff).u8(at + 1, 0x25);
    w.u32(at + 2, is64 ? slotRva - (at + 6) : base + slotRva);
  };
  jmp(TEXT + 0x100, iat.CreateProcessA!);
  w.u16(TEXT + 0x106, 0x9090);
  jmp(TEXT + 0x108, iat.ordinal_23!);
  jmp(TEXT + 0x200, iat.VirtualAllocEx!, true);
  jmp(TEXT + 0x210, RDATA + 0x800);
  w.u8(TEXT, 0xc3);

  // Exports: alpha, beta, a forwarder, exported data (gamma), an unnamed function (ordinal 5).
  const exp = RDATA + 0x400;
  w.u32(exp + 12, exp + 0x80)
    .u32(exp + 16, 1)
    .u32(exp + 20, 5)
    .u32(exp + 24, 4)
    .u32(exp + 28, exp + 0x30)
    .u32(exp + 32, exp + 0x50)
    .u32(exp + 36, exp + 0x60);
  [TEXT + 0x10, TEXT + 0x20, exp + 0xc0, RDATA + 0xa00, TEXT + 0x40].forEach((r, i) => w.u32(exp + 0x30 + i * 4, r));
  ['alpha', 'beta', 'fwd', 'gamma'].forEach((n, i) => {
    w.u32(exp + 0x50 + i * 4, exp + 0x90 + i * 8).ascii(exp + 0x90 + i * 8, n);
    w.u16(exp + 0x60 + i * 2, i);
  });
  w.ascii(exp + 0x80, 'synth.dll').ascii(exp + 0xc0, 'NTDLL.RtlFoo');
  dir(0, exp, 0x100);

  // Debug directory → RSDS {GUID, age 3, path}.
  w.u32(RDATA + 0x600 + 12, 2)
    .u32(RDATA + 0x600 + 16, 0x40)
    .u32(RDATA + 0x600 + 20, RDATA + 0x700)
    .u32(RDATA + 0x600 + 24, RDATA + 0x700);
  w.ascii(RDATA + 0x700, 'RSDS')
    .u32(RDATA + 0x704, 0x12345678)
    .u16(RDATA + 0x708, 0x9abc)
    .u16(RDATA + 0x70a, 0xdef0);
  [1, 2, 3, 4, 5, 6, 7, 8].forEach((b, i) => w.u8(RDATA + 0x70c + i, b));
  w.u32(RDATA + 0x714, 3).ascii(RDATA + 0x718, 'C:\\build\\synth.pdb');
  dir(6, RDATA + 0x600, 28);

  // TLS directory → callbacks array [TEXT+0x30, 0].
  w.word(RDATA + 0x800 + 3 * ptr, base + RDATA + 0x840, is64).word(RDATA + 0x840, base + TEXT + 0x30, is64);
  dir(9, RDATA + 0x800, is64 ? 40 : 24);

  // Delay-load USER32!MessageBoxA (RVA-based descriptor), then a zero terminator.
  w.u32(RDATA + 0x900, 1)
    .u32(RDATA + 0x904, RDATA + 0x3a0)
    .u32(RDATA + 0x90c, RDATA + 0x980)
    .u32(RDATA + 0x910, RDATA + 0x9c0);
  thunk(RDATA + 0x9c0, hintName('MessageBoxA'), RDATA + 0x980);
  w.word(RDATA + 0x980, base + TEXT + 0x50, is64);
  iat.MessageBoxA = RDATA + 0x980;
  dir(13, RDATA + 0x900, 64);

  // .pdata (x64 only): three functions and a chained fragment (UNW_FLAG_CHAININFO in its UNWIND_INFO).
  if (is64) {
    [
      [TEXT, TEXT + 1],
      [TEXT + 0x10, TEXT + 0x11],
      [TEXT + 0x20, TEXT + 0x21],
      [TEXT + 0x40, TEXT + 0x50],
    ].forEach(([b, e], i) =>
      w
        .u32(PDATA + i * 12, b!)
        .u32(PDATA + i * 12 + 4, e!)
        .u32(PDATA + i * 12 + 8, RDATA + 0xb00 + i * 16),
    );
    w.u8(RDATA + 0xb30, 0x21);
    dir(3, PDATA, 48);
  }

  // Base relocations: the TLS callback slot (points into .text → a pointer) and AddressOfCallBacks (data).
  const type = is64 ? 0xa : 0x3;
  w.u32(RELOC, RDATA).u32(RELOC + 4, 16);
  w.u16(RELOC + 8, (type << 12) | 0x840).u16(RELOC + 10, (type << 12) | (0x800 + 3 * ptr));
  w.u16(RELOC + 12, 0).u16(RELOC + 14, 0);
  dir(5, RELOC, 16);

  w.ascii(DEBUG, 'not really DWARF');
  const end = writeSymbols(w);
  // Overlay of 0x20 bytes, then an 8-aligned certificate table that ends the file.
  const cert = (end + 0x20 + 7) & ~7;
  w.u32(cert, 0x18)
    .u16(cert + 4, 0x200)
    .u16(cert + 6, 2);
  dir(4, cert, 0x18);
  const bytes = w.bytes.slice(0, cert + 0x18);
  return {
    bytes,
    base,
    rvaCountAt: opt + (is64 ? 108 : 92),
    dirsAt,
    sectionTableAt: sectionTable,
    expect: {
      entry: base + TEXT,
      exports: [
        { name: 'alpha', vaddr: base + TEXT + 0x10, ordinal: 1 },
        { name: 'beta', vaddr: base + TEXT + 0x20, ordinal: 2 },
        { name: 'gamma', vaddr: base + RDATA + 0xa00, ordinal: 4 },
        { name: 'ordinal_5', vaddr: base + TEXT + 0x40, ordinal: 5 },
      ],
      thunks: { CreateProcessA: base + TEXT + 0x100, ordinal_23: base + TEXT + 0x108 },
      tailCall: base + TEXT + 0x201,
      tlsCallback: base + TEXT + 0x30,
      iat: Object.fromEntries(Object.entries(iat).map(([k, r]) => [k, base + r])),
      overlay: { offset: end, size: cert - end },
    },
  };
}

/** COFF records at SYMTAB (10 with aux records) and the string table; returns the end of the string table. */
function writeSymbols(w: ByteWriter): number {
  // name (or string-table offset), value, section, type, storage class, aux records
  const records: [string | number, number, number, number, number, number][] = [
    ['alpha', 0x10, 1, 0x20, 2, 1],
    [4, 0x20, 1, 0x20, 3, 0],
    ['.text', 0, 1, 0, 3, 1],
    ['data_var', 0xa00, 2, 0, 2, 0],
    ['label', 0x40, 1, 0, 6, 0],
    ['.file', 0, 0xfffe, 0, 103, 1],
    ['absolute', 5, 0xffff, 0, 2, 0],
  ];
  let at = SYMTAB;
  for (const [name, value, section, type, storage, aux] of records) {
    if (typeof name === 'number') w.u32(at, 0).u32(at + 4, name);
    else w.ascii(at, name);
    w.u32(at + 8, value)
      .u16(at + 12, section)
      .u16(at + 14, type)
      .u8(at + 16, storage)
      .u8(at + 17, aux);
    at += 18 * (1 + aux);
  }
  const strings = SYMTAB + SYMBOL_RECORDS * 18;
  const table = '\0\0\0\0a_very_long_function_name\0.debug_info\0';
  w.ascii(strings, table).u32(strings, table.length);
  return strings + table.length;
}
