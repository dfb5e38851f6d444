// Every analysis the user may see, with every filter of GET /v2/analyses/list kept in the URL (so a view
// can be bookmarked or shared), paging, and the upload form.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import type { operations } from '../../api/schema';
import { Loaded } from '../../components/status';
import { FirmwareUpload } from '../firmware/upload';
import { StatusBadge } from './status-badge';
import { UploadForm } from './upload';
import './analyses.css';

type ListQuery = NonNullable<operations['listAnalyses']['parameters']['query']>;
type Status = NonNullable<ListQuery['status']>[number];
type Workspace = NonNullable<ListQuery['workspace']>[number];
type ModelName = NonNullable<ListQuery['model_name']>[number];

const PAGE = 50;
const STATUSES: Status[] = ['Uploaded', 'Queued', 'Processing', 'Complete', 'Error'];
const WORKSPACES: Workspace[] = ['personal', 'team', 'public'];

/** The list's query from the page's URL. */
function queryOf(search: URLSearchParams): ListQuery {
  const q: ListQuery = { limit: PAGE, offset: Number(search.get('offset') ?? 0) };
  const text = search.get('q');
  if (text) q.search_term = text;
  const sha = search.get('sha256');
  if (sha) q.sha256_hash = sha;
  const users = search.get('users');
  if (users) q.usernames = users.split(',').filter(Boolean);
  const status = search.getAll('status') as Status[];
  if (status.length) q.status = status;
  const workspace = search.getAll('workspace') as Workspace[];
  if (workspace.length) q.workspace = workspace;
  const models = search.getAll('model') as ModelName[];
  if (models.length) q.model_name = models;
  const dynamic = search.get('dynamic') as ListQuery['dynamic_execution_status'] | null;
  if (dynamic) q.dynamic_execution_status = dynamic;
  q.order_by = (search.get('order_by') as ListQuery['order_by']) ?? 'created';
  q.order = (search.get('order') as ListQuery['order']) ?? 'DESC';
  return q;
}

export function AnalysesScreen() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const query = queryOf(search);
  const list = useQuery({
    queryKey: ['analyses', query],
    queryFn: () => unwrap(api.GET('/v2/analyses/list', { params: { query } })),
    placeholderData: keepPreviousData,
    // Analyses still running change status: the list follows them.
    refetchInterval: (q) =>
      q.state.data?.results.some((a) => a.status !== 'Complete' && a.status !== 'Error') ? 3000 : false,
  });
  const models = useQuery({ queryKey: ['models'], queryFn: () => unwrap(api.GET('/v2/models')) });

  /** The URL with `key` set to `values` (none: removed), back on the first page. */
  const update = (key: string, values: string[]) => {
    const next = new URLSearchParams(search);
    next.delete(key);
    for (const v of values) if (v) next.append(key, v);
    if (key !== 'offset') next.delete('offset');
    navigate(`/analyses?${next.toString()}`, { replace: true });
  };
  const multi = (key: string, value: string, on: boolean) =>
    update(key, on ? [...search.getAll(key), value] : search.getAll(key).filter((v) => v !== value));
  const offset = query.offset ?? 0;

  return (
    <section className="page wide analyses">
      <h1>Analyses</h1>
      <div className="analyses-layout">
        <div>
          <div className="toolbar filters" role="search">
            <label>
              Search{' '}
              <input
                type="search"
                defaultValue={search.get('q') ?? ''}
                placeholder="name or hash"
                onKeyDown={(e) => e.key === 'Enter' && update('q', [e.currentTarget.value])}
                onBlur={(e) =>
                  e.currentTarget.value !== (search.get('q') ?? '') && update('q', [e.currentTarget.value])
                }
              />
            </label>
            <label>
              SHA-256{' '}
              <input
                defaultValue={search.get('sha256') ?? ''}
                size={12}
                onBlur={(e) => update('sha256', [e.currentTarget.value.trim()])}
              />
            </label>
            <label>
              Users{' '}
              <input
                defaultValue={search.get('users') ?? ''}
                size={10}
                placeholder="alice,bob"
                onBlur={(e) => update('users', [e.currentTarget.value.trim()])}
              />
            </label>
            <label>
              Dynamic execution{' '}
              <select value={search.get('dynamic') ?? ''} onChange={(e) => update('dynamic', [e.target.value])}>
                <option value="">any</option>
                <option value="SUCCESS">ran</option>
                <option value="PENDING">pending</option>
                <option value="ERROR">failed</option>
              </select>
            </label>
            <label>
              Order{' '}
              <select
                value={`${query.order_by} ${query.order}`}
                onChange={(e) => {
                  const [by, order] = e.target.value.split(' ');
                  const next = new URLSearchParams(search);
                  next.set('order_by', by!);
                  next.set('order', order!);
                  navigate(`/analyses?${next.toString()}`, { replace: true });
                }}
              >
                <option value="created DESC">newest first</option>
                <option value="created ASC">oldest first</option>
                <option value="name ASC">name A–Z</option>
                <option value="name DESC">name Z–A</option>
                <option value="size DESC">largest first</option>
                <option value="size ASC">smallest first</option>
              </select>
            </label>
          </div>
          <div className="toolbar filters">
            <fieldset>
              <legend>Status</legend>
              {STATUSES.map((s) => (
                <label key={s}>
                  <input
                    type="checkbox"
                    checked={search.getAll('status').includes(s)}
                    onChange={(e) => multi('status', s, e.target.checked)}
                  />{' '}
                  {s}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>Workspace</legend>
              {WORKSPACES.map((w) => (
                <label key={w}>
                  <input
                    type="checkbox"
                    checked={search.getAll('workspace').includes(w)}
                    onChange={(e) => multi('workspace', w, e.target.checked)}
                  />{' '}
                  {w}
                </label>
              ))}
            </fieldset>
            <label>
              Model{' '}
              <select value={search.get('model') ?? ''} onChange={(e) => update('model', [e.target.value])}>
                <option value="">any</option>
                {models.data?.models.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <Loaded query={list} what="analyses">
            {({ results }) => (
              <>
                <table className="grid" aria-label="Analyses">
                  <thead>
                    <tr>
                      <th scope="col">Binary</th>
                      <th scope="col">Status</th>
                      <th scope="col">Model</th>
                      <th scope="col">Size</th>
                      <th scope="col">Created</th>
                      <th scope="col">Owner</th>
                      <th scope="col">Tags</th>
                    </tr>
                  </thead>
                  <tbody>
                    {results.map((a) => (
                      <tr key={a.analysis_id}>
                        <td>
                          <Link href={`/analyses/${a.analysis_id}`}>{a.binary_name}</Link>
                          <div className="muted mono hash">{a.sha_256_hash.slice(0, 16)}…</div>
                        </td>
                        <td>
                          <StatusBadge status={a.status} />
                          {a.dynamic_execution_status && (
                            <span className="badge">dynamic: {a.dynamic_execution_status.toLowerCase()}</span>
                          )}
                        </td>
                        <td className="mono">{a.model_name}</td>
                        <td>{a.binary_size.toLocaleString()}</td>
                        <td>{new Date(a.creation).toLocaleString()}</td>
                        <td>{a.username}</td>
                        <td>
                          {a.tags?.map((t) => (
                            <span key={`${t.origin}:${t.name}`} className="badge">
                              {t.name}
                            </span>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {results.length === 0 && <p className="muted">No analysis matches. Upload a binary to start one.</p>}
                <nav className="toolbar" aria-label="Pages">
                  <button
                    type="button"
                    className="secondary"
                    disabled={offset === 0}
                    onClick={() => update('offset', [String(Math.max(0, offset - PAGE))])}
                  >
                    Previous
                  </button>
                  <span className="muted">{results.length ? `${offset + 1}–${offset + results.length}` : ''}</span>
                  <button
                    type="button"
                    className="secondary"
                    disabled={results.length < PAGE}
                    onClick={() => update('offset', [String(offset + PAGE)])}
                  >
                    Next
                  </button>
                </nav>
              </>
            )}
          </Loaded>
        </div>
        <aside>
          <UploadForm />
          <FirmwareUpload />
        </aside>
      </div>
    </section>
  );
}
