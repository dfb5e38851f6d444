/**
 * The nearest known function start above an address, while starts keep being found. A function whose
 * extent no table records ends, at the latest, where the next known one begins: a jump past that point
 * leaves it (a tail call, or a jump into its `.cold` part, which gcc places after every other function
 * and the symbol table lists on its own). Unbounded, one mingw i386 function ran through 1,600 others'
 * cold parts and took 28 of them.
 *
 * Starts arrive in bursts (the file's own, sorted; then call targets as exploration finds them): new ones
 * wait in a short unsorted list that is merged into the sorted array once it holds 256, which keeps both
 * the insert and the query cheap for the 10^4-10^5 starts of a large binary.
 */
export interface NextStart {
  add(start: number): void;
  /** The smallest known start greater than `a`, or Infinity. */
  after(a: number): number;
}

const MERGE_AT = 256;

export function nextStartIndex(initial: Iterable<number>): NextStart {
  let sorted = Float64Array.from(initial).sort();
  let recent: number[] = [];
  return {
    add(start) {
      recent.push(start);
      if (recent.length < MERGE_AT) return;
      const merged = new Float64Array(sorted.length + recent.length);
      merged.set(sorted);
      merged.set(recent, sorted.length);
      sorted = merged.sort();
      recent = [];
    },
    after(a) {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid]! <= a) lo = mid + 1;
        else hi = mid;
      }
      let best = lo < sorted.length ? sorted[lo]! : Infinity;
      for (const s of recent) if (s > a && s < best) best = s;
      return best;
    },
  };
}
