// Mach-O identification: thin images (either byte order) and universal ("fat") wrappers, from a prefix.
import type { Architecture, BinaryIdentity } from '../../../contracts/result.js';
import { ByteView } from '../byte-view.js';
import {
  CPU_ABI64,
  FAT_MAGIC,
  FAT_MAGIC_64,
  LC_LOAD_DYLIB,
  LC_LOAD_DYLINKER,
  LC_LOAD_WEAK_DYLIB,
  LC_MAIN,
  LC_SEGMENT,
  LC_SEGMENT_64,
  MH_CIGAM,
  MH_CIGAM_64,
  MH_MAGIC,
  MH_MAGIC_64,
} from './constants.js';

/** Real universal binaries hold a handful of slices; Java class files share 0xcafebabe but put their
 *  major version (≥ 45) where nfat_arch would be. */
const MAX_FAT_ARCHS = 20;

const DYNAMIC_COMMANDS = new Set([LC_LOAD_DYLIB, LC_LOAD_DYLINKER, LC_LOAD_WEAK_DYLIB]);

const CPU_TYPES: ReadonlyMap<number, Architecture> = new Map<number, Architecture>([
  [7, 'x86'],
  [7 | CPU_ABI64, 'x86_64'],
  [12, 'arm'],
  [12 | CPU_ABI64, 'arm64'],
  [18, 'ppc'],
  [18 | CPU_ABI64, 'ppc64'],
]);

const FILE_TYPES: ReadonlyMap<number, string> = new Map([
  [1, 'relocatable'],
  [2, 'executable'],
  [4, 'core'],
  [6, 'shared_library'],
  [8, 'bundle'],
]);

export function isMachO(bytes: Uint8Array): boolean {
  const magic = new ByteView(bytes, false).u32(0);
  return [MH_MAGIC, MH_MAGIC_64, MH_CIGAM, MH_CIGAM_64, FAT_MAGIC, FAT_MAGIC_64].includes(magic);
}

/** Thin Mach-O starting at `base` within the prefix; null when the header does not fit. */
function parseThin(head: Uint8Array, base: number): BinaryIdentity | null {
  const magic = new ByteView(head, false).u32(base);
  const is64 = magic === MH_MAGIC_64 || magic === MH_CIGAM_64;
  if (!is64 && magic !== MH_MAGIC && magic !== MH_CIGAM) return null;
  const v = new ByteView(head, magic === MH_CIGAM || magic === MH_CIGAM_64);
  const headerSize = is64 ? 32 : 28;
  if (!v.has(base, headerSize)) return null;

  const cputype = v.u32(base + 4);
  const ncmds = v.u32(base + 16);
  const sizeofcmds = v.u32(base + 20);
  let dynamic = false;
  let debug = false;
  let entryPoint: number | null = null;
  let baseAddress: number | null = null;

  // Each command is at least 8 bytes, so the walk ends within prefix/8 steps whatever ncmds claims.
  const end = base + headerSize + sizeofcmds;
  let at = base + headerSize;
  for (let i = 0; i < ncmds && at < end && v.has(at, 8); i++) {
    const cmd = v.u32(at);
    const size = v.u32(at + 4);
    if (size < 8 || !v.has(at, size)) break;
    if (DYNAMIC_COMMANDS.has(cmd)) dynamic = true;
    if (cmd === LC_MAIN && size >= 16) entryPoint = v.u64(at + 8);
    if ((cmd === LC_SEGMENT || cmd === LC_SEGMENT_64) && size >= (cmd === LC_SEGMENT_64 ? 32 : 28)) {
      const name = v.fixedString(at + 8, 16);
      if (name === '__DWARF') debug = true;
      if (name === '__TEXT') baseAddress = v.word(at + 24, cmd === LC_SEGMENT_64);
    }
    at += size;
  }

  return {
    format: 'macho',
    architecture: CPU_TYPES.get(cputype) ?? 'unknown',
    bits: is64 ? 64 : 32,
    endianness: v.little ? 'little' : 'big',
    platform: 'macos',
    binaryType: FILE_TYPES.get(v.u32(base + 12)) ?? 'unknown',
    dynamic,
    // LC_MAIN's entryoff is a file offset of the __TEXT image, reported as is.
    entryPoint,
    baseAddress,
    debug,
  };
}

/**
 * Universal binary: the first slice decides the identity. When that slice's header lies inside the prefix
 * it is parsed in full; otherwise only what the fat header says (cputype) is known.
 */
function parseFat(head: Uint8Array): BinaryIdentity | null {
  const v = new ByteView(head, false);
  const is64 = v.u32(0) === FAT_MAGIC_64;
  const count = v.u32(4);
  const entrySize = is64 ? 32 : 20;
  if (count === 0 || count >= MAX_FAT_ARCHS || !v.has(8, entrySize)) return null;
  const cputype = v.u32(8);
  const architecture = CPU_TYPES.get(cputype);
  if (architecture === undefined) return null;
  const offset = is64 ? v.u64(16) : v.u32(16);

  const slice = offset > 0 ? parseThin(head, offset) : null;
  if (slice) return { ...slice, architecture };
  return {
    format: 'macho',
    architecture,
    bits: cputype & CPU_ABI64 ? 64 : 32,
    endianness: architecture === 'ppc' || architecture === 'ppc64' ? 'big' : 'little',
    platform: 'macos',
    binaryType: 'unknown',
    dynamic: false,
    entryPoint: null,
    baseAddress: null,
    debug: false,
  };
}

/** Identity of a thin or fat Mach-O, or null when not one (including Java class files) or truncated. */
export function identifyMachO(head: Uint8Array): BinaryIdentity | null {
  const magic = new ByteView(head, false).u32(0);
  if (magic === FAT_MAGIC || magic === FAT_MAGIC_64) return parseFat(head);
  return parseThin(head, 0);
}
