// What the binary imports and exports, each list folded away until opened and filtered by name (imports
// also by library); long lists show their first rows, the filter reaches the rest.
import { useId, useState, type ReactNode } from 'react';
import { Loaded } from '../../../components/status';
import { hex } from '../../../components/format';
import { useOverview, type Overview } from './queries';

const SHOWN = 500;

export function Symbols({ analysisId }: { analysisId: number }) {
  const overview = useOverview(analysisId);
  return (
    <section className="card symbols" aria-labelledby="overview-symbols">
      <h2 id="overview-symbols">Imports and exports</h2>
      <Loaded query={overview} what="imports and exports">
        {(o) => (
          <>
            <Libraries imports={o.imports} />
            <Imports imports={o.imports} />
            <Exports exports={o.exports} />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** Where the imports come from (PE names each one's DLL; ELF leaves that to the loader). */
function Libraries({ imports }: { imports: Overview['imports'] }) {
  const counts = new Map<string, number>();
  for (const i of imports) if (i.library !== null) counts.set(i.library, (counts.get(i.library) ?? 0) + 1);
  if (!counts.size) return null;
  return (
    <p>
      <span className="muted">Imported from </span>
      {[...counts]
        .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
        .map(([library, n]) => (
          <span key={library} className="badge mono" title={`${n} imports from ${library}`}>
            {library} · {n}
          </span>
        ))}
    </p>
  );
}

function Imports({ imports }: { imports: Overview['imports'] }) {
  const sorted = [...imports].sort(
    (a, b) => (a.library ?? '').localeCompare(b.library ?? '') || a.name.localeCompare(b.name),
  );
  const hasLibraries = imports.some((i) => i.library !== null);
  return (
    <FilteredList
      what="imports"
      rows={sorted}
      text={(i) => `${i.name} ${i.library ?? ''}`}
      head={
        <tr>
          <th scope="col">Name</th>
          {hasLibraries && <th scope="col">Library</th>}
        </tr>
      }
      row={(i, n) => (
        <tr key={n}>
          <td className="mono">{i.name}</td>
          {hasLibraries && <td className="mono">{i.library ?? <span className="muted">—</span>}</td>}
        </tr>
      )}
    />
  );
}

function Exports({ exports }: { exports: Overview['exports'] }) {
  return (
    <FilteredList
      what="exports"
      rows={exports}
      text={(e) => e.name}
      head={
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Address</th>
        </tr>
      }
      row={(e, n) => (
        <tr key={n}>
          <td className="mono">{e.name}</td>
          <td className="mono">{hex(e.vaddr)}</td>
        </tr>
      )}
    />
  );
}

function FilteredList<T>({
  what,
  rows,
  text,
  head,
  row,
}: {
  what: string;
  rows: T[];
  /** What the filter searches in a row. */
  text: (r: T) => string;
  head: ReactNode;
  row: (r: T, index: number) => ReactNode;
}) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matching = needle ? rows.filter((r) => text(r).toLowerCase().includes(needle)) : rows;
  if (!rows.length) return <p className="muted">No {what}.</p>;
  return (
    <details className="symbol-list">
      <summary>
        {what[0]!.toUpperCase() + what.slice(1)} ({rows.length.toLocaleString()})
      </summary>
      <div className="toolbar">
        <label htmlFor={id}>Filter {what}</label>
        <input id={id} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="muted" role="status">
          {matching.length > SHOWN
            ? `first ${SHOWN} of ${matching.length.toLocaleString()} shown: filter to find the rest`
            : `${matching.length.toLocaleString()} of ${rows.length.toLocaleString()}`}
        </span>
      </div>
      <div className="table-scroll tall" tabIndex={0} role="region" aria-label={`${what} list`}>
        <table className="grid">
          <thead>{head}</thead>
          <tbody>{matching.slice(0, SHOWN).map(row)}</tbody>
        </table>
      </div>
    </details>
  );
}
