// Per-parse state every PE table reader shares: the byte view, capped diagnostics and a budget for names.
import type { ByteView } from '../byte-view.js';
import { MAX_STRING } from '../byte-view.js';

/**
 * Caps on what one file may make us produce. Real images stay far below: the corpus's largest PE (sqlite,
 * x86-64 -O0, 1.3 MB) has 4 762 COFF records, 121 imports, 2 649 .pdata entries and 0.95 MB of .text; its
 * i386 build has ~10 000 base relocations; all its names together are ~68 000 characters. The caps only
 * bound the work a hostile header can ask for (each is a loop bound, never an allocation size).
 */
export const LIMITS = {
  sections: 1024,
  importDescriptors: 4096,
  imports: 65536,
  exports: 65536,
  symbols: 1 << 20,
  relocations: 1 << 21,
  pdata: 1 << 20,
  tlsCallbacks: 256,
  debugEntries: 64,
  /** Bytes of executable sections scanned for `ff 25` thunks: ~64× sqlite's .text. */
  stubScanBytes: 64 << 20,
  /** Characters of names read in all (imports, exports, symbols): ~120× sqlite's, decoded natively. */
  nameChars: 8 << 20,
  diagnostics: 200,
} as const;

export class PeContext {
  readonly diagnostics: string[] = [];
  private dropped = 0;
  private nameChars: number = LIMITS.nameChars;
  private budgetReported = false;

  constructor(readonly v: ByteView) {}

  warn(message: string): void {
    if (this.diagnostics.length < LIMITS.diagnostics) this.diagnostics.push(message);
    else this.dropped++;
  }

  /**
   * NUL-terminated name at a file offset, capped at MAX_STRING and charged to the shared budget, so a file
   * whose every name runs 4 KiB without a NUL costs at most `LIMITS.nameChars` character reads.
   */
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

  finish(): string[] {
    if (this.dropped > 0) this.diagnostics.push(`${this.dropped} further diagnostics dropped`);
    return this.diagnostics;
  }
}
