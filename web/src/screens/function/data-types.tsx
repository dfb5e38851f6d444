// The function's data types: its prototype, parameters and stack variables, and the types it depends on.
// They exist once generated, which the panel offers and then follows until done.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorNote, Loaded } from '../../components/status';
import { hex } from '../../components/format';
import { functionKey } from './queries';

const RUNNING = new Set(['pending', 'running']);

interface Variable {
  offset: number;
  name: string;
  type: string;
  size: number;
}

function Variables({ caption, rows }: { caption: string; rows: Variable[] }) {
  if (rows.length === 0) return <p className="muted">No {caption.toLowerCase()}.</p>;
  return (
    <table className="grid">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Offset</th>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Size</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((v) => (
          <tr key={`${v.offset}-${v.name}`}>
            <td className="mono">{v.offset < 0 ? `-${hex(-v.offset)}` : hex(v.offset)}</td>
            <td className="mono">{v.name}</td>
            <td className="mono">{v.type}</td>
            <td>{v.size}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DataTypesPanel({ analysisId, id }: { analysisId: number; id: number }) {
  const client = useQueryClient();
  const key = [...functionKey(id), 'data-types'];
  const q = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        api.GET('/v2/analyses/{analysis_id}/functions/{function_id}/data_types', {
          params: { path: { analysis_id: analysisId, function_id: id } },
        }),
      ),
    refetchInterval: (query) => (RUNNING.has(query.state.data?.status ?? '') ? 2000 : false),
  });
  const generate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v2/analyses/{analysis_id}/functions/data_types', {
          params: { path: { analysis_id: analysisId } },
          body: { function_ids: [id] },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <Loaded query={q} what="data types">
      {(d) => {
        const types = d.data_types?.func_types;
        if (!types)
          return (
            <div className="toolbar">
              <p className="muted" role="status">
                {RUNNING.has(d.status)
                  ? 'Generating the data types…'
                  : d.status === 'failed'
                    ? 'Generating the data types failed.'
                    : 'No data types have been generated for this function yet.'}
              </p>
              {!RUNNING.has(d.status) && (
                <button type="button" onClick={() => generate.mutate()} disabled={generate.isPending}>
                  Generate data types
                </button>
              )}
              {generate.error && <ErrorNote error={generate.error} />}
            </div>
          );
        const deps = d.data_types?.func_deps ?? [];
        return (
          <>
            <pre className="code prototype">{types.type}</pre>
            <p>
              Returns <code>{types.header.type}</code>
            </p>
            <Variables caption="Parameters" rows={Object.values(types.header.args)} />
            <Variables caption="Stack variables" rows={Object.values(types.stack_vars ?? {})} />
            {deps.length > 0 && (
              <>
                <h3>Types it uses</h3>
                <ul className="plain-list">
                  {deps.map((t, i) => (
                    <li key={`${t.name}-${i}`}>
                      <span className="badge">{t.artifact_type ?? 'Type'}</span> <code>{t.name}</code>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        );
      }}
    </Loaded>
  );
}
