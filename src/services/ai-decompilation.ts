// AI decompilation (/v2 FunctionsAIDecompilation): a durable decompile job per analysis fed by per-function
// requests (and the whole-analysis request), results cached per function until a rename, data-type edit or
// re-analysis makes them stale; each user's rating. Everything needs only sight of the function's analysis, as
// reading its other derived data does (docs/decisions.md, "AI decompilation").
import type { Static } from '@sinclair/typebox';
import {
  DECOMPILE_JOB_KIND,
  type AcceptTypeSuggestionsOutput,
  type AiDecompilationRatingBody,
  type DecompileJobPayload,
  type FunctionTaskResponse,
  type GetAiDecompilationTask,
  type StoredDecompilation,
  type TypeSuggestion,
} from '../contracts/index.js';
import { normaliseSpelling } from '../shared/data-type-spelling.js';
import { errors } from '../shared/errors.js';
import {
  FunctionDecompilationsRepository,
  type AnalysisWithOwner,
  type FunctionDecompilationRow,
  type Store,
} from '../store/index.js';
import { ownedAnalysis, visibleAnalysis, visibleFunction, type Caller } from './access.js';
import { v3DataType } from './analysis-data-types.js';
import type { FunctionSignaturesService } from './function-signatures.js';
import { debugSample } from './samples.js';
import type { UnstripService } from './unstrip.js';

/** Attempts a decompile job gets, as data types: a transient database failure is retried, a bug not for long. */
const MAX_ATTEMPTS = 3;

type Task = Static<typeof GetAiDecompilationTask>;
type Status = Task['status'];

/** The reference's task status of a function's row: no row, or a result made before the last change, is none. */
function statusOf(row: FunctionDecompilationRow | undefined, changedAt: number): Status {
  if (!row) return 'uninitialised';
  if (row.status === 'pending' || row.status === 'running') return 'pending';
  if (row.status === 'error') return 'error';
  return FunctionDecompilationsRepository.fresh(row, changedAt) ? 'success' : 'uninitialised';
}

const TASK_STATUS: Record<Status, Static<typeof FunctionTaskResponse>['status']> = {
  uninitialised: 'UNINITIALISED',
  pending: 'PENDING',
  success: 'COMPLETED',
  error: 'FAILED',
};

/** Decompilation reads the functions of a finished analysis: they are whole then. */
function requireComplete(a: Pick<AnalysisWithOwner, 'id' | 'status'>): void {
  if (a.status !== 'Complete') throw errors.resultNotReady(a.id, a.status);
}

export class AiDecompilationService {
  constructor(
    private readonly store: Store,
    private readonly unstrip: UnstripService,
    private readonly signatures: FunctionSignaturesService,
    /** A language model is configured: per-function requests ask for its summary, names and rewrite too. */
    private readonly options: { withModel: boolean } = { withModel: false },
  ) {}

  /**
   * POST: queues the function unless it has a current result or one under way (or, with a model configured,
   * a current one made without it); its status after.
   */
  async request(caller: Caller, functionId: number) {
    const { f, analysis } = await visibleFunction(this.store, caller, functionId);
    requireComplete(analysis);
    await this.queue(analysis, [f.vaddr], this.options.withModel);
    const { status } = await this.current(f.analysis_id, f.vaddr);
    return { function_id: functionId, status };
  }

  /**
   * Every function of the analysis decompiled in the background (a Binlens extension), without the model:
   * one call per function of a whole binary would take hours (docs/decisions.md, "AI refinement").
   */
  async requestAll(caller: Caller, analysisId: number) {
    const analysis = await visibleAnalysis(this.store, caller, analysisId);
    requireComplete(analysis);
    const vaddrs = (await this.store.functions.map(analysisId)).map((f) => f.vaddr);
    return { queued: await this.queue(analysis, vaddrs, false), total: vaddrs.length };
  }

  /** GET: the task's status and, once it succeeded, the C in both forms, its mapping and summary. */
  async result(caller: Caller, functionId: number): Promise<Task> {
    const { f } = await visibleFunction(this.store, caller, functionId);
    const { status, row } = await this.current(f.analysis_id, f.vaddr);
    const none = { decompilation: null, raw_decompilation: null, function_mapping: null, function_mapping_full: null };
    if (status !== 'success')
      return { status, ...none, error_message: status === 'error' ? (row?.error ?? 'no reason given') : null };
    const r = JSON.parse(row!.result!) as StoredDecompilation;
    const predicted = await this.unstrip.predictedName(caller, f.analysis_id, f.vaddr);
    const model = r.model ?? null;
    // Similarity evidence first; the model's guess has no confidence to give (null marks it as a guess).
    const guess = predicted ?? (model?.functionName ? { name: model.functionName, confidence: null } : null);
    return {
      status,
      decompilation: r.text,
      raw_decompilation: r.placeholders,
      function_mapping: r.mapping.inverse_function_map,
      function_mapping_full: r.mapping,
      summary: r.summary,
      ai_summary: model?.summary ?? null,
      raw_ai_summary: model?.rawSummary ?? null,
      predicted_function_name: guess?.name ?? null,
      predicted_function_name_confidence: guess?.confidence ?? null,
      error_message: null,
      ai_refinement: model && { model: model.description, refined: model.refined, problems: model.problems },
      line_addresses: r.lines ?? null,
    };
  }

  async status(caller: Caller, functionId: number): Promise<Static<typeof FunctionTaskResponse>> {
    const { f } = await visibleFunction(this.store, caller, functionId);
    const { status, row } = await this.current(f.analysis_id, f.vaddr);
    return { status: TASK_STATUS[status], error_message: status === 'error' ? (row?.error ?? null) : null };
  }

  /** The caller's rating of the function's decompilation, or null. */
  async rating(caller: Caller, functionId: number): Promise<Static<typeof AiDecompilationRatingBody> | null> {
    const { f } = await visibleFunction(this.store, caller, functionId);
    const r = await this.store.decompilationRatings.get(f.analysis_id, f.vaddr, caller.id);
    return r ? { rating: r.rating as Static<typeof AiDecompilationRatingBody>['rating'], reason: r.reason } : null;
  }

  /** Sets the caller's rating, replacing their earlier one. */
  async rate(caller: Caller, functionId: number, body: Static<typeof AiDecompilationRatingBody>) {
    const { f } = await visibleFunction(this.store, caller, functionId);
    await this.store.decompilationRatings.upsert(f.analysis_id, f.vaddr, caller.id, body);
    return body;
  }

  /**
   * /v3: makes the types the current decompilation declared (`return`, `arg_0`, `arg_1`, … as `keys` picks them)
   * the function's data types — a new version by the caller, who must own the analysis — and answers the
   * type-table entry of each and every entry the function now uses.
   */
  async acceptTypeSuggestions(
    caller: Caller,
    functionId: number,
    keys: string[],
  ): Promise<Static<typeof AcceptTypeSuggestionsOutput>> {
    const { f } = await visibleFunction(this.store, caller, functionId);
    await ownedAnalysis(this.store, caller, f.analysis_id);
    const { status, row } = await this.current(f.analysis_id, f.vaddr);
    if (status !== 'success') throw errors.noDecompilation(functionId);
    const { prototype } = JSON.parse(row!.result!) as StoredDecompilation;
    const suggestion = (key: string): TypeSuggestion | undefined =>
      key === 'return' ? prototype.returns : prototype.params[Number(key.slice('arg_'.length))];
    const unknown = keys.map((k, i) => ({ k, i })).filter(({ k }) => !suggestion(k));
    if (unknown.length)
      throw errors.validation().withFields(
        unknown.map(({ k, i }) => ({
          field: `body.keys.${i}`,
          reason: `${k} is not a suggestion of this decompilation (${['return', ...prototype.params.map((_, n) => `arg_${n}`)].join(', ')})`,
        })),
      );
    const unique = [...new Set(keys)];
    const spellings = unique.map((k) => normaliseSpelling(suggestion(k)!.type));
    const known = new Set((await this.store.analysisDataTypes.byNames(f.analysis_id, spellings)).map((t) => t.name));
    await this.signatures.applyTypes(caller, functionId, {
      ...(unique.includes('return') ? { returns: prototype.returns } : {}),
      params: new Map(unique.filter((k) => k !== 'return').map((k) => [Number(k.slice(4)), suggestion(k)!])),
      fallback: prototype.params,
    });
    const ids = new Map(
      (await this.store.analysisDataTypes.byNames(f.analysis_id, spellings)).map((t) => [t.name, t.id]),
    );
    const used = await this.store.analysisDataTypes.usedBy(f.analysis_id, [f.vaddr]);
    return {
      accepted: unique.map((key, i) => ({
        created: !known.has(spellings[i]!),
        data_type_id: ids.get(spellings[i]!)!,
        key,
        skipped_members: 0,
      })),
      data_types: [...new Map(used.map((t) => [t.id, t])).values()].map(v3DataType),
    };
  }

  private async current(analysisId: number, vaddr: number) {
    const [row] = await this.store.functionDecompilations.rows(analysisId, [vaddr]);
    const changedAt = await this.store.functionDecompilations.changedAt(analysisId);
    return { status: statusOf(row, changedAt), row };
  }

  private async queue(
    analysis: Pick<AnalysisWithOwner, 'id' | 'user_id' | 'debug_hash'>,
    vaddrs: number[],
    withModel: boolean,
  ) {
    const payload: DecompileJobPayload = {
      analysisId: analysis.id,
      // Resolved as the analysis job resolved it: the submitter's upload.
      debugSha256: await debugSample(this.store, analysis.user_id, analysis.debug_hash),
    };
    return this.store.functionDecompilations.request(
      analysis.id,
      vaddrs,
      {
        kind: DECOMPILE_JOB_KIND,
        payload,
        maxAttempts: MAX_ATTEMPTS,
      },
      withModel,
    );
  }
}
