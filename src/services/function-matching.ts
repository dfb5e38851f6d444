import type { Static } from '@sinclair/typebox';
import type {
  AnalysisFunctionMatchingRequest,
  FunctionMatchingRequest,
  FunctionMatchingResponseBody,
  MatchingRunRequest,
  MatchingRunResult,
} from '../contracts/index.js';
import { canonicalName } from '../engine/similarity/index.js';
import { errors } from '../shared/errors.js';
import type { SimilarityRunRow, Store } from '../store/index.js';
import { visibleAnalysis, visibleAnalysisIds, type Caller } from './access.js';
import { isActive, requestKey, runStatus, startRun } from './similarity-runs.js';

type Common = Static<typeof AnalysisFunctionMatchingRequest>;

/** Query functions one /v2/functions/matches request may name. */
export const MAX_QUERY_FUNCTIONS = 10_000;
/** Ids one filter list may hold. */
export const MAX_FILTER_IDS = 10_000;

/**
 * Function matching: each query function's nearest functions among those the caller may see, never from
 * the query's own analysis. A request starts a run (a queued job); repeating it reports the run's progress
 * and, once done, pages of its result. no_cache starts over.
 */
export class FunctionMatchingService {
  constructor(private readonly store: Store) {}

  async forAnalysis(caller: Caller, analysisId: number, body: Common): Promise<FunctionMatchingResponseBody> {
    const analysis = await visibleAnalysis(this.store, caller, analysisId);
    // A re-analysis (new function ids) makes the same request a new question.
    return this.respond(caller, body, { analysisId, functionIds: null }, analysis.updated_at);
  }

  async forFunctions(caller: Caller, body: Static<typeof FunctionMatchingRequest>) {
    const ids = [...new Set(body.function_ids)];
    if (ids.length === 0 || ids.length > MAX_QUERY_FUNCTIONS)
      throw errors
        .validation()
        .withFields([{ field: 'body.function_ids', reason: `must list 1 to ${MAX_QUERY_FUNCTIONS} functions` }]);
    const found = new Map((await this.store.similarityInputs.describe(ids)).map((f) => [f.id, f.analysis_id]));
    const visible = await visibleAnalysisIds(this.store, caller, [...found.values()]);
    // A function of an analysis the caller cannot see is reported missing, like one that does not exist.
    const missing = ids.find((id) => !visible.has(found.get(id) ?? -1));
    if (missing !== undefined) throw errors.functionNotFound(missing);
    return this.respond(caller, body, { analysisId: null, functionIds: ids.sort((a, b) => a - b) });
  }

  private async respond(
    caller: Caller,
    body: Common,
    subject: Pick<MatchingRunRequest, 'analysisId' | 'functionIds'>,
    analysedAt: number | null = null,
  ): Promise<FunctionMatchingResponseBody> {
    const f = body.filters ?? {};
    const lists = [f.binary_ids, f.collection_ids, f.function_ids, f.user_ids];
    if (lists.some((l) => (l?.length ?? 0) > MAX_FILTER_IDS))
      throw errors
        .validation()
        .withFields([{ field: 'body.filters', reason: `each list of ids holds at most ${MAX_FILTER_IDS}` }]);
    const sorted = (l: number[] | undefined) => (l?.length ? [...new Set(l)].sort((a, b) => a - b) : undefined);
    const request: MatchingRunRequest = {
      ...subject,
      minSimilarity: (body.min_similarity ?? 90) / 100,
      resultsPerFunction: body.results_per_function ?? 1,
      filters: {
        binaryIds: sorted(f.binary_ids),
        collectionIds: sorted(f.collection_ids),
        functionIds: sorted(f.function_ids),
        userIds: sorted(f.user_ids),
        debugTypes: f.debug_types?.length ? [...new Set(f.debug_types)].sort() : undefined,
      },
    };
    const key = requestKey('matches', caller.id, { ...subject, analysedAt }, request);
    let run = await this.store.similarityRuns.latest(key);
    const reusable = run && (isActive(run) || run.status === 'COMPLETED');
    if (!body.status_only && (!reusable || (body.no_cache && !isActive(run!))))
      run = await startRun(this.store, {
        kind: 'matches',
        userId: caller.id,
        analysisId: subject.analysisId,
        requestKey: key,
        request,
      });
    return page(
      await this.stillVisible(caller, run),
      body.page ?? 1,
      body.page_size ?? 0,
      body.use_canonical_names ?? false,
    );
  }

  /**
   * A finished run's matches less those in analyses the caller can no longer see: a result is cached, while
   * an analysis may have gone back to PRIVATE (or been deleted) since, and its names must not show.
   */
  private async stillVisible(caller: Caller, run: SimilarityRunRow | undefined) {
    if (!run || run.status !== 'COMPLETED' || run.result === null) return { run, result: null };
    const result = JSON.parse(run.result) as MatchingRunResult;
    const sources = result.matches.flatMap((m) => m.matched_functions.map((x) => x.analysis_id));
    const visible = await visibleAnalysisIds(this.store, caller, sources);
    const matches = result.matches.map((m) => {
      const kept = m.matched_functions.filter((x) => visible.has(x.analysis_id));
      // A name's confidence speaks of the functions that carry it (by canonical name, as the run ranked them):
      // none may name only hidden ones.
      const names = new Set(kept.map((x) => canonicalName(x.function_name)));
      return { ...m, matched_functions: kept, confidences: m.confidences?.filter((c) => names.has(c.name)) };
    });
    const numDebugMatches = matches.reduce((n, m) => n + m.matched_functions.filter((x) => x.debug).length, 0);
    return { run, result: { ...result, matches, numDebugMatches } };
  }
}

/** The run's state and, when it is complete, one page of its matches (page_size 0: all of them). */
function page(
  { run, result }: { run: SimilarityRunRow | undefined; result: MatchingRunResult | null },
  pageNo: number,
  size: number,
  canonical: boolean,
): FunctionMatchingResponseBody {
  const base = { ...runStatus(run), updated_at: run ? new Date(run.updated_at).toISOString() : null };
  if (!result)
    return {
      ...base,
      current_page: null,
      total_pages: null,
      matches: null,
      num_matches: null,
      num_debug_matches: null,
    };
  const matched = result.matches.filter((m) => m.matched_functions.length > 0);
  const per = size === 0 ? Math.max(matched.length, 1) : size;
  const slice = matched.slice((pageNo - 1) * per, pageNo * per);
  return {
    ...base,
    current_page: pageNo,
    total_pages: Math.max(1, Math.ceil(matched.length / per)),
    matches: canonical
      ? slice.map((m) => ({
          ...m,
          matched_functions: m.matched_functions.map((x) => ({ ...x, function_name: canonicalName(x.function_name) })),
        }))
      : slice,
    num_matches: matched.length,
    num_debug_matches: result.numDebugMatches,
  };
}
