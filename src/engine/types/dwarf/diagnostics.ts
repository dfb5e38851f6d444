// Damage and gaps met while importing, as lines for the analysis report. Capped: a hostile file could
// otherwise produce one line per DIE; the same message is kept once and counted.

const MAX_LINES = 100;

export class Diagnostics {
  private readonly counts = new Map<string, number>();
  private dropped = 0;

  add(message: string): void {
    const n = this.counts.get(message);
    if (n !== undefined) this.counts.set(message, n + 1);
    else if (this.counts.size < MAX_LINES) this.counts.set(message, 1);
    else this.dropped++;
  }

  /** The lines in the order first met, repeats counted (`… (×3)`), then how many were left out. */
  lines(): string[] {
    const out = [...this.counts].map(([m, n]) => (n > 1 ? `${m} (×${n})` : m));
    if (this.dropped > 0) out.push(`${this.dropped} more diagnostics left out`);
    return out;
  }
}
