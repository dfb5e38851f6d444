// What every stage of the ELF parser reads: the parsed header tables, the address map and the diagnostics.
import type { AddressMap } from './address-map.js';
import type { Diagnostics } from './diagnostics.js';
import type { ElfHeaders, SectionHeader } from './headers.js';
import { EM_AARCH64, EM_ARM } from './constants.js';

export interface ElfContext extends ElfHeaders {
  map: AddressMap;
  diag: Diagnostics;
}

export function sectionNamed(ctx: ElfContext, name: string): SectionHeader | undefined {
  return ctx.sections.find((s) => s.name === name);
}

/** [start, end) of a section's bytes in the file; empty for NOBITS or out-of-file sections. */
export function sectionRange(s: SectionHeader): [number, number] {
  return [s.offset, s.offset + s.fileBytes];
}

/**
 * Whether instructions are stored little-endian. AArch64 code is always little-endian; ARM BE8 images
 * (EF_ARM_BE8) keep big-endian data with little-endian code; everything else follows the data.
 */
export function codeIsLittle(ctx: ElfContext): boolean {
  const EF_ARM_BE8 = 0x00800000;
  if (ctx.header.machine === EM_AARCH64) return true;
  if (ctx.header.machine === EM_ARM && (ctx.header.flags & EF_ARM_BE8) !== 0) return true;
  return ctx.header.little;
}
