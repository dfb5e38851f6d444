// Test-only builders of synthetic ELF, PE and Mach-O headers, so tests need no binaries on disk.

/** Little helper that writes integers of either byte order into a zero-filled buffer. */
export class ByteWriter {
  readonly bytes: Uint8Array;
  private readonly dv: DataView;

  constructor(
    size: number,
    readonly little = true,
  ) {
    this.bytes = new Uint8Array(size);
    this.dv = new DataView(this.bytes.buffer);
  }

  u8(at: number, value: number): this {
    this.dv.setUint8(at, value);
    return this;
  }
  u16(at: number, value: number): this {
    this.dv.setUint16(at, value, this.little);
    return this;
  }
  u32(at: number, value: number): this {
    this.dv.setUint32(at, value >>> 0, this.little);
    return this;
  }
  u64(at: number, value: number | bigint): this {
    this.dv.setBigUint64(at, BigInt(value), this.little);
    return this;
  }
  word(at: number, value: number, is64: boolean): this {
    return is64 ? this.u64(at, value) : this.u32(at, value);
  }
  ascii(at: number, text: string): this {
    for (let i = 0; i < text.length; i++) this.bytes[at + i] = text.charCodeAt(i);
    return this;
  }
}

/** Copy of `bytes` with an integer overwritten: how tests corrupt a valid header. */
export function poke(bytes: Uint8Array, at: number, width: 1 | 2 | 4 | 8, value: number, little = true): Uint8Array {
  const out = new ByteWriter(bytes.length, little);
  out.bytes.set(bytes);
  if (width === 1) out.u8(at, value);
  else if (width === 2) out.u16(at, value);
  else if (width === 4) out.u32(at, value);
  else out.u64(at, value);
  return out.bytes;
}

export { seededRandom } from '../../../src/shared/seeded-random.js';

export interface ElfSpec {
  bits: 32 | 64;
  little: boolean;
  type: number;
  machine: number;
  entry?: number;
  /** Program headers; `data` (e.g. the PT_INTERP path) is stored NUL-terminated after the headers. */
  segments?: { type: number; vaddr?: number; data?: string }[];
  /** Section names; a `.shstrtab` is appended and made the name table. */
  sections?: string[];
}

export function elf(spec: ElfSpec): Uint8Array {
  const is64 = spec.bits === 64;
  const [ehsize, phentsize, shentsize] = is64 ? [64, 56, 64] : [52, 32, 40];
  const segments = spec.segments ?? [];
  const names = spec.sections ? [...spec.sections, '.shstrtab'] : [];
  const strtab = names.length > 0 ? '\0' + names.join('\0') + '\0' : '';
  const dataSize = segments.reduce((n, s) => n + (s.data ? s.data.length + 1 : 0), 0);
  const phoff = segments.length > 0 ? ehsize : 0;
  const dataOff = ehsize + segments.length * phentsize;
  const strOff = dataOff + dataSize;
  const shoff = names.length > 0 ? (strOff + strtab.length + 7) & ~7 : 0;
  const shnum = names.length > 0 ? names.length + 1 : 0;
  const w = new ByteWriter(Math.max(shoff + shnum * shentsize, strOff + strtab.length), spec.little);

  w.ascii(0, '\x7fELF')
    .u8(4, is64 ? 2 : 1)
    .u8(5, spec.little ? 1 : 2)
    .u8(6, 1);
  w.u16(16, spec.type)
    .u16(18, spec.machine)
    .u32(20, 1)
    .word(24, spec.entry ?? 0, is64);
  const [phoffAt, shoffAt, sizesAt] = is64 ? [32, 40, 52] : [28, 32, 40];
  w.word(phoffAt, phoff, is64).word(shoffAt, shoff, is64);
  w.u16(sizesAt, ehsize)
    .u16(sizesAt + 2, phentsize)
    .u16(sizesAt + 4, segments.length)
    .u16(sizesAt + 6, shentsize)
    .u16(sizesAt + 8, shnum)
    .u16(sizesAt + 10, shnum > 0 ? shnum - 1 : 0);

  let data = dataOff;
  segments.forEach((s, i) => {
    const at = ehsize + i * phentsize;
    const size = s.data ? s.data.length + 1 : 0;
    if (s.data) w.ascii(data, s.data);
    if (is64)
      w.u32(at, s.type)
        .u64(at + 8, data)
        .u64(at + 16, s.vaddr ?? 0)
        .u64(at + 32, size);
    else
      w.u32(at, s.type)
        .u32(at + 4, data)
        .u32(at + 8, s.vaddr ?? 0)
        .u32(at + 16, size);
    data += size;
  });

  w.ascii(strOff, strtab);
  let nameOff = 1;
  names.forEach((name, i) => {
    const at = shoff + (i + 1) * shentsize;
    w.u32(at, nameOff).u32(at + 4, name === '.shstrtab' ? 3 : 1);
    if (name === '.shstrtab')
      w.word(at + (is64 ? 24 : 16), strOff, is64).word(at + (is64 ? 32 : 20), strtab.length, is64);
    nameOff += name.length + 1;
  });
  return w.bytes;
}

export interface PeSpec {
  bits: 32 | 64;
  machine: number;
  imageBase: number;
  entryRva: number;
  dll?: boolean;
  subsystem?: number;
  importSize?: number;
  debugSize?: number;
}

export const PE_LFANEW = 0x80;

export function pe(spec: PeSpec): Uint8Array {
  const is64 = spec.bits === 64;
  const optSize = is64 ? 240 : 224;
  const opt = PE_LFANEW + 24;
  const w = new ByteWriter(opt + optSize + 16);
  w.ascii(0, 'MZ').u32(0x3c, PE_LFANEW).ascii(PE_LFANEW, 'PE\0\0');
  w.u16(PE_LFANEW + 4, spec.machine)
    .u16(PE_LFANEW + 20, optSize)
    .u16(PE_LFANEW + 22, 0x0002 | (spec.dll ? 0x2000 : 0));
  w.u16(opt, is64 ? 0x20b : 0x10b).u32(opt + 16, spec.entryRva);
  if (is64) w.u64(opt + 24, spec.imageBase);
  else w.u32(opt + 28, spec.imageBase);
  w.u16(opt + 68, spec.subsystem ?? 3);
  const dirs = opt + (is64 ? 112 : 96);
  w.u32(opt + (is64 ? 108 : 92), 16);
  if (spec.importSize) w.u32(dirs + 8, 0x2000).u32(dirs + 12, spec.importSize);
  if (spec.debugSize) w.u32(dirs + 48, 0x3000).u32(dirs + 52, spec.debugSize);
  return w.bytes;
}

export type LoadCommand =
  | { kind: 'segment'; name: string; vmaddr: number }
  | { kind: 'main'; entryoff: number }
  | { kind: 'dylib' | 'dylinker'; path: string }
  | { kind: 'other'; cmd: number; size: number };

export interface MachOSpec {
  bits: 32 | 64;
  little?: boolean;
  cputype: number;
  filetype: number;
  commands?: LoadCommand[];
}

function commandSize(c: LoadCommand, is64: boolean): number {
  if (c.kind === 'segment') return is64 ? 72 : 56;
  if (c.kind === 'main') return 24;
  if (c.kind === 'other') return c.size;
  return (12 + c.path.length + 1 + 7) & ~7;
}

export function machO(spec: MachOSpec): Uint8Array {
  const is64 = spec.bits === 64;
  const little = spec.little ?? true;
  const commands = spec.commands ?? [];
  const headerSize = is64 ? 32 : 28;
  const sizeofcmds = commands.reduce((n, c) => n + commandSize(c, is64), 0);
  const w = new ByteWriter(headerSize + sizeofcmds, little);
  w.u32(0, is64 ? 0xfeedfacf : 0xfeedface)
    .u32(4, spec.cputype)
    .u32(12, spec.filetype);
  w.u32(16, commands.length).u32(20, sizeofcmds);
  let at = headerSize;
  for (const c of commands) {
    const size = commandSize(c, is64);
    w.u32(at + 4, size);
    if (c.kind === 'segment')
      w.u32(at, is64 ? 0x19 : 0x1)
        .ascii(at + 8, c.name)
        .word(at + 24, c.vmaddr, is64);
    else if (c.kind === 'main') w.u32(at, 0x80000028).u64(at + 8, c.entryoff);
    else if (c.kind === 'other') w.u32(at, c.cmd);
    else
      w.u32(at, c.kind === 'dylib' ? 0xc : 0xe)
        .u32(at + 8, 12)
        .ascii(at + 12, c.path);
    at += size;
  }
  return w.bytes;
}

/** Universal binary with one slice per entry, each placed at `sliceAlign`-aligned offsets. */
export function fatMachO(slices: { cputype: number; image: Uint8Array }[], sliceAlign = 0x1000): Uint8Array {
  const offsets: number[] = [];
  let end = sliceAlign;
  for (const s of slices) {
    offsets.push(end);
    end += Math.ceil(s.image.length / sliceAlign) * sliceAlign;
  }
  const w = new ByteWriter(end, false);
  w.u32(0, 0xcafebabe).u32(4, slices.length);
  slices.forEach((s, i) => {
    const at = 8 + i * 20;
    w.u32(at, s.cputype)
      .u32(at + 8, offsets[i]!)
      .u32(at + 12, s.image.length)
      .u32(at + 16, Math.log2(sliceAlign));
    w.bytes.set(s.image, offsets[i]!);
  });
  return w.bytes;
}

/**
 * CPU time (user + system, ms) of `fn`: the hostile-input tests bound work with it rather than wall time,
 * which grows with whatever else the machine runs (1 s limits failed at 1.1–2.3 s under a load of 10).
 */
export function cpuTimed<T>(fn: () => T): { value: T; ms: number } {
  const before = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(before);
  return { value, ms: (used.user + used.system) / 1000 };
}
