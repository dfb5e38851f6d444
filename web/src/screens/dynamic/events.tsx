// One process's recorded events, a page at a time from the server (a run keeps up to 10 000): narrowed to
// one kind, each with the call that did it, what it did, and the function of the analysis holding its call
// site when the static analysis has one there.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { count, hex } from '../../components/format';
import { ErrorNote, Loading } from '../../components/status';
import { eventsQuery, type RunEvent } from './views';

const PAGE_SIZE = 50;

export function ProcessEvents({ analysisId, pid, name }: { analysisId: number; pid: number; name: string }) {
  const [kind, setKind] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const kindId = useId();
  // The last page stays on screen while the next loads, so the table and its controls do not jump.
  const events = useQuery({
    ...eventsQuery(analysisId, pid, kind, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  if (events.error) return <ErrorNote error={events.error} />;
  if (!events.data) return <Loading what="the events" />;
  const { events: rows, total, kinds } = events.data;
  const all = kinds.reduce((n, k) => n + k.count, 0);
  if (all === 0) return <p className="muted">No event was recorded for this process.</p>;
  const first = (page - 1) * PAGE_SIZE + 1;
  const last = first + rows.length - 1;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="proc-events">
      <div className="toolbar">
        <label htmlFor={kindId}>Kind</label>
        <select
          id={kindId}
          value={kind ?? ''}
          onChange={(e) => {
            setKind(e.target.value || null);
            setPage(1);
          }}
        >
          <option value="">All kinds ({all.toLocaleString()})</option>
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.kind} ({k.count.toLocaleString()})
            </option>
          ))}
        </select>
        <span className="muted" aria-live="polite">
          {total === 0 ? 'None' : `${first.toLocaleString()}–${last.toLocaleString()} of ${count(total, 'event')}`}
        </span>
        {pages > 1 && (
          <>
            <button
              type="button"
              className="secondary"
              disabled={page === 1}
              onClick={() => setPage(page - 1)}
              aria-label={`Previous events of ${name}`}
            >
              Previous
            </button>
            <button
              type="button"
              className="secondary"
              disabled={page >= pages}
              onClick={() => setPage(page + 1)}
              aria-label={`Next events of ${name}`}
            >
              Next
            </button>
          </>
        )}
      </div>
      <table className="grid compact" aria-busy={events.isPlaceholderData}>
        <caption className="visually-hidden">
          Events of {name} (pid {pid})
        </caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Kind</th>
            <th scope="col">Call</th>
            <th scope="col">Detail</th>
            <th scope="col">Call site</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.seq}>
              <td>{e.seq}</td>
              <td>{e.kind}</td>
              <td className="mono">{e.api}</td>
              <td className="mono">{detailText(e)}</td>
              <td className="mono">
                {e.function_id === null ? (
                  hex(e.site)
                ) : (
                  <Link href={`/function/${e.function_id}`} title="Open the function holding this call">
                    {hex(e.site)}
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `host=c2.example.org answer=192.0.2.10`: the detail as the server names it (addresses come as hex already). */
const detailText = (e: RunEvent) =>
  Object.entries(e.detail)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
