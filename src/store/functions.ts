import { sql, type Kysely, type Selectable } from 'kysely';
import type { CallRecord, FunctionRecord, ReferenceRecord, StringRecord } from '../shared/analysis-records.js';
import type { PackedVectors } from '../shared/simhash.js';
import { clearResults, FUNCTIONS_PER_CHUNK } from './analysis-rows.js';
import { inBatches, inChunks } from './batches.js';
import { likePattern } from './like.js';
import { reattachNames } from './name-history.js';
import type { Database, FunctionsTable } from './schema.js';
import { insertBuckets, insertVectors } from './similarity.js';

export type FunctionRow = Selectable<FunctionsTable>;

/** A function as access rules and data types ask for it: where it is, and whose analysis it belongs to. */
export interface FunctionOwner {
  id: number;
  analysis_id: number;
  vaddr: number;
  size: number;
  name: string;
  user_id: number;
  analysis_scope: string;
  status: string;
  owner_team_id: number | null;
}

/** One analysis's recovered functions and what hangs off them, as the engine returned them. */
export interface FunctionResults {
  functions: FunctionRecord[];
  /** `caller`/`callee` index into `functions`. */
  calls: CallRecord[];
  strings: StringRecord[];
  refs: ReferenceRecord[];
  /** Vectors and LSH buckets of `functions`, index-aligned (absent: the functions are not indexed). */
  vectors?: PackedVectors | null;
}

/** A call's target as the function list shows it: its name, else its address, else that it is computed. */
const calleeName = (c: CallRecord) => c.calleeName ?? (c.target >= 0 ? `sub_${c.target.toString(16)}` : '(indirect)');

/** An xref row: a direct call's site and target, or a data reference (a string's, or other data). */
interface Xref {
  site: number;
  func: number;
  target: number;
  kind: 'call' | 'string' | 'data';
}

export class FunctionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Replaces everything recovery produced for an analysis, in chunks of ~1 000 rows, each its own short
   * statement or transaction (analysis-rows.ts): the old rows are cleared, then the new ones written, so
   * while this runs the analysis's function list is partial; it is whole once the analysis is Complete.
   * User-added strings stay, and so do the names people and unstripping gave: they are re-applied by
   * address (see reattachNames).
   */
  async replace(analysisId: number, r: FunctionResults): Promise<void> {
    if (r.vectors && r.vectors.count !== r.functions.length)
      throw new RangeError(`${r.vectors.count} vectors for ${r.functions.length} functions`);
    await clearResults(this.db, analysisId);
    const ids: number[] = [];
    await inChunks(
      r.functions,
      (batch) =>
        this.db.transaction().execute(async (tx) => {
          const rows = await tx
            .insertInto('functions')
            .values(
              batch.map((f) => ({
                analysis_id: analysisId,
                vaddr: f.vaddr,
                size: f.size,
                name: f.name,
                mangled_name: f.mangledName,
                // A name the client sent is EXTERNAL; recovery's own (symbols, debug info, sub_) are SYSTEM.
                name_source_type: f.nameOrigin === 'client' ? 'EXTERNAL' : 'SYSTEM',
                debug: f.nameOrigin === 'symbol' || f.nameOrigin === 'debug' ? 1 : 0,
                source: f.found,
                thumb: f.thumb ? 1 : 0,
                blocks: JSON.stringify(f.blocks),
              })),
            )
            .returning('id')
            .execute();
          const batchIds = rows.map((row) => row.id);
          if (r.vectors) await insertVectors(tx, batchIds, r.vectors, ids.length);
          ids.push(...batchIds);
        }),
      FUNCTIONS_PER_CHUNK,
    );
    if (r.vectors) await insertBuckets(this.db, analysisId, ids, r.vectors);
    await inChunks(r.calls, (batch) =>
      this.db
        .insertInto('function_calls')
        .values(
          batch.map((c) => ({
            analysis_id: analysisId,
            caller_id: ids[c.caller]!,
            callee_id: c.callee === null ? null : ids[c.callee]!,
            callee_vaddr: c.target,
            callee_name: calleeName(c),
            is_external: c.kind === 'import' ? 1 : 0,
            site: c.site,
          })),
        )
        .execute(),
    );
    await inChunks(r.strings, (batch) =>
      this.db
        .insertInto('analysis_strings')
        .values(
          batch.map((s) => ({
            analysis_id: analysisId,
            vaddr: s.vaddr,
            value: s.value,
            source: 'SYSTEM',
            encoding: s.encoding,
            section: s.section,
          })),
        )
        .onConflict((oc) => oc.columns(['analysis_id', 'vaddr']).doNothing())
        .execute(),
    );
    const stringRefs = r.strings.flatMap((s) => s.refs.map((ref) => ({ vaddr: s.vaddr, ...ref })));
    await inChunks(stringRefs, (batch) =>
      this.db
        .insertInto('string_refs')
        .values(
          batch.map((s) => ({
            analysis_id: analysisId,
            string_vaddr: s.vaddr,
            function_id: ids[s.func]!,
            site: s.site,
          })),
        )
        .execute(),
    );
    // Each chunk's rows are built as it is written: 10^5 rows built at once stall the event loop ~100 ms.
    const insertXrefs = (rows: Xref[]) =>
      rows.length === 0
        ? Promise.resolve()
        : this.db
            .insertInto('xrefs')
            .values(
              rows.map((x) => ({
                analysis_id: analysisId,
                from_vaddr: x.site,
                to_vaddr: x.target,
                kind: x.kind,
                function_id: ids[x.func] ?? null,
              })),
            )
            .execute();
    await inChunks(r.calls, (batch) =>
      insertXrefs(
        batch
          .filter((c) => c.target >= 0)
          .map((c) => ({ site: c.site, func: c.caller, target: c.target, kind: 'call' })),
      ),
    );
    const stringSites = new Set(stringRefs.map((ref) => ref.site));
    await inChunks(r.refs, (batch) =>
      insertXrefs(batch.map((x) => ({ ...x, kind: stringSites.has(x.site) ? 'string' : 'data' }))),
    );
    await reattachNames(this.db, analysisId);
  }

  count(analysisId: number): Promise<number> {
    return this.db
      .selectFrom('functions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('analysis_id', '=', analysisId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /** A page of an analysis's functions by address; `search` matches names, `min`/`max` bound vaddr. */
  page(
    analysisId: number,
    opts: { offset: number; limit: number; search?: string | null; min?: number | null; max?: number | null },
  ): Promise<FunctionRow[]> {
    let q = this.db.selectFrom('functions').selectAll().where('analysis_id', '=', analysisId);
    if (opts.search) q = q.where(sql<boolean>`lower(name) like lower(${likePattern(opts.search)}) escape '\\'`);
    if (opts.min != null) q = q.where('vaddr', '>=', opts.min);
    if (opts.max != null) q = q.where('vaddr', '<=', opts.max);
    return q.orderBy('vaddr').limit(opts.limit).offset(opts.offset).execute();
  }

  get(id: number): Promise<FunctionRow | undefined> {
    return this.db.selectFrom('functions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Many functions (id, analysis, address, size, name), each with its analysis's owner, scope, owner's team
   * (what access rules ask) and status.
   */
  async owners(ids: number[]) {
    const out: FunctionOwner[] = [];
    await inBatches(ids, async (batch) => {
      const rows = await this.db
        .selectFrom('functions as f')
        .innerJoin('analyses as a', 'a.id', 'f.analysis_id')
        .innerJoin('users as u', 'u.id', 'a.user_id')
        .select([
          'f.id',
          'f.analysis_id',
          'f.vaddr',
          'f.size',
          'f.name',
          'a.user_id',
          'a.analysis_scope',
          'a.status',
          'u.team_id as owner_team_id',
        ])
        .where('f.id', 'in', batch)
        .execute();
      out.push(...rows);
    });
    return out;
  }

  /** The function whose extent holds `vaddr`, if any. */
  async containing(analysisId: number, vaddr: number): Promise<{ id: number; vaddr: number; name: string } | null> {
    const f = await this.db
      .selectFrom('functions')
      .select(['id', 'vaddr', 'size', 'name'])
      .where('analysis_id', '=', analysisId)
      .where('vaddr', '<=', vaddr)
      .orderBy('vaddr', 'desc')
      .limit(1)
      .executeTakeFirst();
    return f && vaddr < f.vaddr + Math.max(f.size, 1) ? { id: f.id, vaddr: f.vaddr, name: f.name } : null;
  }

  /** Id, vaddr and name of every function of an analysis (the three func_maps). */
  map(analysisId: number): Promise<{ id: number; vaddr: number; name: string }[]> {
    return this.db
      .selectFrom('functions')
      .select(['id', 'vaddr', 'name'])
      .where('analysis_id', '=', analysisId)
      .orderBy('vaddr')
      .execute();
  }

  /**
   * A function's calls in site order; an internal callee is named as it is now (renames included), and
   * `recorded_name` is the name the analysis gave the call (an import's own name where a thunk is called).
   */
  callees(functionId: number) {
    return this.db
      .selectFrom('function_calls as c')
      .leftJoin('functions as f', 'f.id', 'c.callee_id')
      .select((eb) => [
        'c.callee_id',
        'c.callee_vaddr',
        eb.fn.coalesce('f.name', 'c.callee_name').as('callee_name'),
        'c.callee_name as recorded_name',
        'c.is_external',
      ])
      .where('c.caller_id', '=', functionId)
      .orderBy('c.site')
      .execute();
  }

  callers(functionId: number) {
    return this.db
      .selectFrom('function_calls as c')
      .innerJoin('functions as f', 'f.id', 'c.caller_id')
      .select(['f.id as caller_id', 'f.vaddr as caller_vaddr', 'f.name as caller_name'])
      .where('c.callee_id', '=', functionId)
      .orderBy('c.site')
      .execute();
  }

  xrefsTo(analysisId: number, vaddr: number) {
    return this.db
      .selectFrom('xrefs')
      .select(['from_vaddr', 'to_vaddr', 'kind', 'function_id'])
      .where('analysis_id', '=', analysisId)
      .where('to_vaddr', '=', vaddr)
      .orderBy('from_vaddr')
      .limit(10_000)
      .execute();
  }

  xrefsFrom(analysisId: number, vaddr: number) {
    return this.db
      .selectFrom('xrefs')
      .select(['from_vaddr', 'to_vaddr', 'kind', 'function_id'])
      .where('analysis_id', '=', analysisId)
      .where('from_vaddr', '=', vaddr)
      .orderBy('to_vaddr')
      .execute();
  }
}
