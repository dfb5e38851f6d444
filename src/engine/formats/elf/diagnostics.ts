// Diagnostics: recoverable damage met while parsing, in the order met. A hostile file can be damaged in
// millions of places, so the list keeps the first MAX_DIAGNOSTICS and counts the rest.

const MAX_DIAGNOSTICS = 100;

export class Diagnostics {
  private readonly list: string[] = [];
  private readonly seen = new Set<string>();
  private dropped = 0;

  add(message: string): void {
    // The same damage repeated (one bad entry per relocation, say) is worth one line.
    if (this.seen.has(message)) return;
    if (this.list.length >= MAX_DIAGNOSTICS) {
      this.dropped++;
      return;
    }
    this.seen.add(message);
    this.list.push(message);
  }

  toArray(): string[] {
    return this.dropped > 0 ? [...this.list, `${this.dropped} more diagnostics omitted`] : [...this.list];
  }
}
