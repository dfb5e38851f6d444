// Function data types (/v2): generation on request (a durable data-types job per analysis, a status per
// function), one function's or many functions' types as generated or edited, the owner's versioned edits and
// their history. Reading needs only sight of the analysis, and so does asking for generation (it derives data,
// like matching, and never replaces an edit); changing types is the owner's (docs/decisions.md, "Data types").
import type { Static } from '@sinclair/typebox';
import {
  DATA_TYPES_JOB_KIND,
  type DataTypesJobPayload,
  type FunctionDataTypesListItem,
  type FunctionDataTypesVersion,
  type GenerateFunctionDataTypes,
  type GenerationStatusList,
  type UpdateFunctionDataTypes,
} from '../contracts/index.js';
import { typesOfRecord, type DataTypeEntry } from '../shared/data-type-spelling.js';
import { errors } from '../shared/errors.js';
import type { FunctionTypesRecord } from '../shared/type-records.js';
import { servedRecord, type AnalysisWithOwner, type FunctionDataTypesRow, type Store } from '../store/index.js';
import { canView, ownedAnalysis, visibleAnalysis, type Caller } from './access.js';
import { fromWire, isoTime, named, tableEntry, toWire, type TypedFunction } from './data-types-wire.js';
import { debugSample } from './samples.js';

/** Attempts a data-types job gets, as similarity runs: a transient database failure is retried, a bug not for long. */
const MAX_ATTEMPTS = 3;
const ACTIVE = ['pending', 'running'];

type Item = Static<typeof FunctionDataTypesListItem>;
type Rows = Map<number, FunctionDataTypesRow>;

/** A function's generation status on the wire: `not_generated` until a request names it. */
const statusOf = (row: FunctionDataTypesRow | undefined) => row?.status ?? 'not_generated';

const statusItem = (f: TypedFunction, row: FunctionDataTypesRow | undefined) => ({
  function_id: f.id,
  completed: row?.status === 'completed',
  status: statusOf(row),
});

/** One function's item without its id: the single-function responses' FunctionDataTypes. */
const single = (i: Item) => ({
  completed: i.completed,
  status: i.status,
  data_types: i.data_types,
  data_types_version: i.data_types_version,
});

const listOf = <T extends { data_types?: unknown; completed: boolean }>(items: T[]) => ({
  total_count: items.length,
  total_data_types_count: items.filter((i) => ('data_types' in i ? i.data_types : i.completed)).length,
  items,
});

function requireSome(ids: number[]): number[] {
  if (ids.length === 0)
    throw errors.validation().withFields([{ field: 'body.function_ids', reason: 'must name at least one function' }]);
  return [...new Set(ids)];
}

/** Data types are generated for a finished analysis: its functions are whole then. */
function requireComplete(a: Pick<AnalysisWithOwner, 'id' | 'status'>): void {
  if (a.status !== 'Complete') throw errors.resultNotReady(a.id, a.status);
}

export class DataTypesService {
  constructor(private readonly store: Store) {}

  /** Functions of one analysis by id, in request order: 404 for an id that is not one of its functions. */
  async functionsIn(analysisId: number, ids: number[]): Promise<TypedFunction[]> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.store.functions.owners(unique)).map((f) => [f.id, f]));
    const missing = unique.find((id) => found.get(id)?.analysis_id !== analysisId);
    if (missing !== undefined) throw errors.functionNotFound(missing);
    return unique.map((id) => found.get(id)!);
  }

  /** Functions of any analyses the caller can see, in request order: 404 for a missing or hidden one. */
  async visibleFunctions(caller: Caller, ids: number[]) {
    const unique = [...new Set(ids)];
    const found = new Map((await this.store.functions.owners(unique)).map((f) => [f.id, f]));
    const hidden = unique.find((id) => !found.has(id) || !canView(caller, found.get(id)!));
    if (hidden !== undefined) throw errors.functionNotFound(hidden);
    return unique.map((id) => found.get(id)!);
  }

  async generate(
    caller: Caller,
    analysisId: number,
    functionIds: number[],
  ): Promise<Static<typeof GenerateFunctionDataTypes>> {
    const analysis = await visibleAnalysis(this.store, caller, analysisId);
    requireComplete(analysis);
    const fns = await this.functionsIn(analysisId, requireSome(functionIds));
    await this.request(analysis, fns);
    const rows = await this.rowsOf(analysisId, fns);
    const asked = fns.map((f) => rows.get(f.vaddr)).filter((r) => r !== undefined);
    const active = asked.filter((r) => ACTIVE.includes(r.status));
    // The job generating them, else the one that generated them last.
    const jobs = (active.length ? active : asked).map((r) => r.job_id).filter((j) => j !== null);
    return {
      queued: active.length > 0,
      reference: jobs.length ? String(Math.max(...jobs)) : '',
      data_types_list: listOf(fns.map((f) => statusItem(f, rows.get(f.vaddr)))),
    };
  }

  /** Generation for functions of any analyses the caller can see, analysis by analysis. */
  async generateMany(caller: Caller, functionIds: number[]): Promise<Static<typeof GenerationStatusList>> {
    const fns = await this.visibleFunctions(caller, requireSome(functionIds));
    const analyses = await this.store.analyses.getMany(fns.map((f) => f.analysis_id));
    for (const a of analyses) requireComplete(a);
    const statuses = new Map<number, ReturnType<typeof statusItem>>();
    for (const a of analyses) {
      const own = fns.filter((f) => f.analysis_id === a.id);
      await this.request(a, own);
      const rows = await this.rowsOf(a.id, own);
      for (const f of own) statuses.set(f.id, statusItem(f, rows.get(f.vaddr)));
    }
    return listOf(fns.map((f) => statuses.get(f.id)!));
  }

  async list(caller: Caller, analysisId: number, functionIds?: number[]) {
    await visibleAnalysis(this.store, caller, analysisId);
    if (functionIds?.length) {
      const fns = await this.functionsIn(analysisId, functionIds);
      return listOf(await this.items(analysisId, fns, await this.rowsOf(analysisId, fns)));
    }
    const listed = await this.store.functionDataTypes.listed(analysisId);
    const fns = listed.map((r) => ({
      id: r.function_id,
      vaddr: r.vaddr,
      size: r.function_size,
      name: r.function_name,
    }));
    return listOf(await this.items(analysisId, fns, new Map(listed.map((r) => [r.vaddr, r]))));
  }

  /** Data types of functions of any analyses the caller can see, in request order. */
  async listMany(caller: Caller, functionIds: number[] = []) {
    const fns = await this.visibleFunctions(caller, functionIds);
    const items = new Map<number, Item>();
    for (const analysisId of new Set(fns.map((f) => f.analysis_id))) {
      const own = fns.filter((f) => f.analysis_id === analysisId);
      for (const item of await this.items(analysisId, own, await this.rowsOf(analysisId, own)))
        items.set(item.function_id, item);
    }
    return listOf(fns.map((f) => items.get(f.id)!));
  }

  /** One function's status and types; the envelope's message says why a failed generation failed. */
  async get(caller: Caller, analysisId: number, functionId: number) {
    await visibleAnalysis(this.store, caller, analysisId);
    const [fn] = await this.functionsIn(analysisId, [functionId]);
    const rows = await this.rowsOf(analysisId, [fn!]);
    const data = single((await this.items(analysisId, [fn!], rows))[0]!);
    const row = rows.get(fn!.vaddr);
    const message =
      row?.status === 'failed' ? `Data types could not be generated: ${row.error ?? 'no reason given'}` : 'Success';
    return { data, message };
  }

  /**
   * The owner's new version of a function's data types, made on `data_types_version` (409 when it is not the
   * current one); the version it replaces is kept in the history.
   */
  async update(caller: Caller, analysisId: number, functionId: number, body: Static<typeof UpdateFunctionDataTypes>) {
    await ownedAnalysis(this.store, caller, analysisId);
    const [fn] = await this.functionsIn(analysisId, [functionId]);
    const row = (await this.rowsOf(analysisId, [fn!])).get(fn!.vaddr);
    const record = fromWire(body.data_types, fn!, row ? servedRecord(row) : null);
    if (!record)
      throw errors
        .validation()
        .withFields([
          { field: 'body.data_types.func_types', reason: 'is required: the function has no data types yet' },
        ]);
    const out = await this.store.functionDataTypes.edit({
      analysisId,
      vaddr: fn!.vaddr,
      record,
      userId: caller.id,
      expected: body.data_types_version,
      from: null,
    });
    if ('conflict' in out) throw errors.dataTypesVersionConflict(functionId, body.data_types_version, out.conflict);
    return single((await this.items(analysisId, [fn!], new Map([[fn!.vaddr, out.row]])))[0]!);
  }

  /** The versions edits replaced, oldest first (a Binlens extension). */
  async history(caller: Caller, analysisId: number, functionId: number) {
    await visibleAnalysis(this.store, caller, analysisId);
    const [fn] = await this.functionsIn(analysisId, [functionId]);
    const versions = await this.store.functionDataTypes.history(analysisId, fn!.vaddr);
    const table = await this.table(
      analysisId,
      versions.map((v) => v.record),
    );
    return versions.map((v): Static<typeof FunctionDataTypesVersion> => ({
      data_types_version: v.version,
      data_types: toWire(named(v.record, fn!.name), table(v.record), v.author === null ? null : v.created_at),
      changed_by: v.author,
      changed_at: isoTime(v.created_at)!,
      replaced_by: v.replaced_by,
      replaced_at: isoTime(v.replaced_at)!,
    }));
  }

  /** Marks the functions requested and queues those without data types (their analysis's job, or a new one). */
  private async request(analysis: Pick<AnalysisWithOwner, 'id' | 'user_id' | 'debug_hash'>, fns: TypedFunction[]) {
    const payload: DataTypesJobPayload = {
      analysisId: analysis.id,
      // Resolved as the analysis job resolved it: the submitter's upload.
      debugSha256: await debugSample(this.store, analysis.user_id, analysis.debug_hash),
    };
    await this.store.functionDataTypes.request(
      analysis.id,
      fns.map((f) => f.vaddr),
      { kind: DATA_TYPES_JOB_KIND, payload, maxAttempts: MAX_ATTEMPTS },
    );
  }

  private async rowsOf(analysisId: number, fns: TypedFunction[]): Promise<Rows> {
    const rows = await this.store.functionDataTypes.rows(
      analysisId,
      fns.map((f) => f.vaddr),
    );
    return new Map(rows.map((r) => [r.vaddr, r]));
  }

  /** Each function's status, served types (with the type-table entries they use) and version. */
  private async items(analysisId: number, fns: TypedFunction[], rows: Rows): Promise<Item[]> {
    const served = new Map<number, FunctionTypesRecord>();
    for (const f of fns) {
      const row = rows.get(f.vaddr);
      const record = row ? servedRecord(row) : null;
      if (record) served.set(f.vaddr, record);
    }
    const uses = new Map<number, DataTypeEntry[]>();
    for (const t of await this.store.analysisDataTypes.usedBy(analysisId, [...served.keys()]))
      uses.set(t.vaddr, [...(uses.get(t.vaddr) ?? []), tableEntry(t)]);
    return fns.map((f) => {
      const row = rows.get(f.vaddr);
      const record = served.get(f.vaddr);
      return {
        function_id: f.id,
        completed: row?.status === 'completed',
        status: statusOf(row),
        data_types: record
          ? toWire(named(record, f.name), uses.get(f.vaddr) ?? [], row!.edited === null ? null : row!.last_change)
          : null,
        data_types_version: record ? row!.version : null,
      };
    });
  }

  /** The type-table entries each of `records` uses, by their spelling (for versions no longer served). */
  private async table(analysisId: number, records: FunctionTypesRecord[]) {
    const names = [...new Set(records.flatMap((r) => typesOfRecord(r).map((e) => e.name)))];
    const rows = new Map(
      (await this.store.analysisDataTypes.byNames(analysisId, names)).map((t) => [t.name, tableEntry(t)]),
    );
    return (r: FunctionTypesRecord) => typesOfRecord(r).flatMap((e) => rows.get(e.name) ?? []);
  }
}
