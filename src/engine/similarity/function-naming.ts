// Names for a stripped binary's functions from their nearest named functions (auto-unstrip) and, with the
// call graph, for groups of functions at once (ai-unstrip). Pure: candidates and call edges in, names with
// their evidence out. A generator, so a caller can yield to its event loop between chunks of work.
//
// Model. For a query function q with candidates c₁…c_k (nearest named functions, any reference binary), each
// candidate gets a log-odds b_i of being q's true match (pool-confidence.ts: its similarity, against the
// index's size). The candidates and "none of them" share one unit of probability:
//   p_i = e^{b_i} / (1 + Σ_j e^{b_j})
// so two equally strong candidates of different names split it (ambiguity lowers confidence) while the same
// name found in several reference builds adds up (agreement raises it): a name's confidence is the sum of
// its candidates' p_i.
//
// Structure (ai-unstrip) moves b_i. Let c_i be reference function r in binary B. For each neighbour n of q
// (callee, caller, and the functions just before and after q in address order), support is n's
// probability of matching r's neighbour of the same relation in B; contradiction is a callee's or
// caller's probability of matching some other function of B. Then
//   b_i ← b_i⁰ + SUPPORT · ln(1 + Σ support) − CONTRADICTION · ln(1 + Σ contradiction)
// recomputed from the previous round's p for ROUNDS rounds. Contradiction weighs less than support (at
// another -O level a callee may be inlined, so a missing edge is weaker evidence than a present one), but
// not much less: hubs (30 callees) otherwise collect support from a few agreeing callees whatever the rest
// say (sqlite, offline: CONTRADICTION 0.75 → 4 raised precision at 0.9 from 0.978 to 0.982, recall from
// 0.722 to 0.748).
// Functions that already have real names (exports, symbols) are anchors: p = 1 on their same-name
// candidates, 0 elsewhere. Last, names are handed out best first, each name and each reference function
// at most once.
import { canonicalName } from './canonical-name.js';
import { matchLogit } from './pool-confidence.js';

export interface NamingQuery {
  functionId: number;
  name: string;
  /** May be renamed (a placeholder name, not from symbols or a user); otherwise an anchor when named. */
  renamable: boolean;
}

export interface NamingCandidate {
  functionId: number;
  analysisId: number;
  binaryId: number;
  name: string;
  /** Cosine similarity to the query. */
  similarity: number;
}

export interface NamingInput {
  queries: NamingQuery[];
  /** Per query function id: its nearest named functions, best first. */
  candidates: Map<number, NamingCandidate[]>;
  /** Direct calls among query functions and among reference functions (ids are unique across analyses). */
  calls: { caller: number; callee: number }[];
  /** Per binary (query and references): its function ids in address order. */
  layout: number[][];
  /** Functions in the index the candidates were drawn from (calibrates the similarity's worth). */
  poolSize: number;
}

export interface NamingOptions {
  /** Use call-graph agreement and hand each name out once (ai-unstrip); otherwise nearest only (auto). */
  callGraph: boolean;
  /** Candidates below this cosine similarity are ignored. */
  minSimilarity: number;
  /** Names below this confidence (0..1) are not suggested. */
  confidenceThreshold: number;
  /** Only reference binaries that are the best match of at least this many query functions give names. */
  minGroupSize: number;
}

export interface NameEvidence {
  matchedFunctionId: number;
  matchedAnalysisId: number;
  matchedBinaryId: number;
  matchedName: string;
  similarity: number;
  /** Reference builds whose candidates carry this name. */
  agreeingBinaries: number;
  /** Neighbours (callees and callers) of the query function in its own call graph. */
  neighbours: number;
  /** Neighbours matched (p ≥ 0.5) to the corresponding neighbour of the matched function. */
  agreeingNeighbours: number;
  /** Neighbours matched (p ≥ 0.5) to some other function of the matched function's binary. */
  contradictingNeighbours: number;
}

export interface NameScore {
  name: string;
  confidence: number;
}

export interface SuggestedName extends NameEvidence {
  functionId: number;
  name: string;
  confidence: number;
  /** The best names considered for this function, best first (the chosen one included). */
  alternatives: NameScore[];
}

/** Weight of call-graph support, per ln(1 + expected agreeing neighbours). */
export const SUPPORT = 6;
/** Weight of contradicting neighbours, per ln(1 + expected contradicting neighbours). */
export const CONTRADICTION = 4;
export const ROUNDS = 4;
/**
 * How far apart in address order a reference function's layout neighbours may be. 2 tolerates a clone
 * inserted between them but lets a function's neighbour borrow its support (bench:unstrip, lz4: one
 * more wrong name, recall 0.869 → 0.914 with 1).
 */
export const LAYOUT_WINDOW = 1;
/** Queries scored between two yields to the caller. */
const CHUNK = 256;
const ALTERNATIVES = 5;

interface Pair extends NamingCandidate {
  canonical: string;
  base: number;
  logit: number;
}

interface Node {
  q: NamingQuery;
  pairs: Pair[];
  p: Float64Array;
}

interface Neighbourhood {
  out: Set<number>;
  in: Set<number>;
  /** The functions that follow and precede it in its binary, nearest first (LAYOUT_WINDOW of each). */
  next: number[];
  prev: number[];
}
type Adjacency = Map<number, Neighbourhood>;

function adjacency(input: Pick<NamingInput, 'calls' | 'layout'>): Adjacency {
  const adj: Adjacency = new Map();
  const at = (id: number) => {
    let a = adj.get(id);
    if (!a) adj.set(id, (a = { out: new Set(), in: new Set(), next: [], prev: [] }));
    return a;
  };
  for (const c of input.calls) {
    if (c.caller === c.callee) continue;
    at(c.caller).out.add(c.callee);
    at(c.callee).in.add(c.caller);
  }
  for (const ids of input.layout)
    ids.forEach((id, i) => {
      const a = at(id);
      a.next = ids.slice(i + 1, i + 1 + LAYOUT_WINDOW);
      a.prev = ids.slice(Math.max(0, i - LAYOUT_WINDOW), i).reverse();
    });
  return adj;
}

/** p_i = e^{b_i} / (1 + Σ e^{b_j}); anchors put all their mass on their own name. */
function probabilities(n: Node): void {
  if (!n.q.renamable) {
    const own = canonicalName(n.q.name);
    n.pairs.forEach((c, i) => (n.p[i] = c.canonical === own ? 1 : 0));
    return;
  }
  const top = Math.max(0, ...n.pairs.map((c) => c.logit));
  let sum = Math.exp(-top);
  for (const c of n.pairs) sum += Math.exp(c.logit - top);
  n.pairs.forEach((c, i) => (n.p[i] = Math.exp(c.logit - top) / sum));
}

/** Reference binaries holding the best candidate (ties included) of at least minGroupSize query functions. */
function groupedBinaries(nodes: Node[], minGroupSize: number): Set<number> {
  const best = new Map<number, number>();
  for (const n of nodes) {
    const top = n.pairs[0]?.similarity;
    const binaries = new Set(n.pairs.filter((c) => c.similarity === top).map((c) => c.binaryId));
    for (const b of binaries) best.set(b, (best.get(b) ?? 0) + 1);
  }
  return new Set([...best].filter(([, count]) => count >= minGroupSize).map(([b]) => b));
}

interface Agreement {
  support: number;
  contradiction: number;
  agreeing: number;
  contradicting: number;
}

/**
 * How q's neighbours' current matches agree with candidate pair `c` (r in binary B): callees with r's
 * callees, callers with r's callers, and q's neighbours in address order with r's (within LAYOUT_WINDOW).
 * Only calls contradict: clones and inlining shift the layout too freely.
 */
function agreement(q: number, c: Pair, adj: Adjacency, nodes: Map<number, Node>): Agreement {
  const mine = adj.get(q);
  const theirs = adj.get(c.functionId);
  const out: Agreement = { support: 0, contradiction: 0, agreeing: 0, contradicting: 0 };
  if (!mine) return out;
  const relations = [
    [mine.out, theirs?.out, true],
    [mine.in, theirs?.in, true],
    [mine.next.slice(0, 1), new Set(theirs?.next), false],
    [mine.prev.slice(0, 1), new Set(theirs?.prev), false],
  ] as const;
  for (const [neighbours, expected, contradicts] of relations) {
    for (const nb of neighbours) {
      const n = nodes.get(nb);
      if (!n) continue;
      let yes = 0;
      let no = 0;
      n.pairs.forEach((np, j) => {
        if (np.binaryId !== c.binaryId) return;
        if (expected?.has(np.functionId)) yes = Math.max(yes, n.p[j]!);
        else no += n.p[j]!;
      });
      out.support += yes;
      if (yes >= 0.5) out.agreeing++;
      if (!contradicts) continue;
      out.contradiction += Math.min(1, no);
      if (yes < 0.5 && no >= 0.5) out.contradicting++;
    }
  }
  return out;
}

interface Ranked {
  node: Node;
  name: string;
  confidence: number;
  best: Pair;
  bestP: number;
}

/** Per function, its names by summed probability, best first. */
function rankNames(n: Node): Ranked[] {
  const byName = new Map<string, Ranked>();
  n.pairs.forEach((c, i) => {
    const pi = n.p[i]!;
    const r = byName.get(c.canonical);
    if (!r) byName.set(c.canonical, { node: n, name: c.canonical, confidence: pi, best: c, bestP: pi });
    else {
      r.confidence += pi;
      if (pi > r.bestP) Object.assign(r, { best: c, bestP: pi });
    }
  });
  return [...byName.values()].sort((a, b) => b.confidence - a.confidence || a.best.functionId - b.best.functionId);
}

function node(q: NamingQuery, candidates: NamingCandidate[], poolSize: number): Node {
  const pairs = candidates.map((c) => {
    const base = matchLogit(c.similarity, poolSize);
    return { ...c, canonical: canonicalName(c.name), base, logit: base };
  });
  return { q, pairs, p: new Float64Array(pairs.length) };
}

/** The names a function's nearest functions suggest, with their confidence (0..1) from similarity alone. */
export function nameConfidences(candidates: NamingCandidate[], poolSize: number): NameScore[] {
  const n = node({ functionId: 0, name: '', renamable: true }, candidates, poolSize);
  probabilities(n);
  return rankNames(n).map((r) => ({ name: r.name, confidence: r.confidence }));
}

/**
 * Suggested names for the renamable query functions, best-supported first. Yields its progress (0..1)
 * every few hundred functions; the return value is the suggestions at or above the confidence threshold.
 */
export function* suggestNames(input: NamingInput, opts: NamingOptions): Generator<number, SuggestedName[]> {
  const nodes = new Map<number, Node>();
  for (const q of input.queries) {
    const candidates = (input.candidates.get(q.functionId) ?? []).filter((c) => c.similarity >= opts.minSimilarity);
    nodes.set(q.functionId, node(q, candidates, input.poolSize));
  }
  const all = [...nodes.values()];
  const grouped = groupedBinaries(all, opts.minGroupSize);
  for (const n of all) {
    if (n.q.renamable) n.pairs = n.pairs.filter((c) => grouped.has(c.binaryId));
    n.p = new Float64Array(n.pairs.length);
    probabilities(n);
  }

  const adj = adjacency(input);
  const rounds = opts.callGraph ? ROUNDS : 0;
  const steps = rounds * all.length + all.length;
  let done = 0;
  for (let round = 0; round < rounds; round++) {
    // Jacobi: every logit of a round reads the previous round's probabilities.
    const next = new Map<Node, number[]>();
    for (const n of all) {
      if (n.q.renamable) {
        next.set(
          n,
          n.pairs.map((c) => {
            const a = agreement(n.q.functionId, c, adj, nodes);
            return c.base + SUPPORT * Math.log1p(a.support) - CONTRADICTION * Math.log1p(a.contradiction);
          }),
        );
      }
      if (++done % CHUNK === 0) yield done / steps;
    }
    for (const [n, logits] of next) {
      n.pairs.forEach((c, i) => (c.logit = logits[i]!));
      probabilities(n);
    }
  }

  const ranked = new Map<Node, Ranked[]>();
  for (const n of all) {
    if (n.q.renamable) ranked.set(n, rankNames(n));
    if (++done % CHUNK === 0) yield done / steps;
  }
  return choose(ranked, opts, adj, nodes);
}

/** Best names first; with the call graph, each name and reference function names one function only. */
function choose(
  ranked: Map<Node, Ranked[]>,
  opts: NamingOptions,
  adj: Adjacency,
  nodes: Map<number, Node>,
): SuggestedName[] {
  const options = [...ranked.values()]
    .flatMap((names) => (opts.callGraph ? names : names.slice(0, 1)))
    .filter((r) => r.confidence >= opts.confidenceThreshold)
    .sort((a, b) => b.confidence - a.confidence || a.node.q.functionId - b.node.q.functionId);
  const named = new Set<number>();
  const usedNames = new Set<string>();
  const out: SuggestedName[] = [];
  for (const r of options) {
    const id = r.node.q.functionId;
    if (named.has(id)) continue;
    if (opts.callGraph && usedNames.has(r.name)) continue;
    named.add(id);
    usedNames.add(r.name);
    const a = agreement(id, r.best, adj, nodes);
    const binaries = new Set(r.node.pairs.filter((c) => c.canonical === r.name).map((c) => c.binaryId));
    const alternatives = ranked
      .get(r.node)!
      .slice(0, ALTERNATIVES)
      .map((x) => ({ name: x.name, confidence: x.confidence }));
    out.push({
      functionId: id,
      name: r.best.name,
      confidence: Math.min(1, r.confidence),
      alternatives,
      matchedFunctionId: r.best.functionId,
      matchedAnalysisId: r.best.analysisId,
      matchedBinaryId: r.best.binaryId,
      matchedName: r.best.name,
      similarity: r.best.similarity,
      agreeingBinaries: binaries.size,
      neighbours: (adj.get(id)?.out.size ?? 0) + (adj.get(id)?.in.size ?? 0),
      agreeingNeighbours: a.agreeing,
      contradictingNeighbours: a.contradicting,
    });
  }
  return out.sort((a, b) => a.functionId - b.functionId);
}

/** Runs suggestNames to the end without yielding (tests, small inputs). */
export function suggestNamesNow(input: NamingInput, opts: NamingOptions): SuggestedName[] {
  const it = suggestNames(input, opts);
  for (;;) {
    const r = it.next();
    if (r.done) return r.value;
  }
}
