// Per-parse state the container readers share: the byte view, capped diagnostics and a budget for names.
import type { ByteView } from './byte-view.js';
import { MAX_STRING } from './byte-view.js';

const MAX_DIAGNOSTICS = 200;

export class ParseContext {
  readonly diagnostics: string[] = [];
  private dropped = 0;
  private nameChars: number;
  private budgetReported = false;

  /** `nameChars`: characters of names the whole file may make us read (a hostile file's cap). */
  constructor(
    readonly v: ByteView,
    nameChars: number,
  ) {
    this.nameChars = nameChars;
  }

  warn(message: string): void {
    if (this.diagnostics.length < MAX_DIAGNOSTICS) this.diagnostics.push(message);
    else this.dropped++;
  }

  /**
   * NUL-terminated name at a file offset, capped at MAX_STRING and charged to the shared budget, so a file
   * whose every name runs 4 KiB without a NUL costs at most the budget in character reads.
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
