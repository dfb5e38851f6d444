// A side-by-side line diff: the longest common subsequence of two listings' lines, laid out as aligned rows
// where a line only one side has faces the other side's changed line, or a gap.

/** One row of the side-by-side view: a line index per side, null for a gap. */
export interface DiffRow {
  left: number | null;
  right: number | null;
  same: boolean;
}

/** Beyond this many table cells (4 bytes each) the listings are shown without a diff. */
const MAX_CELLS = 4_000_000;

/** Aligned rows of `a` against `b`, compared by key; null when the listings are too long to diff. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffRow[] | null {
  // A shared head and tail need no table, which keeps near-identical functions cheap.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let endA = a.length;
  let endB = b.length;
  while (endA > head && endB > head && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - head;
  const m = endB - head;
  if ((n + 1) * (m + 1) > MAX_CELLS) return null;

  // lcs[i * w + j]: length of the longest common subsequence of the middles' suffixes from i and j.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[head + i] === b[head + j]
          ? lcs[(i + 1) * w + j + 1]! + 1
          : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);

  const rows: DiffRow[] = [];
  for (let k = 0; k < head; k++) rows.push({ left: k, right: k, same: true });
  // Lines between two common ones are paired up, so a changed line sits beside its counterpart.
  let onlyA: number[] = [];
  let onlyB: number[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(onlyA.length, onlyB.length); k++)
      rows.push({ left: onlyA[k] ?? null, right: onlyB[k] ?? null, same: false });
    onlyA = [];
    onlyB = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i] === b[head + j]) {
      flush();
      rows.push({ left: head + i++, right: head + j++, same: true });
    } else if (j >= m || (i < n && lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) onlyA.push(head + i++);
    else onlyB.push(head + j++);
  }
  flush();
  for (let k = 0; k < a.length - endA; k++) rows.push({ left: endA + k, right: endB + k, same: true });
  return rows;
}
