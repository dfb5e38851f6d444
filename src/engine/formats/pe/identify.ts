// PE/COFF identification (MZ stub → e_lfanew → 'PE\0\0' → COFF header → optional header) from a prefix.
import type { Architecture, BinaryIdentity } from '../../../contracts/result.js';
import { ByteView } from '../byte-view.js';

const DOS_HEADER_SIZE = 0x40;
const COFF_HEADER_SIZE = 20;
const PE32_MAGIC = 0x10b;
const PE32_PLUS_MAGIC = 0x20b;
const IMAGE_FILE_DLL = 0x2000;
const SUBSYSTEM_NATIVE = 1;
const DIR_IMPORT = 1;
const DIR_DEBUG = 6;
/** Optional-header bytes we need before the data directories: through Subsystem (offset 68, u16). */
const OPTIONAL_MIN = 70;

export function isMz(bytes: Uint8Array): boolean {
  return bytes[0] === 0x4d && bytes[1] === 0x5a;
}

function machineToArch(machine: number): Architecture {
  switch (machine) {
    case 0x14c:
      return 'x86';
    case 0x8664:
      return 'x86_64';
    case 0x1c0: // ARM
    case 0x1c2: // Thumb
    case 0x1c4: // ARMv7 Thumb-2 (ARMNT)
      return 'arm';
    case 0xaa64:
      return 'arm64';
    default:
      return 'unknown';
  }
}

/**
 * Identity of a PE image, or null when it is not one or its headers do not fit in the prefix (plain DOS
 * executables, truncated files, e_lfanew pointing anywhere hostile).
 */
export function identifyPe(head: Uint8Array): BinaryIdentity | null {
  if (!isMz(head)) return null;
  const v = new ByteView(head, true);
  if (!v.has(0, DOS_HEADER_SIZE)) return null;
  const pe = v.u32(0x3c);
  if (!v.has(pe, 4 + COFF_HEADER_SIZE) || v.u32(pe) !== 0x00004550) return null;

  const coff = pe + 4;
  const machine = v.u16(coff);
  const optionalSize = v.u16(coff + 16);
  const characteristics = v.u16(coff + 18);
  const opt = coff + COFF_HEADER_SIZE;
  if (optionalSize < OPTIONAL_MIN || !v.has(opt, OPTIONAL_MIN)) return null;

  const magic = v.u16(opt);
  if (magic !== PE32_MAGIC && magic !== PE32_PLUS_MAGIC) return null;
  const is64 = magic === PE32_PLUS_MAGIC;
  const entryRva = v.u32(opt + 16);
  const imageBase = is64 ? v.u64(opt + 24) : v.u32(opt + 28);
  const subsystem = v.u16(opt + 68);

  // Data directories count only when declared (NumberOfRvaAndSizes) and inside the optional header.
  const countAt = is64 ? 108 : 92;
  const dirs = is64 ? 112 : 96;
  const declared = v.has(opt + countAt, 4) ? v.u32(opt + countAt) : 0;
  const dirSize = (index: number): number => {
    const at = dirs + index * 8;
    if (index >= declared || at + 8 > optionalSize || !v.has(opt + at, 8)) return 0;
    return v.u32(opt + at + 4);
  };

  let binaryType = 'executable';
  if (characteristics & IMAGE_FILE_DLL) binaryType = 'dll';
  else if (subsystem === SUBSYSTEM_NATIVE) binaryType = 'driver';

  return {
    format: 'pe',
    architecture: machineToArch(machine),
    bits: is64 ? 64 : 32,
    endianness: 'little',
    platform: 'windows',
    binaryType,
    dynamic: dirSize(DIR_IMPORT) !== 0,
    // AddressOfEntryPoint 0 means "no entry point" (resource-only and many plain DLLs).
    entryPoint: entryRva === 0 ? null : imageBase + entryRva,
    baseAddress: imageBase,
    debug: dirSize(DIR_DEBUG) !== 0,
    subsystem: SUBSYSTEMS[subsystem] ?? `unknown (${subsystem})`,
  };
}

/** IMAGE_SUBSYSTEM_* values, named as the PE/COFF specification describes them. */
const SUBSYSTEMS: Record<number, string> = {
  1: 'Native',
  2: 'Windows GUI',
  3: 'Windows CUI',
  5: 'OS/2 CUI',
  7: 'POSIX CUI',
  8: 'Native Windows',
  9: 'Windows CE GUI',
  10: 'EFI Application',
  11: 'EFI Boot Service Driver',
  12: 'EFI Runtime Driver',
  13: 'EFI ROM',
  14: 'Xbox',
  16: 'Windows Boot Application',
};
