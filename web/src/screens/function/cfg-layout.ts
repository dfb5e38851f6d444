// Where each basic block and each edge of a control-flow graph goes, without React or the DOM: text is
// measured by character count at a fixed monospace width, so the layout is a pure function of the blocks.
// dagre draws graphs up to DAGRE_LIMIT blocks; past that it takes seconds, and a layered layout of our own
// (cfg-layered.ts) keeps the time in budget.
import dagre from '@dagrejs/dagre';
import { layeredLayout, type Arc, type Placement, type Point, type SizedNode } from './cfg-layered';

export type { Point } from './cfg-layered';

export interface CfgBlockInput {
  id: number;
  asm: readonly string[];
  destinations: readonly { destination_block_id: number | null; flowtype: string }[];
}

/** The edge kinds the API names in `flowtype`; anything else is drawn as an unconditional jump. */
export const EDGE_KINDS = ['true', 'false', 'switch', 'unconditional', 'fallthrough'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export interface CfgNode {
  id: number;
  /** Top-left corner and size of the block's box. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The instructions as drawn (long ones cut). */
  lines: string[];
}

export interface CfgEdge {
  from: number;
  to: number;
  kind: EdgeKind;
  points: Point[];
}

export interface CfgLayout {
  width: number;
  height: number;
  nodes: CfgNode[];
  edges: CfgEdge[];
}

/** Text metrics of the drawing: 12px monospace, whose advance is 0.6em in the usual fonts. */
export const CFG_TEXT = { fontSize: 12, charWidth: 7.4, lineHeight: 16, padX: 8, padY: 6 } as const;
const MAX_CHARS = 72;
export const DAGRE_LIMIT = 100;

const MARGIN = 12;

/** The drawing moved to start at the margin and sized to hold every box and every edge point (dagre's own size
 * leaves out edges routed around the boxes). */
function framed(p: Placement, sizes: readonly SizedNode[]) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const take = (x: number, y: number) => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  };
  p.corners.forEach((c, i) => {
    take(c.x, c.y);
    take(c.x + sizes[i]!.width, c.y + sizes[i]!.height);
  });
  for (const route of p.routes) for (const q of route) take(q.x, q.y);
  if (minX === Infinity) return { width: 0, height: 0, corners: [], routes: [] };
  const move = (q: Point) => ({ x: q.x - minX + MARGIN, y: q.y - minY + MARGIN });
  return {
    width: maxX - minX + 2 * MARGIN,
    height: maxY - minY + 2 * MARGIN,
    corners: p.corners.map(move),
    routes: p.routes.map((r) => r.map(move)),
  };
}

const kindOf = (flowtype: string): EdgeKind =>
  (EDGE_KINDS as readonly string[]).includes(flowtype) ? (flowtype as EdgeKind) : 'unconditional';

const cut = (line: string) => (line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line);

function dagreLayout(nodes: readonly SizedNode[], arcs: readonly (Arc & { kind: EdgeKind })[]): Placement {
  const g = new dagre.graphlib.Graph<object, { width: number; height: number; x?: number; y?: number }>();
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 36, edgesep: 12 });
  nodes.forEach((n, i) => g.setNode(String(i), { width: n.width, height: n.height }));
  for (const a of arcs)
    // Straight lines for the path that falls through; branches may bend.
    g.setEdge(String(a.from), String(a.to), { weight: a.kind === 'fallthrough' || a.kind === 'false' ? 2 : 1 });
  dagre.layout(g);
  return {
    corners: nodes.map((n, i) => {
      const placed = g.node(String(i));
      return { x: (placed.x ?? 0) - n.width / 2, y: (placed.y ?? 0) - n.height / 2 };
    }),
    routes: arcs.map((a) => (g.edge(String(a.from), String(a.to)) as { points?: Point[] }).points ?? []),
  };
}

/** The graph's layout; its time is recorded as the user-timing measure `cfg-layout` (npm run bench:ui reads it). */
export function layoutCfg(blocks: readonly CfgBlockInput[]): CfgLayout {
  const start = performance.now();
  const { charWidth, lineHeight, padX, padY } = CFG_TEXT;
  const lines = blocks.map((b) => (b.asm.length > 0 ? b.asm.map(cut) : ['(no instructions)']));
  const sized = lines.map((text) => ({
    width: text.reduce((m, l) => Math.max(m, l.length), 0) * charWidth + 2 * padX,
    height: text.length * lineHeight + 2 * padY,
  }));

  // One arc per pair of blocks: a switch with several cases to one block draws one arrow. Destinations
  // outside the function (tail calls) have no block and are not drawn.
  const index = new Map(blocks.map((b, i) => [b.id, i]));
  const seen = new Set<string>();
  const arcs: (Arc & { kind: EdgeKind })[] = [];
  blocks.forEach((b, from) => {
    for (const d of b.destinations) {
      const to = d.destination_block_id === null ? undefined : index.get(d.destination_block_id);
      const key = `${from}>${to}`;
      if (to === undefined || seen.has(key)) continue;
      seen.add(key);
      arcs.push({ from, to, kind: kindOf(d.flowtype) });
    }
  });

  const placed = framed(blocks.length <= DAGRE_LIMIT ? dagreLayout(sized, arcs) : layeredLayout(sized, arcs), sized);
  performance.measure('cfg-layout', { start });
  return {
    width: placed.width,
    height: placed.height,
    nodes: blocks.map((b, i) => ({ id: b.id, ...placed.corners[i]!, ...sized[i]!, lines: lines[i]! })),
    edges: arcs.map((a, k) => ({
      from: blocks[a.from]!.id,
      to: blocks[a.to]!.id,
      kind: a.kind,
      points: placed.routes[k]!,
    })),
  };
}
