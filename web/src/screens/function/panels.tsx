// What the function view shows beside its code: callers and callees, strings, references of the selected
// address and the capabilities found in the function.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { Loaded } from '../../components/status';
import { hex } from '../../components/format';
import { functionKey } from './queries';

const fn = (function_id: number) => ({ params: { path: { function_id } } });

interface Call {
  function_id: number;
  name: string;
  vaddr: string;
  is_external: boolean;
}

function CallList({ title, calls }: { title: string; calls: Call[] }) {
  return (
    <section>
      <h3>
        {title} ({calls.length})
      </h3>
      {calls.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="plain-list">
          {calls.map((c, i) => (
            <li key={`${c.vaddr}-${i}`}>
              <span className="mono muted">{c.vaddr}</span>{' '}
              {c.is_external || c.function_id <= 0 ? (
                <>
                  {c.name} <span className="badge">external</span>
                </>
              ) : (
                <Link href={`/function/${c.function_id}`}>{c.name}</Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function CallsPanel({ id }: { id: number }) {
  const q = useQuery({
    queryKey: [...functionKey(id), 'calls'],
    queryFn: () => unwrap(api.GET('/v2/functions/{function_id}/callees_callers', fn(id))),
  });
  return (
    <Loaded query={q} what="callers and callees">
      {(d) => (
        <div className="split">
          <CallList
            title="Callers"
            calls={d.callers.map((c) => ({ ...c, name: c.caller_name, vaddr: c.caller_vaddr }))}
          />
          <CallList
            title="Callees"
            calls={d.callees.map((c) => ({ ...c, name: c.callee_name, vaddr: c.callee_vaddr }))}
          />
        </div>
      )}
    </Loaded>
  );
}

const STRINGS_SHOWN = 500;

export function StringsPanel({ id }: { id: number }) {
  const q = useQuery({
    queryKey: [...functionKey(id), 'strings'],
    queryFn: () =>
      unwrap(
        api.GET('/v2/functions/{function_id}/strings', {
          params: { path: { function_id: id }, query: { page_size: STRINGS_SHOWN } },
        }),
      ),
  });
  return (
    <Loaded query={q} what="strings">
      {(d) =>
        d.strings.length === 0 ? (
          <p className="muted">This function uses no strings.</p>
        ) : (
          <>
            {d.total_strings > d.strings.length && (
              <p className="muted">
                The first {d.strings.length} of {d.total_strings} strings.
              </p>
            )}
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Address</th>
                  <th scope="col">String</th>
                </tr>
              </thead>
              <tbody>
                {d.strings.map((s, i) => (
                  <tr key={`${s.vaddr}-${i}`}>
                    <td className="mono">{hex(s.vaddr)}</td>
                    <td className="mono wrap">{s.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )
      }
    </Loaded>
  );
}

export function CapabilitiesPanel({ id }: { id: number }) {
  const q = useQuery({
    queryKey: [...functionKey(id), 'capabilities'],
    queryFn: () => unwrap(api.GET('/v2/functions/{function_id}/capabilities', fn(id))),
  });
  return (
    <Loaded query={q} what="capabilities">
      {(d) =>
        d.capabilities.length === 0 ? (
          <p className="muted">No capabilities were found in this function.</p>
        ) : (
          <ul className="plain-list">
            {d.capabilities.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

/** References to and from one address; addresses inside the function select their instruction. */
export function XrefsPanel({
  analysisId,
  vaddr,
  chosen,
  onSelect,
  inFunction,
}: {
  analysisId: number;
  vaddr: number;
  /** Whether vaddr is an instruction the user selected (else the function's start). */
  chosen: boolean;
  onSelect: (addr: number) => void;
  inFunction: (addr: number) => boolean;
}) {
  const q = useQuery({
    queryKey: ['xrefs', analysisId, vaddr],
    queryFn: () =>
      unwrap(
        api.GET('/v2/analyses/{analysis_id}/xrefs/{vaddr}', { params: { path: { analysis_id: analysisId, vaddr } } }),
      ),
  });
  const address = (text: string | null) => {
    const a = text === null ? NaN : parseInt(text, 16);
    if (Number.isNaN(a) || !inFunction(a)) return <span className="mono">{text ?? '—'}</span>;
    return (
      <button type="button" className="link mono" onClick={() => onSelect(a)}>
        {text}
      </button>
    );
  };
  const kind = (x: { is_call?: boolean | null; is_string?: boolean | null }) =>
    x.is_call ? 'call' : x.is_string ? 'string' : 'data';
  return (
    <Loaded query={q} what="references">
      {(d) => (
        <div className="split">
          {!chosen && (
            <p className="muted wide-note">
              Select an instruction to see its references; until then, the function’s start.
            </p>
          )}
          <section>
            <h3>References to {hex(vaddr)}</h3>
            {d.xref_to_list.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul className="plain-list">
                {d.xref_to_list.map((x, i) => (
                  <li key={i}>
                    from {address(x.xref_from)} <span className="badge">{kind(x)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section>
            <h3>References from {hex(vaddr)}</h3>
            {d.xref_from_list.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul className="plain-list">
                {d.xref_from_list.map((x, i) => (
                  <li key={i}>
                    to {address(x.xref_to)} <span className="badge">{kind(x)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Loaded>
  );
}
