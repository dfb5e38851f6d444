// A query function beside one candidate: the facts of the match, Accept name / Reject, and the two
// disassemblies (and decompiled C when both have it) as a side-by-side diff.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap, unwrapNullable } from '../../api/client';
import { asmLanguage } from '../../components/code-view';
import { ErrorNote, Loaded, Loading } from '../../components/status';
import { percent } from './candidate-table';
import type { Candidate, QueryFunction } from './candidates';
import { asmListing, cListing } from './listing';
import type { MatchedFunction } from './runs';
import { SideBySide } from './side-by-side';

const POLL_MS = 2000;

function useBlocks(functionId: number) {
  return useQuery({
    queryKey: ['matches', 'blocks', functionId],
    queryFn: () =>
      unwrap(api.GET('/v2/functions/{function_id}/blocks', { params: { path: { function_id: functionId } } })),
    select: asmListing,
  });
}

/** Highlighting for an analysis's assembly, from its model's name (binnet-…-mips-32-linux). */
function useAsmLanguage(analysisId: number) {
  const basic = useQuery({
    queryKey: ['matches', 'basic', analysisId],
    queryFn: () =>
      unwrap(api.GET('/v2/analyses/{analysis_id}/basic', { params: { path: { analysis_id: analysisId } } })),
  });
  return asmLanguage(basic.data?.model_name);
}

function Disassembly({
  query,
  candidate,
}: {
  query: QueryFunction & { analysisId: number };
  candidate: MatchedFunction;
}) {
  const left = useBlocks(query.id);
  const right = useBlocks(candidate.function_id);
  const languages = [useAsmLanguage(query.analysisId), useAsmLanguage(candidate.analysis_id)] as const;
  return (
    <Loaded query={left} what="the query's disassembly">
      {(l) => (
        <Loaded query={right} what="the candidate's disassembly">
          {(r) => (
            <SideBySide
              left={l}
              right={r}
              languages={languages}
              leftLabel={`Query: ${query.name}`}
              rightLabel={`Candidate: ${candidate.function_name}`}
              ignoring="Addresses, long hex numbers and call notes are not compared."
            />
          )}
        </Loaded>
      )}
    </Loaded>
  );
}

const STATE: Record<string, string> = {
  uninitialised: 'not decompiled',
  pending: 'decompiling…',
  error: 'decompilation failed',
  success: 'decompiled',
};

/** Decompiled C of both, once each has it; decompiling is only started on request, it takes a while. */
function DecompiledC({ query, candidate }: { query: QueryFunction; candidate: MatchedFunction }) {
  const client = useQueryClient();
  const ids = [query.id, candidate.function_id];
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['matches', 'decompilation', id],
      queryFn: () =>
        unwrap(api.GET('/v2/functions/{function_id}/ai-decompilation', { params: { path: { function_id: id } } })),
      refetchInterval: (q: { state: { data?: { status: string } } }) =>
        q.state.data?.status === 'pending' ? POLL_MS : false,
    })),
  });
  const decompile = useMutation({
    mutationFn: (missing: number[]) =>
      Promise.all(
        missing.map((id) =>
          unwrapNullable(
            api.POST('/v2/functions/{function_id}/ai-decompilation', { params: { path: { function_id: id } } }),
          ),
        ),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['matches', 'decompilation'] }),
  });
  const failed = results.find((r) => r.error);
  if (failed) return <ErrorNote error={failed.error} />;
  const [q, c] = results.map((r) => r.data);
  if (!q || !c) return <Loading what="the decompilations" />;
  if (q.decompilation != null && c.decompilation != null && q.status === 'success' && c.status === 'success')
    return (
      <SideBySide
        left={cListing(q.decompilation)}
        right={cListing(c.decompilation)}
        languages={['c', 'c']}
        leftLabel={`Query: ${query.name}`}
        rightLabel={`Candidate: ${candidate.function_name}`}
      />
    );
  const missing = ids.filter((_, i) => ['uninitialised', 'error'].includes(results[i]!.data!.status));
  return (
    <div className="toolbar">
      <span>
        Query {STATE[q.status]}; candidate {STATE[c.status]}.
      </span>
      {missing.length > 0 && (
        <button type="button" disabled={decompile.isPending} onClick={() => decompile.mutate(missing)}>
          Decompile {missing.length === 2 ? 'both' : missing[0] === query.id ? 'the query' : 'the candidate'}
        </button>
      )}
      {decompile.error && <ErrorNote error={decompile.error} />}
    </div>
  );
}

export function Compare({
  query,
  candidate,
  onAccept,
  onReject,
  accepting,
  acceptError,
}: {
  query: QueryFunction & { analysisId: number };
  candidate: Candidate;
  onAccept: () => void;
  onReject: () => void;
  accepting: boolean;
  acceptError: unknown;
}) {
  const fn = candidate.fn;
  const named = candidate.name === query.name;
  return (
    <section className="card compare" aria-labelledby="compare-title">
      <h2 id="compare-title">
        <span className="mono">{query.name}</span> compared with <span className="mono">{candidate.name}</span>
      </h2>
      <dl className="facts">
        <dt>Similarity</dt>
        <dd>{percent(candidate.similarity)}</dd>
        <dt>Confidence</dt>
        <dd>{percent(candidate.confidence)}</dd>
        {fn && (
          <>
            <dt>Candidate binary</dt>
            <dd>
              <Link href={`/analyses/${fn.analysis_id}`}>{fn.binary_name}</Link>
              {fn.debug && ' (named by its symbols)'}
            </dd>
          </>
        )}
        {candidate.suggestedBy.length > 0 && (
          <>
            <dt>Suggested by</dt>
            <dd>{candidate.suggestedBy.join(', ')}</dd>
          </>
        )}
      </dl>
      <div className="toolbar">
        <button type="button" onClick={onAccept} disabled={accepting || named}>
          Accept name
        </button>
        <button type="button" className="secondary" onClick={onReject}>
          Reject
        </button>
        {named && <span className="muted">This is already the function's name.</span>}
        <Link href={`/function/${query.id}`}>Open the query function</Link>
        {fn && <Link href={`/function/${fn.function_id}`}>Open the candidate</Link>}
      </div>
      {acceptError != null && <ErrorNote error={acceptError} />}
      {fn ? (
        <>
          <h3>Disassembly</h3>
          <Disassembly query={query} candidate={fn} />
          <h3>Decompiled C</h3>
          <DecompiledC query={query} candidate={fn} />
        </>
      ) : (
        <p className="muted">
          No matched function carries this name within the candidates shown, so there is nothing to compare.
        </p>
      )}
    </section>
  );
}
