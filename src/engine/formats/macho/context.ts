// Per-parse state every Mach-O reader shares: the byte view of the chosen slice, capped diagnostics and a
// budget for names.
import type { ByteView } from '../byte-view.js';
import { ParseContext } from '../parse-context.js';

/**
 * Caps on what one file may make us produce, far above real binaries: load commands number in the tens to
 * low hundreds, symbols can name at most 255 sections (n_sect is one byte), and the largest frameworks carry
 * a few hundred thousand nlist entries and function starts. The caps only bound the work a hostile header
 * can ask for (each is a loop bound, never an allocation size).
 */
export const LIMITS = {
  fatArchs: 20,
  loadCommands: 4096,
  sections: 1024,
  symbols: 1 << 21,
  indirectSymbols: 1 << 20,
  functionStarts: 1 << 21,
  initPointers: 65536,
  /** Characters of names read in all (decoded natively, one search and one decode per name). */
  nameChars: 16 << 20,
} as const;

export class MachOContext extends ParseContext {
  constructor(v: ByteView) {
    super(v, LIMITS.nameChars);
  }

  /** Pointer-sized word without a BigInt: two 32-bit halves (values above 2^53 round, as ByteView's do). */
  word(offset: number, is64: boolean): number {
    if (!is64) return this.v.u32(offset);
    const [lo, hi] = this.v.little ? [offset, offset + 4] : [offset + 4, offset];
    return this.v.u32(hi) * 0x100000000 + this.v.u32(lo);
  }
}
