// The bytes of the DWARF sections, found by name in a BinaryImage: `.debug_info` in ELF and in PE (whose
// parser resolves the long `/4` names through the COFF string table), `__DWARF,__debug_info` in Mach-O
// (section names there are cut at 16 characters: `__debug_str_offs`).
import type { BinaryImage } from '../../formats/image.js';

const NAMES = {
  info: 'debug_info',
  abbrev: 'debug_abbrev',
  str: 'debug_str',
  lineStr: 'debug_line_str',
  strOffsets: 'debug_str_offsets',
  addr: 'debug_addr',
  ranges: 'debug_ranges',
  rnglists: 'debug_rnglists',
  line: 'debug_line',
  types: 'debug_types',
} as const;

export type SectionKey = keyof typeof NAMES;

export type DwarfSections = { little: boolean } & Record<SectionKey, Uint8Array | null>;

/** ELF SHF_COMPRESSED sections open with an Elf_Chdr whose type is 1 (zlib) or 2 (zstd), never a unit length. */
const ELFCOMPRESS_MAX = 2;

function sectionBytes(image: BinaryImage, names: string[]): Uint8Array | null {
  const s = image.sections.find((x) => names.includes(x.name) && x.fileSize > 0);
  if (!s || s.fileOffset < 0 || s.fileOffset >= image.bytes.length) return null;
  return image.bytes.subarray(s.fileOffset, Math.min(image.bytes.length, s.fileOffset + s.fileSize));
}

/** The DWARF sections of `image`, or null when it has no readable .debug_info (reasons in `diagnostics`). */
export function findDwarfSections(image: BinaryImage, diagnostics: string[]): DwarfSections | null {
  const little = image.identity.endianness !== 'big';
  const found = { little } as DwarfSections;
  for (const key of Object.keys(NAMES) as SectionKey[]) {
    const name = NAMES[key];
    found[key] = sectionBytes(image, [`.${name}`, `__DWARF,__${name}`.slice(0, '__DWARF,'.length + 16)]);
  }
  if (image.sections.some((s) => s.name === '.zdebug_info'))
    diagnostics.push('compressed DWARF (.zdebug_info) is not read');
  const info = found.info;
  if (!info) return null;
  const first = info.length >= 4 ? new DataView(info.buffer, info.byteOffset, 4).getUint32(0, little) : 0;
  if (first >= 1 && first <= ELFCOMPRESS_MAX) {
    diagnostics.push('compressed DWARF (SHF_COMPRESSED .debug_info) is not read');
    return null;
  }
  return found;
}
