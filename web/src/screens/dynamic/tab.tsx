// The analysis's dynamic execution: whether it ran (and how to ask for a run when it did not), then what it
// did — behaviours with their ATT&CK techniques and the functions that did them, the process tree with each
// process's activity, network, registry and memory dumps.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ApiError } from '../../api/client';
import { count } from '../../components/format';
import { ErrorNote, Loaded, Loading } from '../../components/status';
import { activityByPid, flatten } from './activity';
import { Behaviours } from './behaviours';
import { Dumps } from './dumps';
import { Network } from './network';
import { ProcessTree } from './process-tree';
import { Registry } from './registry';
import { RequestRun } from './request-run';
import {
  dumpsQuery,
  eventsQuery,
  networkQuery,
  processTreeQuery,
  registryQuery,
  statusQuery,
  ttpsQuery,
  type Dumps as DumpsView,
  type Events,
  type Process,
  type Registry as RegistryView,
  type RunStatus,
  type Ttps,
} from './views';
import './dynamic.css';

const POLL_MS = 3000;

const STOPS: Record<string, string> = {
  exit: 'Exited',
  instructions: 'Stopped at the instruction limit',
  'api-calls': 'Stopped at the call limit',
  time: 'Stopped at the time limit',
  memory: 'Stopped at the memory limit',
  fault: 'Faulted',
  unsupported: 'Stopped at an unsupported call',
};

/** 409 on the status view means the analysis was created without the sandbox: nothing will ever run. */
const notRequested = (e: unknown) => e instanceof ApiError && e.status === 409;

export function DynamicTab({ analysisId }: { analysisId: number }) {
  const status = useQuery({
    ...statusQuery(analysisId),
    // A 4xx answer is the answer (not sandboxed, not visible): asking again would only delay saying so.
    retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 1,
    refetchInterval: (q) => (q.state.data?.status === 'PENDING' ? POLL_MS : false),
  });
  return (
    <section aria-labelledby="dynamic-heading" className="dynamic">
      <h2 id="dynamic-heading">Dynamic execution</h2>
      {notRequested(status.error) ? (
        <RequestRun analysisId={analysisId} />
      ) : (
        <Loaded query={status} what="the run's status">
          {(s) =>
            s.status === 'PENDING' ? (
              <p role="status">
                <span className="badge warn">PENDING</span> The run is queued or running in the emulator; this page
                follows it.
              </p>
            ) : s.status === 'ERROR' ? (
              <RunFailure analysisId={analysisId} />
            ) : (
              <RunResults analysisId={analysisId} status={s} />
            )
          }
        </Loaded>
      )}
    </section>
  );
}

/** The status says ERROR only; every other view's 409 says why. */
function RunFailure({ analysisId }: { analysisId: number }) {
  const tree = useQuery(processTreeQuery(analysisId));
  return (
    <>
      <p>
        <span className="badge danger">ERROR</span> The run could not complete.
      </p>
      {tree.isPending ? <Loading what="the reason" /> : <ErrorNote error={tree.error ?? 'No reason was given.'} />}
    </>
  );
}

function RunResults({ analysisId, status }: { analysisId: number; status: RunStatus }) {
  const tree = useQuery(processTreeQuery(analysisId));
  const ttps = useQuery(ttpsQuery(analysisId));
  const network = useQuery(networkQuery(analysisId));
  const registry = useQuery(registryQuery(analysisId));
  const dumps = useQuery(dumpsQuery(analysisId));
  // One event is enough: the answer counts them all.
  const events = useQuery(eventsQuery(analysisId, null, null, 1, 1));
  const names = useMemo(() => new Map(flatten(tree.data ?? []).map((p) => [p.pid, p.procname])), [tree.data]);

  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className="badge ok">{status.status}</span>
          {status.stop && `${STOPS[status.stop.reason] ?? status.stop.reason}: ${status.stop.detail}`}
        </dd>
        <dt>Processes</dt>
        <dd>{tree.data ? names.size : '…'}</dd>
        <dt>Events</dt>
        <dd>{events.data ? eventsText(events.data) : events.error ? '—' : '…'}</dd>
        <dt>Behaviour score</dt>
        <dd>{ttps.data ? ttps.data.score : '…'}</dd>
        <dt>Dumps</dt>
        <dd>{dumps.data ? dumps.data.count : '…'}</dd>
      </dl>

      <h3>Behaviours</h3>
      <Loaded query={ttps} what="the behaviours">
        {(t) => <Behaviours ttps={t} names={names} />}
      </Loaded>

      <h3>Processes</h3>
      <Loaded query={tree} what="the process tree">
        {(processes) => (
          <Processes analysisId={analysisId} processes={processes} ttps={ttps} registry={registry} dumps={dumps} />
        )}
      </Loaded>

      <h3>Network</h3>
      <Loaded query={network} what="the network activity">
        {(n) => <Network network={n} />}
      </Loaded>

      <h3>Registry</h3>
      <Loaded query={registry} what="the registry activity">
        {(r) => <Registry registry={r} names={names} />}
      </Loaded>

      <h3>Memory dumps</h3>
      <Loaded query={dumps} what="the dumps">
        {(d) => <Dumps analysisId={analysisId} dumps={d.dumps} />}
      </Loaded>
    </>
  );
}

/** A run keeps its first 10 000 events: past that, only how many there were. */
const eventsText = ({ total, recorded }: Events) =>
  recorded > total
    ? `${recorded.toLocaleString()} recorded, the first ${total.toLocaleString()} kept`
    : count(total, 'event');

type Q<T> = { data: T | undefined; error: unknown };

/** The tree waits for the views its processes' activity comes from. */
function Processes({
  analysisId,
  processes,
  ttps,
  registry,
  dumps,
}: {
  analysisId: number;
  processes: Process[];
  ttps: Q<Ttps>;
  registry: Q<RegistryView>;
  dumps: Q<DumpsView>;
}) {
  const error = ttps.error ?? registry.error ?? dumps.error;
  const activity = useMemo(
    () =>
      ttps.data && registry.data && dumps.data
        ? activityByPid(processes, ttps.data, registry.data, dumps.data.dumps)
        : null,
    [processes, ttps.data, registry.data, dumps.data],
  );
  if (error) return <ErrorNote error={error} />;
  if (!activity) return <Loading what="what each process did" />;
  return <ProcessTree analysisId={analysisId} processes={processes} activity={activity} />;
}
