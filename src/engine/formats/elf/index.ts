// ELF parser: a whole ELF file (32/64-bit, either byte order) → BinaryImage. Pure and bounded against
// hostile input: every count, offset and size is checked against the file; damage becomes diagnostics.
// May import src/contracts, src/shared and the sibling format modules (byte-view, elf identification).
import type { BinaryImage } from '../image.js';
import { parseElfDetailed } from './parse-elf.js';

/**
 * Parse an ELF file. Throws FormatError (../errors.js) only when there is no usable ELF header; any other
 * damage is reported in `diagnostics` with whatever could still be read.
 */
export function parseElf(bytes: Uint8Array): BinaryImage {
  return parseElfDetailed(bytes).image;
}
export { elfLoadPlan, type ElfLoadPlan } from './load-plan.js';
