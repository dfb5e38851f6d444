// The decompiled C of the function: asked for on demand (the server decompiles in a worker), followed while
// pending, then listed with the shared code view.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { CodeView } from '../../components/code-view';
import { ErrorNote, Loaded } from '../../components/status';
import { functionKey, type Decompilation } from './queries';

export function DecompiledPane({
  id,
  query,
  lines,
  mapped,
  selected,
  onSelect,
}: {
  id: number;
  query: { data: Decompilation | undefined; error: unknown; isPending: boolean };
  lines: readonly string[];
  /** Whether C lines map to instructions (else the C is a rewrite, or the server predates the map). */
  mapped: boolean;
  selected: ReadonlySet<number>;
  onSelect: (line: number) => void;
}) {
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v2/functions/{function_id}/ai-decompilation', { params: { path: { function_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...functionKey(id), 'decompilation'] }),
  });
  const ask = (label: string) => (
    <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
      {label}
    </button>
  );
  return (
    <div data-testid="decompiled-c" className="pane">
      <Loaded query={query} what="the decompilation">
        {(d) => {
          if (d.status === 'pending')
            return (
              <p className="muted" role="status">
                Decompiling…
              </p>
            );
          if (d.status === 'error')
            return (
              <>
                <ErrorNote error={d.error_message ?? 'The decompilation failed.'} />
                {ask('Try again')}
              </>
            );
          if (d.status !== 'success' || d.decompilation === null)
            return (
              <div className="toolbar">
                <p className="muted">This function has not been decompiled yet.</p>
                {ask('Decompile')}
              </div>
            );
          return (
            <>
              {!mapped && (
                <p className="muted note">
                  {d.ai_refinement?.refined
                    ? 'This C is a language model’s rewrite: its lines are not tied to instructions.'
                    : 'The server gives no line-to-instruction map for this C.'}
                </p>
              )}
              <CodeView lines={lines} language="c" selected={selected} onSelect={onSelect} label="Decompiled C" />
              {(d.ai_summary ?? d.summary) && (
                <details className="summary">
                  <summary>Summary</summary>
                  <p className="muted">{d.ai_summary ?? d.summary}</p>
                </details>
              )}
            </>
          );
        }}
      </Loaded>
      {start.error && <ErrorNote error={start.error} />}
    </div>
  );
}
