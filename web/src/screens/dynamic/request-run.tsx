// An analysis created without the sandbox never runs: the way to a run is a new analysis of the same binary
// with analysis_config.sandbox_config.enabled, which this form creates (with the command line to run it with).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { ErrorNote, Loaded } from '../../components/status';
import { basicQuery } from '../analysis/relations';

export function RequestRun({ analysisId }: { analysisId: number }) {
  const basic = useQuery(basicQuery(analysisId));
  const [args, setArgs] = useState('');
  const argsId = useId();
  const [, navigate] = useLocation();
  const create = useMutation({
    mutationFn: (b: { binary_name: string; sha_256_hash: string }) =>
      unwrap(
        api.POST('/v2/analyses', {
          body: {
            filename: b.binary_name,
            sha_256_hash: b.sha_256_hash,
            analysis_config: { sandbox_config: { enabled: true, command_line_args: args } },
          },
        }),
      ),
    onSuccess: (created) => navigate(`/analyses/${created.analysis_id}?view=dynamic`),
  });

  return (
    <div className="card dyn-request">
      <p>
        This analysis was not run in the sandbox. A run is asked for when an analysis is created, with{' '}
        <code>analysis_config.sandbox_config.enabled</code>: create a new analysis of the same binary that runs it.
      </p>
      <Loaded query={basic} what="the binary">
        {(b) => (
          <form
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              create.mutate(b);
            }}
          >
            <label htmlFor={argsId}>Command-line arguments (after the program's name)</label>
            <div className="toolbar">
              <input id={argsId} value={args} onChange={(e) => setArgs(e.target.value)} placeholder="none" />
              <button type="submit" disabled={create.isPending}>
                {create.isPending ? 'Creating…' : 'Analyse again with dynamic execution'}
              </button>
            </div>
            {create.error && <ErrorNote error={create.error} />}
          </form>
        )}
      </Loaded>
    </div>
  );
}
