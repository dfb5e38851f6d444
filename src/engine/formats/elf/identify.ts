// ELF identification from a file prefix. Program and section headers past the prefix are treated as
// unavailable (their facts default to "not seen"), never as errors.
import type { Architecture, BinaryIdentity } from '../../../contracts/result.js';
import { ByteView, PAGE_SIZE, alignDown } from '../byte-view.js';

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;

const ET_REL = 1;
const ET_EXEC = 2;
const ET_DYN = 3;
const ET_CORE = 4;

const ANDROID_LINKERS = new Set(['/system/bin/linker', '/system/bin/linker64']);
const DEBUG_SECTIONS = new Set(['.debug_info', '.debug_line', '.zdebug_info']);
const ANDROID_NOTE = '.note.android.ident';
/** Section names we look for are short; reading more of a hostile name is wasted work. */
const MAX_SECTION_NAME = 64;

export function isElf(bytes: Uint8Array): boolean {
  return ELF_MAGIC.every((b, i) => bytes[i] === b);
}

function machineToArch(machine: number, is64: boolean): Architecture {
  switch (machine) {
    case 3:
      return 'x86';
    case 62:
      return 'x86_64';
    case 40:
      return 'arm';
    case 183:
      return 'arm64';
    case 8:
      return is64 ? 'mips64' : 'mips';
    case 20:
      return 'ppc';
    case 21:
      return 'ppc64';
    case 243:
      return 'riscv';
    default:
      return 'unknown';
  }
}

/** Header field offsets that differ between ELFCLASS32 and ELFCLASS64. */
interface Layout {
  is64: boolean;
  ehsize: number;
  phoff: number;
  shoff: number;
  phentsize: number;
  phnum: number;
  shentsize: number;
  shnum: number;
  shstrndx: number;
  /** Minimum program/section header entry sizes: smaller ones would make us read overlapping garbage. */
  minPh: number;
  minSh: number;
}

const LAYOUT32: Layout = {
  is64: false,
  ehsize: 52,
  phoff: 28,
  shoff: 32,
  phentsize: 42,
  phnum: 44,
  shentsize: 46,
  shnum: 48,
  shstrndx: 50,
  minPh: 32,
  minSh: 40,
};
const LAYOUT64: Layout = {
  is64: true,
  ehsize: 64,
  phoff: 32,
  shoff: 40,
  phentsize: 54,
  phnum: 56,
  shentsize: 58,
  shnum: 60,
  shstrndx: 62,
  minPh: 56,
  minSh: 64,
};

interface Segment {
  type: number;
  offset: number;
  vaddr: number;
  filesz: number;
}

/** Program headers inside the prefix; the loop is bounded by both e_phnum (u16) and the prefix length. */
function readSegments(v: ByteView, l: Layout): Segment[] {
  const phoff = v.word(l.phoff, l.is64);
  const entsize = v.u16(l.phentsize);
  const count = v.u16(l.phnum);
  const out: Segment[] = [];
  if (entsize < l.minPh || phoff === 0) return out;
  for (let i = 0; i < count; i++) {
    const at = phoff + i * entsize;
    if (!v.has(at, l.minPh)) break;
    out.push(
      l.is64
        ? { type: v.u32(at), offset: v.u64(at + 8), vaddr: v.u64(at + 16), filesz: v.u64(at + 32) }
        : { type: v.u32(at), offset: v.u32(at + 4), vaddr: v.u32(at + 8), filesz: v.u32(at + 16) },
    );
  }
  return out;
}

/** Names of the sections whose headers and name table both lie inside the prefix. */
function readSectionNames(v: ByteView, l: Layout): string[] {
  const shoff = v.word(l.shoff, l.is64);
  const entsize = v.u16(l.shentsize);
  const count = v.u16(l.shnum);
  const strndx = v.u16(l.shstrndx);
  if (shoff === 0 || entsize < l.minSh || strndx >= count) return [];
  const header = (i: number): number => shoff + i * entsize;
  const offsetField = l.is64 ? 24 : 16;
  const sizeField = l.is64 ? 32 : 20;
  const strHeader = header(strndx);
  if (!v.has(strHeader, l.minSh)) return [];
  const strOff = v.word(strHeader + offsetField, l.is64);
  const strSize = v.word(strHeader + sizeField, l.is64);
  if (!v.has(strOff, 1)) return [];
  // A name table that claims to run past the prefix is clipped to it.
  const strEnd = Math.min(v.length, strOff + strSize);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = header(i);
    if (!v.has(at, l.minSh)) break;
    const nameAt = strOff + v.u32(at);
    if (nameAt >= strEnd) continue;
    names.push(v.cstring(nameAt, Math.min(MAX_SECTION_NAME, strEnd - nameAt)));
  }
  return names;
}

function binaryTypeOf(type: number, hasInterp: boolean): string {
  switch (type) {
    case ET_REL:
      return 'relocatable';
    case ET_EXEC:
      return 'executable';
    case ET_DYN:
      // A PIE is ET_DYN too; only executables ask for a program interpreter.
      return hasInterp ? 'executable' : 'shared_library';
    case ET_CORE:
      return 'core';
    default:
      return 'unknown';
  }
}

/** Identity of an ELF file, or null when the header is truncated or malformed (caller reports raw). */
export function identifyElf(head: Uint8Array): BinaryIdentity | null {
  if (!isElf(head)) return null;
  const cls = head[4];
  const data = head[5];
  if ((cls !== 1 && cls !== 2) || (data !== 1 && data !== 2)) return null;
  const l = cls === 2 ? LAYOUT64 : LAYOUT32;
  const v = new ByteView(head, data === 1);
  if (!v.has(0, l.ehsize)) return null;

  const segments = readSegments(v, l);
  const interp = segments.find((s) => s.type === PT_INTERP);
  const interpPath = interp && v.has(interp.offset, 1) ? v.cstring(interp.offset, interp.filesz) : '';
  const lowest = segments.reduce<number | null>(
    (low, s) => (s.type === PT_LOAD && (low === null || s.vaddr < low) ? s.vaddr : low),
    null,
  );
  const sections = readSectionNames(v, l);
  const entry = v.word(24, l.is64);

  return {
    format: 'elf',
    architecture: machineToArch(v.u16(18), l.is64),
    bits: l.is64 ? 64 : 32,
    endianness: v.little ? 'little' : 'big',
    platform: ANDROID_LINKERS.has(interpPath) || sections.includes(ANDROID_NOTE) ? 'android' : 'linux',
    binaryType: binaryTypeOf(v.u16(16), interp !== undefined),
    dynamic: interp !== undefined || segments.some((s) => s.type === PT_DYNAMIC),
    // e_entry 0 means "no entry point" in the ELF spec (relocatables, most shared objects).
    entryPoint: entry === 0 ? null : entry,
    baseAddress: lowest === null ? null : alignDown(lowest, PAGE_SIZE),
    debug: sections.some((name) => DEBUG_SECTIONS.has(name)),
  };
}
