// A binary's relations: the binary it was found in (a firmware image, or the sample whose run dropped or
// dumped it), and the binaries found in it. Drawn as a graph (dagre's layered layout inside the shared
// PanZoom, as a group whose nodes are links to their analysis or firmware task) and listed as a table.
import dagre, { type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';
import { PanZoom } from '../../components/pan-zoom';
import { ErrorNote, Loaded } from '../../components/status';
import './relations.css';

type Related = NonNullable<
  paths['/v2/binaries/{binary_id}/related']['get']['responses'][200]['content']['application/json']['data']
>;
export type Relative = Related['children'][number];

const POLL_MS = 3000;
/** Children drawn at most; the table lists them all (a root file system may hold hundreds of programs). */
const MAX_DRAWN = 120;
const NODE_W = 230;
const NODE_H = 50;
const CHAR_W = 6.6;

/** The analysis's basic facts (its binary id first of all): shared with the dynamic-execution tab. */
export const basicQuery = (analysisId: number) => ({
  queryKey: ['analysis-basic', analysisId],
  queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/basic', { params: { path: { analysis_id: analysisId } } })),
});

/**
 * The binary's relatives, polled while the task that finds its children (its dynamic execution or firmware
 * unpacking) is still PENDING; the status is part of the key so the list is asked again when it ends.
 */
export function useRelated(binaryId: number | undefined) {
  const status = useQuery({
    queryKey: ['related-status', binaryId],
    enabled: binaryId !== undefined,
    queryFn: () =>
      unwrap(api.GET('/v2/binaries/{binary_id}/related/status', { params: { path: { binary_id: binaryId! } } })),
    refetchInterval: (q) => (q.state.data?.status === 'PENDING' ? POLL_MS : false),
  });
  const related = useQuery({
    queryKey: ['related', binaryId, status.data?.status],
    enabled: binaryId !== undefined,
    queryFn: () => unwrap(api.GET('/v2/binaries/{binary_id}/related', { params: { path: { binary_id: binaryId! } } })),
  });
  return { status: status.data?.status, related };
}

/** What found a binary in its parent, as the table and the graph's edges say it. */
const ORIGIN_TEXT = { dump: 'dynamic execution', firmware: 'firmware' } as const;

/** Where a relative leads: its firmware task when it is an image, else its analysis; null when neither. */
function linkOf(binary: Relative): { href: string; text: string } | null {
  if (binary.task_id != null) return { href: `/firmware/${encodeURIComponent(binary.task_id)}`, text: 'Firmware task' };
  if (binary.analysis_id != null)
    return { href: `/analyses/${binary.analysis_id}`, text: `Analysis ${binary.analysis_id}` };
  return null;
}

export function RelationsTab({ analysisId }: { analysisId: number }) {
  const basic = useQuery(basicQuery(analysisId));
  return (
    <section aria-labelledby="relations-heading">
      <h2 id="relations-heading">Relations</h2>
      <Loaded query={basic} what="the binary">
        {(b) => (
          <BinaryRelations
            binary={{ binary_id: b.binary_id, analysis_id: analysisId, name: b.binary_name, sha256: b.sha_256_hash }}
          />
        )}
      </Loaded>
    </section>
  );
}

interface Drawn {
  key: string;
  binary: Relative;
  role: 'parent' | 'this' | 'child';
}
/** Where, and by what, the lower end was found in the upper one: the lower end's own relative record. */
interface Tie {
  from: string;
  to: string;
  found: Relative | undefined;
}

/** The graph and table of one binary's relatives; the firmware screen shows its image's too. */
export function BinaryRelations({ binary }: { binary: Relative }) {
  const binaryId = binary.binary_id;
  const { status, related } = useRelated(binaryId);
  const parentId = related.data?.parent?.binary_id;
  // Where this binary lies in its parent is on the parent's list of children.
  const siblings = useRelated(parentId).related;
  const inParent = siblings.data?.children.find((c) => c.binary_id === binaryId);

  return (
    <Loaded query={related} what="the related binaries">
      {(r) => {
        const drawnChildren = r.children.slice(0, MAX_DRAWN);
        const nodes: Drawn[] = [
          ...(r.parent ? [{ key: 'parent', binary: r.parent, role: 'parent' as const }] : []),
          { key: 'this', binary, role: 'this' },
          ...drawnChildren.map((c) => ({ key: `child-${c.binary_id}`, binary: c, role: 'child' as const })),
        ];
        const ties: Tie[] = [
          ...(r.parent ? [{ from: 'parent', to: 'this', found: inParent }] : []),
          ...drawnChildren.map((c) => ({ from: 'this', to: `child-${c.binary_id}`, found: c })),
        ];
        return (
          <>
            {status === 'PENDING' && (
              <p role="status" className="muted">
                Still looking inside this binary: its children appear as they are found.
              </p>
            )}
            {status === 'ERROR' && <ErrorNote error="The task that looks inside this binary failed." />}
            {nodes.length === 1 ? (
              <p className="muted">
                This binary was found in no other, and no binary was found in it (firmware images and the dumps of a
                dynamic execution have relations).
              </p>
            ) : (
              <>
                <RelationsGraph nodes={nodes} ties={ties} />
                {r.children.length > MAX_DRAWN && (
                  <p className="muted">
                    The graph draws the first {MAX_DRAWN} of {r.children.length} children; the table lists them all.
                  </p>
                )}
                <RelationsTable parent={r.parent ?? null} inParent={inParent} children={r.children} />
              </>
            )}
          </>
        );
      }}
    </Loaded>
  );
}

/** Keeps both ends of a long name: a sample's name starts with what it is, a path ends with it. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor((max - 1) / 2);
  return `${text.slice(0, max - 1 - tail)}…${text.slice(-tail)}`;
}

function edgeText(found: Relative | undefined): string {
  return [found?.origin && ORIGIN_TEXT[found.origin], found?.location].filter(Boolean).join(' · ');
}

function RelationsGraph({ nodes, ties }: { nodes: Drawn[]; ties: Tie[] }) {
  const g = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>();
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 80, marginx: 12, marginy: 12 });
  for (const n of nodes) g.setNode(n.key, { width: NODE_W, height: NODE_H });
  for (const t of ties)
    g.setEdge(t.from, t.to, { width: Math.min(edgeText(t.found).length, 44) * CHAR_W, height: 16, labelpos: 'c' });
  dagre.layout(g);
  const { width = NODE_W, height = NODE_H } = g.graph();

  return (
    <PanZoom
      width={width}
      height={height}
      label="Graph of the related binaries"
      role="group"
      viewportHeight={Math.min(480, Math.max(180, height + 40))}
    >
      {ties.map((t) => {
        const e = g.edge(t.from, t.to);
        const points = (e.points ?? []).map((p) => `${p.x},${p.y}`).join(' ');
        const text = edgeText(t.found);
        return (
          <g key={`${t.from}-${t.to}`}>
            <polyline points={points} fill="none" style={{ stroke: 'var(--muted)' }} strokeWidth={1.4} />
            <Arrow points={e.points ?? []} />
            {text && (
              <text x={e.x} y={e.y} textAnchor="middle" dominantBaseline="middle" fontSize={11} style={LABEL}>
                <title>{text}</title>
                {shorten(text, 44)}
              </text>
            )}
          </g>
        );
      })}
      {nodes.map((n) => {
        const { x = 0, y = 0 } = g.node(n.key);
        return <RelativeNode key={n.key} node={n} x={x - NODE_W / 2} y={y - NODE_H / 2} />;
      })}
    </PanZoom>
  );
}

const LABEL = { fill: 'var(--muted)', paintOrder: 'stroke', stroke: 'var(--code-bg)', strokeWidth: 4 } as const;

function Arrow({ points }: { points: { x: number; y: number }[] }) {
  const end = points.at(-1);
  const before = points.at(-2);
  if (!end || !before) return null;
  const angle = Math.atan2(end.y - before.y, end.x - before.x);
  const tip = (a: number) => `${end.x - 9 * Math.cos(angle + a)},${end.y - 9 * Math.sin(angle + a)}`;
  return <polygon points={`${end.x},${end.y} ${tip(0.45)} ${tip(-0.45)}`} style={{ fill: 'var(--muted)' }} />;
}

function RelativeNode({ node, x, y }: { node: Drawn; x: number; y: number }) {
  const { binary, role } = node;
  const current = role === 'this';
  const link = current ? null : linkOf(binary);
  const caption = current ? 'this binary' : `${role} · ${link?.text ?? 'not analysed'}`;
  const box = (
    <g transform={`translate(${x} ${y})`}>
      <title>{binary.name}</title>
      <rect className={current ? 'relation-box current' : 'relation-box'} width={NODE_W} height={NODE_H} rx={5} />
      <text x={10} y={20} fontSize={12} fontWeight={600} style={{ fill: 'var(--text)' }}>
        {shorten(binary.name, 28)}
      </text>
      <text x={10} y={38} fontSize={11} style={{ fill: link ? 'var(--accent)' : 'var(--muted)' }}>
        {caption}
      </text>
    </g>
  );
  if (!link) return box;
  // A real link (the drawing is a group, not one image), named by the texts it draws (the full name is in
  // the table); dragging the drawing does not start on it.
  return (
    <Link href={link.href} className="relation-node" data-interactive>
      {box}
    </Link>
  );
}

function RelationsTable({
  parent,
  inParent,
  children,
}: {
  parent: Relative | null;
  inParent: Relative | undefined;
  children: Relative[];
}) {
  // The parent's row says how this binary was found in it: that is on the parent's list of children.
  const rows: { relation: string; binary: Relative; found: Relative | undefined }[] = [
    ...(parent ? [{ relation: 'Parent', binary: parent, found: inParent }] : []),
    ...children.map((c) => ({ relation: 'Child', binary: c, found: c })),
  ];
  return (
    <table className="grid relations-table">
      <caption className="muted">Related binaries, with what found each one and where</caption>
      <thead>
        <tr>
          <th scope="col">Relation</th>
          <th scope="col">Binary</th>
          <th scope="col">Found by</th>
          <th scope="col">Location</th>
          <th scope="col">Analysis or task</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ relation, binary, found }) => (
          <tr key={`${relation}-${binary.binary_id}`}>
            <td>{relation}</td>
            <td>
              {binary.name}
              <div className="muted mono" title={binary.sha256}>
                {binary.sha256.slice(0, 16)}…
              </div>
            </td>
            <td>{found?.origin ? ORIGIN_TEXT[found.origin] : '—'}</td>
            <td className="mono">{found?.location ?? '—'}</td>
            <td>
              <RelativeLink binary={binary} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RelativeLink({ binary }: { binary: Relative }) {
  const link = linkOf(binary);
  if (!link) return <span className="muted">Not analysed</span>;
  return <Link href={link.href}>{link.text}</Link>;
}
