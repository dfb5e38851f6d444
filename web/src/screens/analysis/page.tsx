// One analysis: a header saying what it is and how far it got, and its results as tabs (?view=…). The
// reference portal's link form /analyses/{id}?view=functions&fn={function id} opens that function.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { Loaded } from '../../components/status';
import { DynamicTab } from '../dynamic/tab';
import { FunctionsTab } from '../functions/table';
import { MatchesTab } from '../matches/tab';
import { StatusBadge } from '../analyses/status-badge';
import { OverviewTab } from './overview';
import { LiveProgress, LogView } from './progress';
import { RelationsTab } from './relations';
import './analysis.css';

const TABS: [view: string, label: string, render: (id: number) => ReactNode][] = [
  ['overview', 'Overview', (id) => <OverviewTab analysisId={id} />],
  ['functions', 'Functions', (id) => <FunctionsTab analysisId={id} />],
  ['matches', 'Matches', (id) => <MatchesTab analysisId={id} />],
  ['dynamic', 'Dynamic execution', (id) => <DynamicTab analysisId={id} />],
  ['relations', 'Relations', (id) => <RelationsTab analysisId={id} />],
  ['logs', 'Log', (id) => <AnalysisLog analysisId={id} />],
];

const FINAL = new Set(['Complete', 'Error']);

export function AnalysisScreen({ id }: { id: number }) {
  const search = new URLSearchParams(useSearch());
  const fn = search.get('fn');
  const view = search.get('view') ?? 'overview';
  const status = useQuery({
    queryKey: ['analysis', id, 'status'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/status', { params: { path: { analysis_id: id } } })),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.analysis_status) ? false : 3000),
  });
  const basic = useQuery({
    queryKey: ['analysis', id, 'basic'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/basic', { params: { path: { analysis_id: id } } })),
  });
  if (fn && /^\d+$/.test(fn)) return <Redirect to={`/function/${fn}`} replace />;
  const state = status.data?.analysis_status;
  const tab = TABS.find(([v]) => v === view) ?? TABS[0]!;
  return (
    <section className="page wide">
      <Loaded query={basic} what="the analysis">
        {(b) => (
          <header className="analysis-head">
            <h1>{b.binary_name}</h1>
            {state && <StatusBadge status={state} />}
            <span className="badge mono">{b.model_name}</span>
            <span className="muted">
              {b.binary_size.toLocaleString()} bytes · {b.function_count.toLocaleString()} functions · by{' '}
              {b.owner_username} · {new Date(b.creation).toLocaleString()} · {b.analysis_scope.toLowerCase()}
            </span>
          </header>
        )}
      </Loaded>
      {state && !FINAL.has(state) && <LiveProgress key={id} analysisId={id} />}
      {state === 'Error' && (
        <p role="alert" className="error">
          The analysis failed: its log says why. Requeue it once the cause is fixed.
        </p>
      )}
      <nav className="tabs" aria-label="Analysis views">
        {TABS.map(([v, label]) => (
          <Link key={v} href={`/analyses/${id}?view=${v}`} aria-current={v === tab[0] ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {state === 'Complete' || tab[0] === 'logs' ? (
        tab[2](id)
      ) : (
        <p className="muted">{state ? 'Results appear here once the analysis is complete.' : ''}</p>
      )}
    </section>
  );
}

function AnalysisLog({ analysisId }: { analysisId: number }) {
  const logs = useQuery({
    queryKey: ['analysis', analysisId, 'logs'],
    queryFn: () =>
      unwrap(api.GET('/v2/analyses/{analysis_id}/logs', { params: { path: { analysis_id: analysisId } } })),
  });
  return (
    <Loaded query={logs} what="the log">
      {(l) => <LogView lines={l.logs.split('\n')} />}
    </Loaded>
  );
}
