// A layered drawing in near-linear time, for control-flow graphs too big for dagre within the time budget
// (dagre takes seconds on 600 blocks): ranks by longest path over the forward edges of a depth-first
// search, order within a rank by barycentre sweeps, x by averaging a left and a right packing around each
// block's predecessors, edges orthogonal. Edges that go back up or skip ranks run in lanes beside the
// drawing, so no edge crosses a block.

export interface Point {
  x: number;
  y: number;
}

export interface SizedNode {
  width: number;
  height: number;
}

/** An edge between two nodes, by their index in the node list. */
export interface Arc {
  from: number;
  to: number;
}

/** Coordinates only: the caller frames the drawing. */
export interface Placement {
  /** Top-left corner of each node, in input order. */
  corners: Point[];
  /** Each arc's polyline from the source's border to the target's, in input order. */
  routes: Point[][];
}

const NODE_SEP = 28;
const MIN_GAP = 36;
/** Vertical distance between horizontal edge segments sharing the gap between two ranks. */
const CHANNEL = 6;
const LANE_SEP = 8;
const LANE_OFFSET = 28;
const SELF_LOOP = 16;

/** Depth-first from each unvisited node in input order (the entry first): arcs closing a cycle, and post-order. */
function depthFirst(n: number, arcs: readonly Arc[], out: readonly number[][]) {
  const state = new Uint8Array(n); // 0 unseen, 1 on the stack, 2 done
  const cursor = new Int32Array(n);
  const back = new Uint8Array(arcs.length);
  const pre: number[] = [];
  const post: number[] = [];
  for (let root = 0; root < n; root++) {
    if (state[root]) continue;
    const stack = [root];
    state[root] = 1;
    pre.push(root);
    while (stack.length > 0) {
      const v = stack[stack.length - 1]!;
      const mine = out[v]!;
      if (cursor[v]! < mine.length) {
        const k = mine[cursor[v]!++]!;
        const w = arcs[k]!.to;
        if (state[w] === 0) {
          state[w] = 1;
          pre.push(w);
          stack.push(w);
        } else if (state[w] === 1) back[k] = 1;
      } else {
        state[v] = 2;
        post.push(v);
        stack.pop();
      }
    }
  }
  return { back, pre, post };
}

/** Centres along a line in the given order, each as near its wish as spacing allows: a left and a right packing averaged. */
function pack(wish: readonly number[], widths: readonly number[]): number[] {
  const m = wish.length;
  const gap = (i: number) => widths[i]! / 2 + NODE_SEP + widths[i + 1]! / 2;
  const left = wish.slice();
  for (let i = 1; i < m; i++) left[i] = Math.max(wish[i]!, left[i - 1]! + gap(i - 1));
  const right = wish.slice();
  for (let i = m - 2; i >= 0; i--) right[i] = Math.min(wish[i]!, right[i + 1]! - gap(i));
  // Both keep every gap, so their average does too.
  return left.map((l, i) => (l + right[i]!) / 2);
}

/** Wishes for the nodes without one, spaced from their neighbours' (or from 0 when none has one). */
function fillWishes(wish: (number | null)[], widths: readonly number[]): number[] {
  const m = wish.length;
  const first = wish.findIndex((w) => w !== null);
  const out = new Array<number>(m);
  if (first < 0) {
    let x = 0;
    for (let i = 0; i < m; i++) {
      if (i > 0) x += widths[i - 1]! / 2 + NODE_SEP + widths[i]! / 2;
      out[i] = x;
    }
    return out;
  }
  out[first] = wish[first]!;
  for (let i = first - 1; i >= 0; i--) out[i] = out[i + 1]! - (widths[i]! / 2 + NODE_SEP + widths[i + 1]! / 2);
  for (let i = first + 1; i < m; i++) out[i] = wish[i] ?? out[i - 1]! + widths[i - 1]! / 2 + NODE_SEP + widths[i]! / 2;
  return out;
}

export function layeredLayout(nodes: readonly SizedNode[], arcs: readonly Arc[]): Placement {
  const n = nodes.length;
  const out: number[][] = nodes.map(() => []);
  const inc: number[][] = nodes.map(() => []);
  arcs.forEach((a, k) => {
    out[a.from]!.push(k);
    inc[a.to]!.push(k);
  });
  const { back, pre, post } = depthFirst(n, arcs, out);

  // Ranks: longest path along forward arcs, in reverse post-order (a topological order of them).
  const rank = new Int32Array(n);
  for (let i = post.length - 1; i >= 0; i--) {
    const v = post[i]!;
    for (const k of out[v]!) if (!back[k]) rank[arcs[k]!.to] = Math.max(rank[arcs[k]!.to]!, rank[v]! + 1);
  }
  const ranks = n === 0 ? 0 : rank.reduce((m, r) => Math.max(m, r), 0) + 1;
  const layers: number[][] = Array.from({ length: ranks }, () => []);
  for (const v of pre) layers[rank[v]!]!.push(v);

  // Order: barycentres of forward neighbours' relative positions, sweeping down, up, down.
  const where = new Float64Array(n);
  const settle = (layer: number[]) => layer.forEach((v, i) => (where[v] = (i + 0.5) / layer.length));
  layers.forEach(settle);
  const sweep = (layer: number[], ends: readonly number[][], other: 'from' | 'to') => {
    const key = new Map<number, number>();
    for (const v of layer) {
      let sum = 0;
      let count = 0;
      for (const k of ends[v]!)
        if (!back[k]) {
          sum += where[arcs[k]![other]]!;
          count++;
        }
      key.set(v, count > 0 ? sum / count : where[v]!);
    }
    layer.sort((a, b) => key.get(a)! - key.get(b)!);
    settle(layer);
  };
  for (const pass of ['down', 'up', 'down'] as const) {
    if (pass === 'down') for (let r = 1; r < ranks; r++) sweep(layers[r]!, inc, 'from');
    else for (let r = ranks - 2; r >= 0; r--) sweep(layers[r]!, out, 'to');
  }

  // x: each node wishes to sit under the mean of its forward predecessors.
  const cx = new Float64Array(n);
  for (const layer of layers) {
    const widths = layer.map((v) => nodes[v]!.width);
    const wish = layer.map((v) => {
      let sum = 0;
      let count = 0;
      for (const k of inc[v]!)
        if (!back[k]) {
          sum += cx[arcs[k]!.from]!;
          count++;
        }
      return count > 0 ? sum / count : null;
    });
    pack(fillWishes(wish, widths), widths).forEach((x, i) => (cx[layer[i]!] = x));
  }
  let minX = Infinity;
  let maxX = -Infinity;
  for (let v = 0; v < n; v++) {
    minX = Math.min(minX, cx[v]! - nodes[v]!.width / 2);
    maxX = Math.max(maxX, cx[v]! + nodes[v]!.width / 2);
  }
  const middle = (minX + maxX) / 2;

  // Gaps: gap r lies below rank r, gap -1 above rank 0; each holds the horizontal segments crossing it.
  const gapLoad = new Int32Array(ranks + 1);
  const slotIn = (gap: number) => gapLoad[gap + 1]!++;
  type Plan =
    | { kind: 'self' }
    | { kind: 'straight' }
    | { kind: 'short'; slot: number }
    | { kind: 'lane'; right: boolean; lane: number; slotBelow: number; slotAbove: number };
  const plans: Plan[] = [];
  const laneEnds: { right: number[]; left: number[] } = { right: [], left: [] };
  const laneOrder = arcs.map((_, k) => k).filter((k) => arcs[k]!.from !== arcs[k]!.to);
  // Lanes are shared by arcs whose vertical spans (in gaps) do not overlap: first-fit by the span's top.
  const span = (k: number) => {
    const a = arcs[k]!;
    const below = rank[a.from]!;
    const above = rank[a.to]! - 1;
    return [Math.min(below, above), Math.max(below, above)] as const;
  };
  laneOrder.sort((a, b) => span(a)[0] - span(b)[0]);
  const laneOf = new Map<number, { right: boolean; lane: number }>();
  for (const k of laneOrder) {
    const a = arcs[k]!;
    if (!back[k] && rank[a.to] === rank[a.from]! + 1) continue;
    const right = (cx[a.from]! + cx[a.to]!) / 2 >= middle;
    const ends = right ? laneEnds.right : laneEnds.left;
    const [top, bottom] = span(k);
    let lane = ends.findIndex((end) => end < top);
    if (lane < 0) lane = ends.push(bottom) - 1;
    else ends[lane] = bottom;
    laneOf.set(k, { right, lane });
  }
  arcs.forEach((a, k) => {
    const lane = laneOf.get(k);
    if (a.from === a.to) plans.push({ kind: 'self' });
    else if (lane)
      plans.push({ kind: 'lane', ...lane, slotBelow: slotIn(rank[a.from]!), slotAbove: slotIn(rank[a.to]! - 1) });
    else if (Math.abs(cx[a.from]! - cx[a.to]!) < 1) plans.push({ kind: 'straight' });
    else plans.push({ kind: 'short', slot: slotIn(rank[a.from]!) });
  });

  // y: ranks stacked, each gap tall enough for its segments.
  const gapHeight = (gap: number) => Math.max(MIN_GAP, CHANNEL * (gapLoad[gap + 1]! + 1));
  const top = new Float64Array(ranks);
  const bottom = new Float64Array(ranks);
  let y = gapLoad[0]! > 0 ? gapHeight(-1) : 0;
  for (let r = 0; r < ranks; r++) {
    top[r] = y;
    bottom[r] = y + layers[r]!.reduce((h, v) => Math.max(h, nodes[v]!.height), 0);
    y = bottom[r]! + gapHeight(r);
  }
  const gapTop = (gap: number) => (gap < 0 ? 0 : bottom[gap]!);
  const slotY = (gap: number, slot: number) => gapTop(gap) + ((slot + 1) * gapHeight(gap)) / (gapLoad[gap + 1]! + 1);
  const laneX = (right: boolean, lane: number) =>
    right ? maxX + LANE_OFFSET + lane * LANE_SEP : minX - LANE_OFFSET - lane * LANE_SEP;

  // Ports: a node's out-arcs leave spread along its bottom, in-arcs arrive spread along its top, each side
  // ordered by where the other end lies so that they do not cross at the node.
  const towards = (k: number, end: 'from' | 'to') => {
    const plan = plans[k]!;
    if (plan.kind === 'lane') return plan.right ? Infinity : -Infinity;
    return cx[arcs[k]![end]]!;
  };
  const portX = new Float64Array(arcs.length * 2);
  const spread = (v: number, ks: number[], end: 'from' | 'to', offset: 0 | 1) => {
    const mine = ks.filter((k) => plans[k]!.kind !== 'self').sort((a, b) => towards(a, end) - towards(b, end));
    const left = cx[v]! - nodes[v]!.width / 2;
    mine.forEach((k, i) => (portX[2 * k + offset] = left + (nodes[v]!.width * (i + 1)) / (mine.length + 1)));
  };
  for (let v = 0; v < n; v++) {
    spread(v, out[v]!, 'to', 0);
    spread(v, inc[v]!, 'from', 1);
  }

  const corners = nodes.map((node, v) => ({ x: cx[v]! - node.width / 2, y: top[rank[v]!]! }));
  const routes = arcs.map((a, k): Point[] => {
    const s = corners[a.from]!;
    const src = nodes[a.from]!;
    const plan = plans[k]!;
    if (plan.kind === 'self') {
      const right = s.x + src.width;
      const low = s.y + src.height - 8;
      const high = s.y + 8;
      return [
        { x: right, y: low },
        { x: right + SELF_LOOP, y: low },
        { x: right + SELF_LOOP, y: high },
        { x: right, y: high },
      ];
    }
    const sx = portX[2 * k]!;
    const tx = portX[2 * k + 1]!;
    const sy = s.y + src.height;
    const ty = corners[a.to]!.y;
    if (plan.kind === 'straight')
      return [
        { x: sx, y: sy },
        { x: sx, y: ty },
      ];
    if (plan.kind === 'short') {
      const my = slotY(rank[a.from]!, plan.slot);
      return [
        { x: sx, y: sy },
        { x: sx, y: my },
        { x: tx, y: my },
        { x: tx, y: ty },
      ];
    }
    const lx = laneX(plan.right, plan.lane);
    const below = slotY(rank[a.from]!, plan.slotBelow);
    const above = slotY(rank[a.to]! - 1, plan.slotAbove);
    return [
      { x: sx, y: sy },
      { x: sx, y: below },
      { x: lx, y: below },
      { x: lx, y: above },
      { x: tx, y: above },
      { x: tx, y: ty },
    ];
  });
  return { corners, routes };
}
