// The nearest-function index over the store's tables, as Ghidra BSim does it on PostgreSQL: LSH buckets
// in an indexed table give candidates, which are re-ranked exactly on their stored vectors. One Kysely
// code path for SQLite and PostgreSQL; see docs/similarity.md ("Index") for the parameters.
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import {
  HASHED_DIM,
  LSH_BANDS,
  LSH_BITS,
  dequantiseVector,
  int8Cosine,
  lshProbeRanges,
  type PackedVectors,
} from '../shared/simhash.js';
import { inChunks, yieldToEventLoop } from './batches.js';
import type { AnalysesTable, Database, UsersTable } from './schema.js';
import type { IndexFilter, IndexViewer, NearestQuery, Neighbour, SimilarityIndex } from './similarity-index.js';

export interface IndexTuning {
  /** Extra key prefixes probed per band: the bits nearest their threshold, flipped one at a time. */
  probes: number;
  /** Candidates re-ranked per query at most: those sharing the most bands with it. */
  maxCandidates: number;
  /**
   * Key bits a query matches on (a prefix of the stored LSH_BITS), or null to choose them by the index's
   * size: the fewest bits for which the probed buckets hold about `rowsPerQuery` entries in all.
   */
  bits: number | null;
  rowsPerQuery: number;
}

export const DEFAULT_TUNING: IndexTuning = { probes: 2, maxCandidates: 2000, bits: null, rowsPerQuery: 8000 };

/** Fewer key bits than this would make every bucket a sizeable share of a small index. */
const MIN_BITS = 8;
/** How long an estimate of the index's size is used before it is read again. */
const SIZE_TTL_MS = 60_000;

/** Answers beyond this are not asked for by matching (results_per_function) and would only cost re-ranking. */
const MAX_K = 1000;
/** Ids per `IN (…)` list: far below SQLite's 32 766 bound parameters and quick to plan. */
const CHUNK = 500;
/** Re-ranking yields to the event loop once it has run this long. */
const SLICE_MS = 20;

type Scoped = { a: AnalysesTable; u: UsersTable };

const some = (list: number[] | undefined): list is number[] => list !== undefined && list.length > 0;

/**
 * Analyses the viewer may see (access.ts canView) that pass the filter's analysis-level lists; each query
 * adds the function-level ones (functionIds, debug) on its own function column.
 */
function inScope(eb: ExpressionBuilder<Scoped, keyof Scoped>, viewer: IndexViewer, filter: IndexFilter = {}) {
  const visible = [eb('a.user_id', '=', viewer.userId), eb('a.analysis_scope', '=', 'PUBLIC')];
  if (viewer.teamId !== null) visible.push(eb('u.team_id', '=', viewer.teamId));
  const all = [eb.or(visible)];
  if (some(filter.analysisIds)) all.push(eb('a.id', 'in', filter.analysisIds));
  if (some(filter.binaryIds)) all.push(eb('a.binary_id', 'in', filter.binaryIds));
  if (some(filter.userIds)) all.push(eb('a.user_id', 'in', filter.userIds));
  if (some(filter.excludeAnalysisIds)) all.push(eb('a.id', 'not in', filter.excludeAnalysisIds));
  return eb.and(all);
}

const narrowsToFew = (f: IndexFilter = {}) => [f.analysisIds, f.binaryIds, f.functionIds].some(some);

const int8 = (b: Uint8Array) => new Int8Array(b.buffer, b.byteOffset, b.byteLength);

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Stores the vectors of a chunk of an analysis's functions, one statement: `functionIds[i]` is packed
 * function `first + i`.
 */
export async function insertVectors(
  tx: Transaction<Database>,
  functionIds: number[],
  packed: PackedVectors,
  first: number,
): Promise<void> {
  const { buffer, byteOffset } = packed.vectors;
  await tx
    .insertInto('function_vectors')
    .values(
      functionIds.map((id, i) => ({
        function_id: id,
        vector: Buffer.from(buffer, byteOffset + (first + i) * HASHED_DIM, HASHED_DIM),
      })),
    )
    .execute();
}

/**
 * Stores the LSH buckets of an analysis's functions (`functionIds[i]` is packed function i), 1 000 rows a
 * statement, in the order of the table's key (bucket, function). Buckets are random, so in function order
 * nearly every row of a statement lands on its own page of the key, and each statement's commit writes all
 * those pages again: 50 000 functions' 800 000 buckets took 15 s on SQLite, 0.65 s in key order.
 */
export async function insertBuckets(
  db: Kysely<Database>,
  analysisId: number,
  functionIds: number[],
  packed: PackedVectors,
): Promise<void> {
  const n = functionIds.length;
  for (let band = 0; band < LSH_BANDS; band++) {
    // bucket · n + i orders a band's rows by bucket, then function; exact in a double (bucket < 2^20, n < 2^32).
    const keys = Float64Array.from(functionIds, (_, i) => packed.buckets[i * LSH_BANDS + band]! * n + i).sort();
    await inChunks(Array.from(keys), (batch) =>
      db
        .insertInto('function_lsh')
        .values(
          batch.map((k) => ({ bucket: Math.floor(k / n), function_id: functionIds[k % n]!, analysis_id: analysisId })),
        )
        .execute(),
    );
  }
}

/** Best-first top-k of one query: (−similarity, function id) order. */
class TopK {
  readonly items: { id: number; sim: number }[] = [];
  constructor(
    private readonly k: number,
    private readonly min: number,
  ) {}

  offer(id: number, sim: number): void {
    if (sim < this.min) return;
    const it = this.items;
    if (it.length === this.k) {
      const last = it[it.length - 1]!;
      if (sim < last.sim || (sim === last.sim && id > last.id)) return;
      it.pop();
    }
    let i = it.length;
    while (i > 0 && (it[i - 1]!.sim < sim || (it[i - 1]!.sim === sim && it[i - 1]!.id > id))) i--;
    it.splice(i, 0, { id, sim });
  }
}

export class SimilarityRepository implements SimilarityIndex {
  private size = { functions: 0, readAt: -Infinity };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly tuning: IndexTuning = DEFAULT_TUNING,
  ) {}

  /**
   * Key bits for the index's current size: each band's probed buckets hold about N / 2^bits entries, so
   * bits = log2(bands · (1 + probes) · N / rowsPerQuery). N is estimated by the largest function id with
   * a vector (an index lookup; deletions make it an overestimate, which errs towards fewer rows).
   */
  private async queryBits(): Promise<number> {
    if (this.tuning.bits !== null) return this.tuning.bits;
    if (performance.now() - this.size.readAt > SIZE_TTL_MS) {
      const r = await this.db
        .selectFrom('function_vectors')
        .select((eb) => eb.fn.max('function_id').as('n'))
        .executeTakeFirst();
      this.size = { functions: Number(r?.n ?? 0), readAt: performance.now() };
    }
    const { probes, rowsPerQuery } = this.tuning;
    const want = Math.ceil(Math.log2((LSH_BANDS * (1 + probes) * Math.max(this.size.functions, 1)) / rowsPerQuery));
    return Math.min(LSH_BITS, Math.max(MIN_BITS, want));
  }

  async nearest(q: NearestQuery): Promise<Neighbour[]> {
    return (await this.nearestMany([q]))[0]!;
  }

  /**
   * Queries with the same viewer and a filter that narrows the index to at most maxCandidates functions
   * (a binary, an analysis, a list of functions) share one exact scan of those; the others look up their
   * LSH buckets. Vectors are fetched once per batch of queries.
   */
  async nearestMany(queries: NearestQuery[]): Promise<Neighbour[][]> {
    for (const q of queries) {
      if (q.vector.length !== HASHED_DIM)
        throw new RangeError(`query vector length ${q.vector.length}, expected ${HASHED_DIM}`);
      if (!Number.isInteger(q.k) || q.k < 1 || q.k > MAX_K) throw new RangeError(`k must be 1…${MAX_K}`);
    }
    const exact = new Map<string, number[] | null>();
    // Vectors of the exact scans, fetched once for every query that shares them.
    const pinned = new Map<number, Int8Array>();
    const tops: TopK[] = [];
    let sliceStart = performance.now();
    for (const batch of chunks(queries, 32)) {
      const candidates: number[][] = [];
      for (const q of batch) {
        let ids: number[] | null = null;
        if (narrowsToFew(q.filter)) {
          const key = JSON.stringify([q.viewer, q.filter]);
          if (!exact.has(key)) {
            const few = await this.fewInScope(q.viewer, q.filter);
            if (few) for (const [id, v] of await this.fetchVectors(few)) pinned.set(id, v);
            exact.set(key, few);
          }
          ids = exact.get(key)!;
        }
        candidates.push(ids ?? (await this.lshCandidates(q)));
      }
      const fetched = await this.fetchVectors([...new Set(candidates.flat())].filter((id) => !pinned.has(id)));
      for (const [i, q] of batch.entries()) {
        const top = new TopK(q.k, q.minSimilarity);
        for (const id of candidates[i]!) {
          const v = pinned.get(id) ?? fetched.get(id);
          if (v) top.offer(id, int8Cosine(q.vector, v));
        }
        tops.push(top);
        if (performance.now() - sliceStart > SLICE_MS) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
      }
    }
    const meta = await this.describe([...new Set(tops.flatMap((t) => t.items.map((x) => x.id)))]);
    return tops.map((t) =>
      t.items.flatMap(({ id, sim }) => (meta.has(id) ? [{ ...meta.get(id)!, similarity: sim }] : [])),
    );
  }

  async vectors(functionIds: number[]): Promise<Map<number, Float32Array>> {
    const raw = await this.fetchVectors([...new Set(functionIds)]);
    return new Map([...raw].map(([id, v]) => [id, dequantiseVector(v)]));
  }

  /** The functions in scope when there are at most maxCandidates of them, else null. */
  private async fewInScope(viewer: IndexViewer, filter: IndexFilter = {}): Promise<number[] | null> {
    const { functionIds, debug } = filter;
    const rows = await this.db
      .selectFrom('functions as f')
      .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('f.id')
      .where((eb) => inScope(eb, viewer, filter))
      .$if(some(functionIds), (qb) => qb.where('f.id', 'in', functionIds!))
      .$if(debug !== undefined, (qb) => qb.where('f.debug', '=', debug ? 1 : 0))
      .limit(this.tuning.maxCandidates + 1)
      .execute();
    return rows.length > this.tuning.maxCandidates ? null : rows.map((r) => r.id);
  }

  /**
   * Visible functions sharing a probed key prefix with the query, those sharing the most first. Each
   * range is its own arm of a UNION ALL, which every planner answers from the (bucket, function_id) key;
   * an OR of ranges let SQLite prefer walking the function_id index for the GROUP BY (seconds a query at
   * 10⁵). The functions table is consulted only for the debug filter.
   */
  private async lshCandidates(q: NearestQuery): Promise<number[]> {
    const { functionIds, debug } = q.filter ?? {};
    const ranges = lshProbeRanges(q.vector, await this.queryBits(), this.tuning.probes);
    const arm = ([first, last]: [number, number]) =>
      this.db
        .selectFrom('function_lsh')
        .select(['function_id', 'analysis_id'])
        .where('bucket', '>=', first)
        .where('bucket', '<=', last);
    const hits = ranges.slice(1).reduce((u, r) => u.unionAll(arm(r)), arm(ranges[0]!));
    const rows = await this.db
      .selectFrom(hits.as('l'))
      .innerJoin('analyses as a', 'a.id', 'l.analysis_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select((eb) => ['l.function_id', eb.fn.countAll().as('hits')])
      .where((eb) => inScope(eb, q.viewer, q.filter))
      .$if(some(functionIds), (qb) => qb.where('l.function_id', 'in', functionIds!))
      .$if(debug !== undefined, (qb) =>
        qb.where((eb) =>
          eb.exists(
            eb
              .selectFrom('functions as f')
              .select('f.id')
              .whereRef('f.id', '=', 'l.function_id')
              .where('f.debug', '=', debug ? 1 : 0),
          ),
        ),
      )
      .groupBy('l.function_id')
      .orderBy('hits', 'desc')
      .orderBy('l.function_id')
      .limit(this.tuning.maxCandidates)
      .execute();
    return rows.map((r) => r.function_id);
  }

  private async fetchVectors(ids: number[]): Promise<Map<number, Int8Array>> {
    const out = new Map<number, Int8Array>();
    for (const batch of chunks(ids)) {
      const rows = await this.db
        .selectFrom('function_vectors')
        .select(['function_id', 'vector'])
        .where('function_id', 'in', batch)
        .execute();
      for (const r of rows) out.set(r.function_id, int8(r.vector));
    }
    return out;
  }

  private async describe(ids: number[]): Promise<Map<number, Omit<Neighbour, 'similarity'>>> {
    const out = new Map<number, Omit<Neighbour, 'similarity'>>();
    for (const batch of chunks(ids)) {
      const rows = await this.db
        .selectFrom('functions as f')
        .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
        .select(['f.id', 'f.analysis_id', 'a.binary_id', 'f.name', 'f.name_source_type', 'f.debug'])
        .where('f.id', 'in', batch)
        .execute();
      for (const r of rows)
        out.set(r.id, {
          functionId: r.id,
          analysisId: r.analysis_id,
          binaryId: r.binary_id,
          name: r.name,
          nameSourceType: r.name_source_type,
          debug: r.debug === 1,
        });
    }
    return out;
  }
}
