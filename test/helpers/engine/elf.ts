// Test-only builder of small synthetic ELF files (either class, either byte order), so the parser's unit
// and hostile tests need no binaries on disk.
//
// Layout: headers in the first 0x800 bytes; each allocated section at file offset `addr - base` (so one
// PT_LOAD maps the whole image at `base`); non-allocated sections, the name table and the section header
// table after that.
import { ByteWriter } from './formats.js';

export interface SectionSpec {
  name: string;
  type: number;
  flags?: number;
  /** Required for allocated sections (flags & SHF_ALLOC); must be >= base + HEADER_ROOM. */
  addr?: number;
  data?: Uint8Array;
  /** Size of a NOBITS section. */
  size?: number;
  /** Name of the linked section (sh_link). */
  link?: string;
  info?: number;
  entsize?: number;
  align?: number;
}

export interface SegmentSpec {
  type: number;
  flags: number;
  addr?: number;
  size?: number;
}

export interface ElfBuild {
  bits: 32 | 64;
  little: boolean;
  machine: number;
  type?: number;
  entry?: number;
  flags?: number;
  base?: number;
  /** Flags of the PT_LOAD covering the image (default R+W+X). */
  loadFlags?: number;
  sections?: SectionSpec[];
  segments?: SegmentSpec[];
}

export const HEADER_ROOM = 0x800;
const SHF_ALLOC = 2;
const SHT_NOBITS = 8;

/** Bytes in the given byte order, built field by field: `data(true).u32(1).u64(2).bytes()`. */
export class DataBuilder {
  private readonly parts: number[] = [];

  constructor(
    readonly little: boolean,
    readonly is64 = false,
  ) {}

  private push(value: bigint | number, size: number): this {
    if (typeof value === 'number' && size <= 4) {
      for (let i = 0; i < size; i++) {
        const shift = 8 * (this.little ? i : size - 1 - i);
        this.parts.push(Math.floor(value / 2 ** shift) & 0xff);
      }
      return this;
    }
    const v = BigInt.asUintN(size * 8, BigInt(value));
    for (let i = 0; i < size; i++) {
      const shift = BigInt(8 * (this.little ? i : size - 1 - i));
      this.parts.push(Number((v >> shift) & 0xffn));
    }
    return this;
  }
  u8(v: number): this {
    return this.push(v, 1);
  }
  u16(v: number): this {
    return this.push(v, 2);
  }
  u32(v: number): this {
    return this.push(v, 4);
  }
  u64(v: number | bigint): this {
    return this.push(v, 8);
  }
  word(v: number | bigint): this {
    return this.push(typeof v === 'number' && !this.is64 ? v >>> 0 : v, this.is64 ? 8 : 4);
  }
  raw(bytes: ArrayLike<number>): this {
    for (let i = 0; i < bytes.length; i++) this.parts.push(bytes[i]! & 0xff);
    return this;
  }
  ascii(text: string): this {
    for (let i = 0; i < text.length; i++) this.parts.push(text.charCodeAt(i) & 0xff);
    return this;
  }
  get length(): number {
    return this.parts.length;
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** A NUL-separated string table and the offset of each string in it. */
export function stringTable(names: string[]): { data: Uint8Array; offset: (name: string) => number } {
  const offsets = new Map<string, number>();
  let text = '\0';
  for (const n of names) {
    if (offsets.has(n)) continue;
    offsets.set(n, text.length);
    text += n + '\0';
  }
  return { data: new TextEncoder().encode(text), offset: (n) => offsets.get(n) ?? 0 };
}

export function buildElf(spec: ElfBuild): Uint8Array {
  const is64 = spec.bits === 64;
  const base = spec.base ?? 0x10000;
  const sections = spec.sections ?? [];
  const names = stringTable([...sections.map((s) => s.name), '.shstrtab']);
  const [ehsize, phentsize, shentsize] = is64 ? [64, 56, 64] : [52, 32, 40];

  let allocEnd = HEADER_ROOM;
  for (const s of sections) {
    if (((s.flags ?? 0) & SHF_ALLOC) === 0) continue;
    const off = (s.addr ?? 0) - base;
    if (off < HEADER_ROOM) throw new Error(`section ${s.name} below the header room`);
    if (s.type !== SHT_NOBITS) allocEnd = Math.max(allocEnd, off + (s.data?.length ?? 0));
  }
  const offsets: number[] = [];
  let cursor = (allocEnd + 7) & ~7;
  for (const s of sections) {
    if (((s.flags ?? 0) & SHF_ALLOC) !== 0) offsets.push((s.addr ?? 0) - base);
    else {
      offsets.push(cursor);
      cursor = (cursor + (s.data?.length ?? 0) + 7) & ~7;
    }
  }
  const shstrOff = cursor;
  const shoff = (shstrOff + names.data.length + 7) & ~7;
  const shnum = sections.length + 2;
  const w = new ByteWriter(shoff + shnum * shentsize, spec.little);

  const segments: SegmentSpec[] = [
    { type: 1, flags: spec.loadFlags ?? 7, addr: base, size: allocEnd },
    ...(spec.segments ?? []),
  ];
  w.ascii(0, '\x7fELF')
    .u8(4, is64 ? 2 : 1)
    .u8(5, spec.little ? 1 : 2)
    .u8(6, 1);
  w.u16(16, spec.type ?? 3)
    .u16(18, spec.machine)
    .u32(20, 1)
    .word(24, spec.entry ?? 0, is64);
  const [phoffAt, shoffAt, flagsAt] = is64 ? [32, 40, 48] : [28, 32, 36];
  w.word(phoffAt, ehsize, is64)
    .word(shoffAt, shoff, is64)
    .u32(flagsAt, spec.flags ?? 0);
  w.u16(flagsAt + 4, ehsize)
    .u16(flagsAt + 6, phentsize)
    .u16(flagsAt + 8, segments.length)
    .u16(flagsAt + 10, shentsize)
    .u16(flagsAt + 12, shnum)
    .u16(flagsAt + 14, shnum - 1);

  segments.forEach((p, i) => {
    const at = ehsize + i * phentsize;
    const vaddr = p.addr ?? 0;
    const offset = vaddr >= base ? vaddr - base : 0;
    const size = p.size ?? 0;
    if (is64)
      w.u32(at, p.type)
        .u32(at + 4, p.flags)
        .u64(at + 8, offset)
        .u64(at + 16, vaddr)
        .u64(at + 24, vaddr)
        .u64(at + 32, size)
        .u64(at + 40, size)
        .u64(at + 48, 8);
    else
      w.u32(at, p.type)
        .u32(at + 4, offset)
        .u32(at + 8, vaddr)
        .u32(at + 12, vaddr)
        .u32(at + 16, size)
        .u32(at + 20, size)
        .u32(at + 24, p.flags)
        .u32(at + 28, 8);
  });

  w.bytes.set(names.data, shstrOff);
  const index = (name: string | undefined): number => (name ? sections.findIndex((s) => s.name === name) + 1 : 0);
  const header = (
    i: number,
    f: {
      name: number;
      type: number;
      flags: number;
      addr: number;
      offset: number;
      size: number;
      link: number;
      info: number;
      align: number;
      entsize: number;
    },
  ): void => {
    // Elf32_Shdr and Elf64_Shdr list the same fields in the same order; flags, addresses and sizes are words.
    const shdr = new DataBuilder(spec.little, is64)
      .u32(f.name)
      .u32(f.type)
      .word(f.flags)
      .word(f.addr)
      .word(f.offset)
      .word(f.size)
      .u32(f.link)
      .u32(f.info)
      .word(f.align)
      .word(f.entsize);
    w.bytes.set(shdr.bytes(), shoff + i * shentsize);
  };
  sections.forEach((s, i) => {
    if (s.data && s.type !== SHT_NOBITS) w.bytes.set(s.data, offsets[i]!);
    header(i + 1, {
      name: names.offset(s.name),
      type: s.type,
      flags: s.flags ?? 0,
      addr: s.addr ?? 0,
      offset: offsets[i]!,
      size: s.type === SHT_NOBITS ? (s.size ?? 0) : (s.data?.length ?? 0),
      link: index(s.link),
      info: s.info ?? 0,
      align: s.align ?? 1,
      entsize: s.entsize ?? 0,
    });
  });
  header(shnum - 1, {
    name: names.offset('.shstrtab'),
    type: 3,
    flags: 0,
    addr: 0,
    offset: shstrOff,
    size: names.data.length,
    link: 0,
    info: 0,
    align: 1,
    entsize: 0,
  });
  return w.bytes;
}
