// Two listings side by side, lines aligned by the diff and the lines that differ marked on both sides; one
// scroll box moves both.
import { useMemo } from 'react';
import { CodeView, type CodeLanguage } from '../../components/code-view';
import { diffLines, type DiffRow } from './line-diff';
import type { Listing } from './listing';

interface Side {
  lines: string[];
  gutter?: string[];
  marked: Map<number, string>;
}

function side(listing: Listing, rows: readonly DiffRow[], pick: (r: DiffRow) => number | null): Side {
  const lines: string[] = [];
  const gutter: string[] = [];
  const marked = new Map<number, string>();
  rows.forEach((r, i) => {
    const k = pick(r);
    // A gap is a space, not an empty string: an empty line would have no height and break the alignment.
    lines.push(k === null ? ' ' : listing.lines[k]!);
    gutter.push(k === null ? '' : (listing.gutter?.[k] ?? ''));
    if (!r.same) marked.set(i, 'differs');
  });
  return { lines, gutter: listing.gutter ? gutter : undefined, marked };
}

export function SideBySide({
  left,
  right,
  languages,
  leftLabel,
  rightLabel,
  ignoring,
}: {
  left: Listing;
  right: Listing;
  /** Of the left and the right listing: a candidate may come from another architecture. */
  languages: readonly [CodeLanguage, CodeLanguage];
  leftLabel: string;
  rightLabel: string;
  /** What the comparison leaves out, said under it. */
  ignoring?: string;
}) {
  const view = useMemo(() => {
    const rows = diffLines(left.keys, right.keys);
    if (!rows) return null;
    const same = rows.filter((r) => r.same).length;
    return { left: side(left, rows, (r) => r.left), right: side(right, rows, (r) => r.right), same, rows };
  }, [left, right]);
  const plain = (l: Listing): Side => ({ lines: l.lines, gutter: l.gutter ?? undefined, marked: new Map() });
  const [a, b] = view ? [view.left, view.right] : [plain(left), plain(right)];
  return (
    <>
      <p className="muted">
        {view
          ? `Lines alike: ${view.same}; differing (marked): ${view.rows.length - view.same}.${ignoring ? ` ${ignoring}` : ''}`
          : 'Too long to compare line by line: both listings are shown as they are.'}
      </p>
      <div className="side-by-side">
        <div className="side-head">{leftLabel}</div>
        <div className="side-head">{rightLabel}</div>
        <CodeView lines={a.lines} gutter={a.gutter} marks={a.marked} language={languages[0]} label={leftLabel} />
        <CodeView lines={b.lines} gutter={b.gutter} marks={b.marked} language={languages[1]} label={rightLabel} />
      </div>
    </>
  );
}
