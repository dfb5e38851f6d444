// A firmware unpacking task: its progress while it runs (polled), then what the image held — the
// executables found, each with its analysis, the extraction tree, links and special files, and problems.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import { Loaded } from '../../components/status';
import { BinaryRelations } from '../analysis/relations';
import { ExtractionTree } from './extraction-tree';
import { Executables } from './executables';
import { bytes, count } from '../../components/format';
import { extractionTree, isRunning, type FirmwareTask } from './model';
import './firmware.css';

const POLL_MS = 2000;
const STATUS_BADGE: Record<FirmwareTask['status'], string> = {
  PENDING: 'badge',
  RUNNING: 'badge warn',
  COMPLETED: 'badge ok',
  ERROR: 'badge danger',
};

export function FirmwareScreen({ task }: { task: string }) {
  const query = useQuery({
    queryKey: ['firmware', task],
    queryFn: () => unwrap(api.GET('/v2/firmware/get-binaries/{task_id}', { params: { path: { task_id: task } } })),
    refetchInterval: (q) => (q.state.data && isRunning(q.state.data) ? POLL_MS : false),
  });
  return (
    <section className="page firmware">
      <h1>Firmware{query.data ? `: ${query.data.firmware.name}` : ''}</h1>
      <Loaded query={query} what="the firmware task">
        {(t) => <TaskView task={task} data={t} />}
      </Loaded>
    </section>
  );
}

function TaskView({ task, data }: { task: string; data: FirmwareTask }) {
  const tree = useMemo(() => extractionTree(data), [data]);
  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className={STATUS_BADGE[data.status]}>{data.status}</span>
        </dd>
        <dt>Image</dt>
        <dd>{bytes(data.firmware.size)}</dd>
        <dt>SHA-256</dt>
        <dd className="mono">{data.firmware.sha256}</dd>
        <dt>Task</dt>
        <dd className="mono">{data.task_id}</dd>
        {data.status === 'COMPLETED' && (
          <>
            <dt>Extracted</dt>
            <dd>
              {count(data.binaries.length, 'executable')}, {count(data.files.length, 'other file')},{' '}
              {bytes(data.bytes_written)} written
            </dd>
          </>
        )}
        {data.stopped && (
          <>
            <dt>Stopped early</dt>
            <dd className="error">{data.stopped}</dd>
          </>
        )}
      </dl>
      {data.error && (
        <p role="alert" className="error">
          {data.error}
        </p>
      )}
      {isRunning(data) ? (
        <Progress data={data} />
      ) : (
        data.status === 'COMPLETED' && (
          <>
            <h2>Executables</h2>
            <Executables task={task} binaries={data.binaries} />
            <h2>Extraction</h2>
            <ExtractionTree task={task} nodes={tree} />
            <h2>Relations</h2>
            <BinaryRelations
              binary={{
                binary_id: data.firmware.binary_id,
                analysis_id: null,
                name: data.firmware.name,
                sha256: data.firmware.sha256,
              }}
            />
            {data.links.length > 0 && <Links links={data.links} />}
            <Problems problems={data.problems} />
          </>
        )
      )}
    </>
  );
}

function Progress({ data }: { data: FirmwareTask }) {
  // The task cannot know how much an image will give before it is unpacked: progress counts what is done.
  return (
    <div className="fw-progress">
      <p role="status">
        {data.status === 'PENDING' ? 'Waiting for a worker…' : 'Unpacking…'}
        {data.progress && ` ${count(data.progress.files, 'file')}, ${bytes(data.progress.bytes)} written so far.`}
      </p>
      <progress aria-label="Unpacking the image" />
    </div>
  );
}

function Links({ links }: { links: FirmwareTask['links'] }) {
  return (
    <>
      <h2>Links and special files</h2>
      <p className="muted">Recorded as the image holds them; none is created on the server.</p>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Kind</th>
            <th scope="col">Target</th>
          </tr>
        </thead>
        <tbody>
          {links.map((l) => (
            <tr key={l.path}>
              <td className="mono">{l.path}</td>
              <td>{l.kind}</td>
              <td className="mono">{l.target ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Problems({ problems }: { problems: FirmwareTask['problems'] }) {
  return (
    <>
      <h2>Problems</h2>
      {problems.length === 0 ? (
        <p className="muted">None met while unpacking.</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Where</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {problems.map((p, i) => (
              <tr key={i}>
                <td className="mono">{p.where}</td>
                <td>{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
