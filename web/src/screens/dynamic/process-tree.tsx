// The run's processes as a tree of <details> (each folds with the keyboard as a native disclosure), each
// with what it did in a compact table — one filter bar above narrows every process's table at once — and
// its recorded events, asked of the server when their disclosure is opened.
import { useId, useState } from 'react';
import { count } from '../../components/format';
import { ACTIVITY_KINDS, KIND_LABELS, type Activity, type ActivityKind } from './activity';
import { useCapped } from './capped';
import { ProcessEvents } from './events';
import type { Process } from './views';

interface Filter {
  kind: ActivityKind | 'all';
  text: string;
}

const matches = (a: Activity, f: Filter) =>
  (f.kind === 'all' || a.kind === f.kind) &&
  (f.text === '' || `${a.what} ${a.detail}`.toLowerCase().includes(f.text.toLowerCase()));

export function ProcessTree({
  analysisId,
  processes,
  activity,
}: {
  analysisId: number;
  processes: Process[];
  activity: Map<number, Activity[]>;
}) {
  const [filter, setFilter] = useState<Filter>({ kind: 'all', text: '' });
  const kindId = useId();
  const textId = useId();
  return (
    <>
      <div className="toolbar" role="search" aria-label="Filter the processes' activity">
        <label htmlFor={kindId}>Show</label>
        <select
          id={kindId}
          value={filter.kind}
          onChange={(e) => setFilter({ ...filter, kind: e.target.value as Filter['kind'] })}
        >
          <option value="all">All activity</option>
          {ACTIVITY_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
        <label htmlFor={textId}>Containing</label>
        <input
          id={textId}
          type="search"
          value={filter.text}
          placeholder="path, key, behaviour…"
          onChange={(e) => setFilter({ ...filter, text: e.target.value })}
        />
      </div>
      <div className="proc-tree">
        {processes.map((p) => (
          <ProcessNode key={p.pid} analysisId={analysisId} process={p} activity={activity} filter={filter} />
        ))}
      </div>
    </>
  );
}

/** Where in the run's event sequence the process lived (positions, not times: the emulator's clock is virtual). */
const span = (p: Process) =>
  p.ts_to === null
    ? `from event ${p.ts_from}`
    : p.ts_to === p.ts_from
      ? `event ${p.ts_from} of the run`
      : `events ${p.ts_from}–${p.ts_to} of the run`;

function ProcessNode({
  analysisId,
  process,
  activity,
  filter,
}: {
  analysisId: number;
  process: Process;
  activity: Map<number, Activity[]>;
  filter: Filter;
}) {
  const all = activity.get(process.pid) ?? [];
  const { shown, rest } = useCapped(all.filter((a) => matches(a, filter)));
  const behaviours = all.filter((a) => a.kind === 'behaviour').length;
  return (
    <details open className="proc">
      <summary>
        <strong>{process.procname}</strong> <span className="muted">pid {process.pid}</span>{' '}
        <span className="mono proc-args">{process.args.slice(1).join(' ')}</span>{' '}
        {behaviours > 0 && <span className="badge warn">{count(behaviours, 'behaviour')}</span>}
        {process.children.length > 0 && (
          <span className="badge">{count(process.children.length, 'child', 'children')}</span>
        )}
      </summary>
      <div className="proc-body">
        <p className="muted proc-facts">
          <span className="mono">{process.executable_name}</span> · {span(process)}
        </p>
        {all.length === 0 ? (
          <p className="muted">No child process, behaviour, registry operation or dump recorded for it.</p>
        ) : shown.length === 0 ? (
          <p className="muted">Nothing matches the filter ({all.length} hidden).</p>
        ) : (
          <table className="grid compact">
            <caption className="visually-hidden">
              Activity of {process.procname} (pid {process.pid})
            </caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">What</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((a, i) => (
                <tr key={i}>
                  <td>{KIND_LABELS[a.kind]}</td>
                  <td>{a.what}</td>
                  <td className="mono">{a.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {rest}
        <EventsDisclosure analysisId={analysisId} process={process} />
        {process.children.map((c) => (
          <ProcessNode key={c.pid} analysisId={analysisId} process={c} activity={activity} filter={filter} />
        ))}
      </div>
    </details>
  );
}

/** A busy run's processes each have thousands of events: they are asked for once someone opens them. */
function EventsDisclosure({ analysisId, process }: { analysisId: number; process: Process }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="proc-events-disclosure" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Recorded events</summary>
      {open && <ProcessEvents analysisId={analysisId} pid={process.pid} name={process.procname} />}
    </details>
  );
}
