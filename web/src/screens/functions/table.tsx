// The "functions" tab of an analysis: every function in one table that stays smooth at 10^5 rows (only the
// rows in view are rendered, each of fixed height), searched by name or address and sorted by any column.
// Search and sort live in the URL so that coming back from a function finds the table as it was.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { hex } from '../../components/format';
import { ErrorNote } from '../../components/status';
import { useAllFunctions, type FunctionItem } from './list';
import './functions.css';

const ROW_HEIGHT = 30;
/** More than the rows ever rendered at once: rows are keyed by index modulo this, so scrolling reuses their
 * elements (new text in old nodes) instead of mounting new ones. */
const ROW_SLOTS = 256;

type Column = 'name' | 'vaddr' | 'size' | 'source';
const COLUMNS: { key: Column; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'vaddr', label: 'Address' },
  { key: 'size', label: 'Size (bytes)' },
  { key: 'source', label: 'Name from' },
];

/** Where a function's current name came from, as the table says it. */
const SOURCES: Record<FunctionItem['name_source_type'], { label: string; tone: string }> = {
  SYSTEM: { label: 'binary', tone: '' },
  USER: { label: 'renamed', tone: 'ok' },
  AUTO_UNSTRIP: { label: 'matched', tone: 'warn' },
  AI_UNSTRIP: { label: 'AI suggestion', tone: 'warn' },
  EXTERNAL: { label: 'external', tone: '' },
};

/** Row indexes in the order of a column; names compare by their lower case, which is cheap at 10^5. */
function sortedOrder(rows: readonly FunctionItem[], lower: readonly string[], column: Column, descending: boolean) {
  const order = rows.map((_, i) => i);
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const source = (i: number) => SOURCES[rows[i]!.name_source_type].label;
  const by: Record<Column, (a: number, b: number) => number> = {
    name: (a, b) => text(lower[a]!, lower[b]!),
    vaddr: (a, b) => rows[a]!.vaddr - rows[b]!.vaddr,
    size: (a, b) => rows[a]!.size - rows[b]!.size,
    source: (a, b) => text(source(a), source(b)),
  };
  const compare = by[column];
  // Ties fall back to the address, so the order is the same on every sort.
  order.sort((a, b) => (descending ? -1 : 1) * (compare(a, b) || rows[a]!.vaddr - rows[b]!.vaddr));
  return order;
}

export function FunctionsTab({ analysisId }: { analysisId: number }) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const params = new URLSearchParams(search);
  const setParams = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    navigate(`${location}?${next}`, { replace: true });
  };

  // The reference portal links to a function as /analyses/{id}?view=functions&fn={function id}.
  const deepLink = params.get('fn');
  useEffect(() => {
    if (deepLink && /^\d+$/.test(deepLink)) navigate(`/function/${deepLink}`, { replace: true });
  }, [deepLink, navigate]);

  const term = params.get('q') ?? '';
  const sortParam = params.get('sort') ?? 'vaddr';
  const descending = sortParam.startsWith('-');
  const column = COLUMNS.find((c) => c.key === sortParam.replace(/^-/, ''))?.key ?? 'vaddr';

  const { query, loaded } = useAllFunctions(analysisId);
  const rows = query.data;
  const lower = useMemo(() => rows?.map((f) => f.name.toLowerCase()) ?? [], [rows]);
  const order = useMemo(
    () => (rows ? sortedOrder(rows, lower, column, descending) : []),
    [rows, lower, column, descending],
  );
  const wanted = useDeferredValue(term.trim().toLowerCase());
  const shown = useMemo(() => {
    if (!rows || !wanted) return order;
    const address = wanted.replace(/^0x/, '');
    const byAddress = /^[0-9a-f]+$/.test(address);
    return order.filter(
      (i) => lower[i]!.includes(wanted) || (byAddress && rows[i]!.vaddr.toString(16).includes(address)),
    );
  }, [rows, lower, order, wanted]);

  const box = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The sticky header row covers the top of the box.
    scrollPaddingStart: ROW_HEIGHT,
  });

  // A new search or order starts from the top.
  useEffect(() => virtualizer.scrollToOffset(0), [virtualizer, wanted, column, descending]);

  // One handler for every row: a plain click anywhere on a row opens its function in the app; links keep their
  // own behaviour with a modifier (new tab, new window).
  const onClick = (e: MouseEvent) => {
    const row = (e.target as Element).closest<HTMLElement>('[data-function]');
    if (!row || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(`/function/${row.dataset.function}`);
  };
  // Arrow keys walk the rows' links. The next row is rendered already (overscan) unless far off: then it is
  // scrolled to first and focused once drawn.
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    const row = (e.target as Element).closest<HTMLElement>('[data-row]');
    if (!step || !row) return;
    e.preventDefault();
    const next = Math.min(shown.length - 1, Math.max(0, Number(row.dataset.row) + step));
    const link = () => box.current?.querySelector<HTMLElement>(`[data-row="${next}"] a`);
    virtualizer.scrollToIndex(next);
    const now = link();
    if (now) now.focus({ preventScroll: true });
    else requestAnimationFrame(() => requestAnimationFrame(() => link()?.focus({ preventScroll: true })));
  };

  if (query.error) return <ErrorNote error={query.error} />;
  if (!rows)
    return (
      <p className="muted" role="status">
        Loading functions…{loaded > 0 && ` ${loaded.toLocaleString()} so far`}
      </p>
    );

  return (
    <section className="functions-tab" aria-labelledby="functions-heading">
      <h2 id="functions-heading">Functions</h2>
      <div className="toolbar">
        <label>
          Search functions{' '}
          <input
            type="search"
            value={term}
            placeholder="Name or address"
            onChange={(e) => setParams({ q: e.target.value || null })}
          />
        </label>
        <span className="muted" role="status">
          {wanted
            ? `${shown.length.toLocaleString()} of ${rows.length.toLocaleString()} functions`
            : `${rows.length.toLocaleString()} functions`}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="muted">This analysis has no functions.</p>
      ) : (
        <div
          ref={box}
          className="functions-table"
          data-testid="functions-table"
          role="table"
          aria-label="Functions"
          aria-rowcount={shown.length + 1}
          style={{ height: `min(70vh, ${virtualizer.getTotalSize() + ROW_HEIGHT + 2}px)` }}
          onKeyDown={onKeyDown}
          onClick={onClick}
        >
          <div role="rowgroup" className="functions-head">
            <div role="row" aria-rowindex={1} className="functions-row">
              {COLUMNS.map((c) => (
                <div
                  key={c.key}
                  role="columnheader"
                  aria-sort={c.key === column ? (descending ? 'descending' : 'ascending') : undefined}
                >
                  <button
                    type="button"
                    className="sort"
                    onClick={() => setParams({ sort: c.key === column && !descending ? `-${c.key}` : c.key })}
                  >
                    {c.label}
                    <span aria-hidden="true">{c.key === column ? (descending ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                </div>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="functions-body" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((v) => {
              const f = rows[shown[v.index]!]!;
              const source = SOURCES[f.name_source_type];
              return (
                <div
                  key={v.index % ROW_SLOTS}
                  role="row"
                  aria-rowindex={v.index + 2}
                  data-row={v.index}
                  data-function={f.id}
                  className="functions-row"
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  <div role="cell" className="name">
                    <a href={`/function/${f.id}`}>{f.name}</a>
                  </div>
                  <div role="cell" className="mono">
                    {hex(f.vaddr)}
                  </div>
                  <div role="cell" className="num">
                    {f.size.toLocaleString()}
                  </div>
                  <div role="cell">
                    <span className={`badge ${source.tone}`}>{source.label}</span>
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}
