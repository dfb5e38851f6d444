// The analysis's Matches tab: run matching, auto-unstrip and ai-unstrip, review each function's
// candidates, compare one with the function, and accept (rename) or reject it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, unwrapNullable } from '../../api/client';
import { ErrorNote, Loaded } from '../../components/status';
import { Field } from '../../components/field';
import { unwrapPage } from '../../api/client';
import { Pager } from '../../components/pager';
import { CandidateTable, type Pick } from './candidate-table';
import { buildRows, rejectionKey, type Candidate, type QueryFunction, type QueryRow } from './candidates';
import { Compare } from './compare';
import { RunStatus } from './run-status';
import { DEFAULT_UNSTRIP_SETTINGS, isActive, useMatchingRun, useUnstripRun } from './runs';
import { MatchSettingsFields, UnstripSettingsFields } from './settings';
import './matches.css';

const ROWS_PER_PAGE = 50;

async function allFunctions(analysisId: number): Promise<QueryFunction[]> {
  const all: QueryFunction[] = [];
  for (let page = 1; ; page++) {
    const { data, hasNext } = await unwrapPage(
      api.GET('/v2/analyses/{analysis_id}/functions', {
        params: { path: { analysis_id: analysisId }, query: { page, page_size: 1000 } },
      }),
    );
    all.push(...data.functions.map((f) => ({ id: f.id, name: f.name, vaddr: f.vaddr })));
    if (!hasNext) return all;
  }
}

type Rename = { function_id: number; new_name: string; new_mangled_name: string };
const renameTo = (row: QueryRow, c: Candidate): Rename => ({
  function_id: row.fn.id,
  new_name: c.name,
  new_mangled_name: c.mangledName,
});

export function MatchesTab({ analysisId }: { analysisId: number }) {
  const client = useQueryClient();
  const functions = useQuery({
    queryKey: ['matches', 'functions', analysisId],
    queryFn: () => allFunctions(analysisId),
  });
  const matching = useMatchingRun(analysisId);
  const auto = useUnstripRun(analysisId, 'auto');
  const ai = useUnstripRun(analysisId, 'ai');

  const [matchForm, setMatchForm] = useState(matching.asked);
  const [unstripForm, setUnstripForm] = useState(DEFAULT_UNSTRIP_SETTINGS);
  const [fresh, setFresh] = useState(false);
  const [rejected, setRejected] = useState<ReadonlySet<string>>(new Set());
  const [picked, setPicked] = useState<Pick | null>(null);
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState<'best' | 'address'>('best');
  const [page, setPage] = useState(1);
  const [note, setNote] = useState('');

  // One candidate's name (from the comparison) and all suggestions at once: their errors show beside each.
  const renaming = {
    mutationFn: (list: Rename[]) =>
      unwrapNullable(api.POST('/v2/functions/rename/batch', { body: { functions: list } })),
    onSuccess: (_: unknown, list: Rename[]) => {
      setNote(list.length === 1 ? `Renamed to ${list[0]!.new_name}.` : `Renamed ${list.length} functions.`);
      // A name shows in many places (lists, callers' C, which the server decompiles anew): refresh them all.
      void client.invalidateQueries();
    },
  };
  const accept = useMutation(renaming);
  const acceptMany = useMutation(renaming);

  const rows = useMemo(() => {
    const all = buildRows(
      functions.data ?? [],
      matching.status.data?.matches ?? [],
      [
        { source: 'Auto-unstrip', list: auto.status.data?.matches ?? [] },
        { source: 'AI unstrip', list: ai.status.data?.matches ?? [] },
      ],
      rejected,
    );
    const needle = filter.trim().toLowerCase();
    const shown = needle
      ? all.filter(
          (r) =>
            r.fn.name.toLowerCase().includes(needle) || r.candidates.some((c) => c.name.toLowerCase().includes(needle)),
        )
      : all;
    return order === 'best' ? [...shown].sort((x, y) => y.best - x.best || x.fn.vaddr - y.fn.vaddr) : shown;
  }, [functions.data, matching.status.data, auto.status.data, ai.status.data, rejected, filter, order]);

  const pageRows = rows.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  const pickedRow = picked && rows.find((r) => r.fn.id === picked.queryId);
  const pickedCandidate = pickedRow && pickedRow.candidates.find((c) => c.key === picked.key);
  // Rows whose first candidate is an unstrip suggestion not yet taken.
  const suggested = rows.filter((r) => r.candidates[0]!.suggestedBy.length > 0 && r.candidates[0]!.name !== r.fn.name);

  const runsBusy = isActive(matching.status.data?.status) || matching.start.isPending;
  const reject = (row: QueryRow, c: Candidate) => {
    setRejected(new Set(rejected).add(rejectionKey(row.fn.id, c)));
    setPicked(null);
  };
  const acceptAll = () => {
    if (confirm(`Rename the ${suggested.length} functions shown to their suggested names?`))
      acceptMany.mutate(suggested.map((r) => renameTo(r, r.candidates[0]!)));
  };

  return (
    <div className="matches">
      <details className="card">
        <summary>Settings</summary>
        <MatchSettingsFields value={matchForm} onChange={setMatchForm} />
        <UnstripSettingsFields value={unstripForm} onChange={setUnstripForm} />
        <label className="check">
          <input type="checkbox" checked={fresh} onChange={(e) => setFresh(e.target.checked)} /> Start over (ignore a
          finished run with the same settings)
        </label>
      </details>
      <div className="toolbar">
        <button type="button" disabled={runsBusy} onClick={() => matching.start.mutate({ settings: matchForm, fresh })}>
          Run matching
        </button>
        <button
          type="button"
          disabled={isActive(auto.status.data?.status) || auto.start.isPending}
          onClick={() => auto.start.mutate({ ...unstripForm, minSimilarity: matchForm.minSimilarity, fresh })}
        >
          Auto-unstrip
        </button>
        <button
          type="button"
          disabled={isActive(ai.status.data?.status) || ai.start.isPending}
          onClick={() => ai.start.mutate({ ...unstripForm, minSimilarity: matchForm.minSimilarity, fresh })}
        >
          AI unstrip
        </button>
      </div>
      <RunStatus
        label="Matching"
        answer={matching.status.data}
        error={matching.status.error ?? matching.start.error}
        summary={`${matching.status.data?.num_matches ?? 0} functions with candidates from ${matching.asked.minSimilarity}% similarity`}
      />
      <RunStatus
        label="Auto-unstrip"
        answer={auto.status.data}
        error={auto.status.error ?? auto.start.error ?? auto.cancel.error}
        summary={`${auto.status.data?.matches?.length ?? 0} names suggested${auto.status.data?.applied ? ', applied' : ''}`}
        onCancel={() => auto.cancel.mutate()}
      />
      <RunStatus
        label="AI unstrip"
        answer={ai.status.data}
        error={ai.status.error ?? ai.start.error ?? ai.cancel.error}
        summary={`${ai.status.data?.matches?.length ?? 0} names suggested${ai.status.data?.applied ? ', applied' : ''}`}
        onCancel={() => ai.cancel.mutate()}
      />

      <h2>Candidates</h2>
      <Loaded query={functions} what="the functions">
        {() => (
          <>
            <div className="toolbar">
              <label>
                Filter{' '}
                <input
                  type="search"
                  value={filter}
                  onChange={(e) => {
                    setFilter(e.target.value);
                    setPage(1);
                  }}
                />
              </label>
              <Field
                label="Order"
                control={(id) => (
                  <select id={id} value={order} onChange={(e) => setOrder(e.target.value as 'best' | 'address')}>
                    <option value="best">Best match first</option>
                    <option value="address">By address</option>
                  </select>
                )}
              />
              <span className="muted">{rows.length} functions with candidates</span>
              {rejected.size > 0 && (
                <button type="button" className="secondary" onClick={() => setRejected(new Set())}>
                  Show {rejected.size} rejected
                </button>
              )}
              {suggested.length > 0 && (
                <button type="button" className="secondary" disabled={acceptMany.isPending} onClick={acceptAll}>
                  Accept all suggested names ({suggested.length})
                </button>
              )}
            </div>
            {note && (
              <p role="status" className="ok">
                {note}
              </p>
            )}
            {acceptMany.error && <ErrorNote error={acceptMany.error} />}
            {rows.length === 0 ? (
              <p className="muted">No candidates yet: run matching or an unstrip above.</p>
            ) : (
              <>
                <CandidateTable
                  rows={pageRows}
                  picked={picked}
                  onPick={(p) => {
                    setPicked(p);
                    accept.reset();
                  }}
                />
                <Pager
                  page={page}
                  hasNext={page * ROWS_PER_PAGE < rows.length}
                  onPage={setPage}
                  label="Pages of candidates"
                />
              </>
            )}
          </>
        )}
      </Loaded>
      {pickedRow && pickedCandidate && (
        <Compare
          key={`${pickedRow.fn.id}:${pickedCandidate.key}`}
          query={{ ...pickedRow.fn, analysisId }}
          candidate={pickedCandidate}
          accepting={accept.isPending}
          acceptError={accept.error}
          onAccept={() => accept.mutate([renameTo(pickedRow, pickedCandidate)])}
          onReject={() => reject(pickedRow, pickedCandidate)}
        />
      )}
    </div>
  );
}
