// Per-parse state every Mach-O reader shares: the byte view of the chosen slice, capped diagnostics and a
// budget for names. (The PE parser has the same small helper; both would move to formats/ once shared.)
import type { ByteView } from '../byte-view.js';
import { MAX_STRING } from '../byte-view.js';

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
  diagnostics: 200,
} as const;

export class MachOContext {
  readonly diagnostics: string[] = [];
  private dropped = 0;
  private nameChars: number = LIMITS.nameChars;
  private budgetReported = false;

  constructor(readonly v: ByteView) {}

  warn(message: string): void {
    if (this.diagnostics.length < LIMITS.diagnostics) this.diagnostics.push(message);
    else this.dropped++;
  }

  /** NUL-terminated name, capped at MAX_STRING and charged to the shared budget. */
  name(offset: number, max = MAX_STRING): string {
    if (this.nameChars <= 0) {
      if (!this.budgetReported) this.warn('name budget exhausted: remaining names left empty');
      this.budgetReported = true;
      return '';
    }
    if (!this.v.has(offset, 1)) return '';
    // One native NUL search and one native decode per name: ByteView.cstring's per-character
    // concatenation costs ~200 ns a character, too slow for a budget of millions.
    const bytes = this.v.bytes;
    const window = bytes.subarray(offset, Math.min(bytes.length, offset + Math.min(max, MAX_STRING, this.nameChars)));
    const nul = window.indexOf(0);
    const s = String.fromCharCode.apply(null, window.subarray(0, nul < 0 ? window.length : nul) as unknown as number[]);
    this.nameChars -= s.length + 1;
    return s;
  }

  /** Pointer-sized word without a BigInt: two 32-bit halves (values above 2^53 round, as ByteView's do). */
  word(offset: number, is64: boolean): number {
    if (!is64) return this.v.u32(offset);
    const [lo, hi] = this.v.little ? [offset, offset + 4] : [offset + 4, offset];
    return this.v.u32(hi) * 0x100000000 + this.v.u32(lo);
  }

  finish(): string[] {
    if (this.dropped > 0) this.diagnostics.push(`${this.dropped} further diagnostics dropped`);
    return this.diagnostics;
  }
}
