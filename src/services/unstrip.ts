import type { Static } from '@sinclair/typebox';
import type {
  AiUnstripRequest,
  AutoUnstripRequest,
  AutoUnstripResponseBody,
  RunKind,
  StoredSuggestion,
  UnstripRunRequest,
  UnstripRunResult,
} from '../contracts/index.js';
import { canonicalName } from '../engine/similarity/index.js';
import { errors } from '../shared/errors.js';
import type { SimilarityRunRow, Store } from '../store/index.js';
import { ownedAnalysis, visibleAnalysisIds, type Caller } from './access.js';
import { isActive, queueApply, requestKey, runStatus, startRun } from './similarity-runs.js';

type UnstripKind = Exclude<RunKind, 'matches'>;

/**
 * ai-unstrip's fixed parameters (its request has only `apply`): candidates from 0.5 cosine similarity,
 * names from 0.9 confidence; groups are the call graph's business, so no group-size floor.
 */
export const AI_UNSTRIP_DEFAULTS = { minSimilarity: 0.5, confidenceThreshold: 0.9, minGroupSize: 1 };

const LABEL: Record<UnstripKind, string> = { auto_unstrip: 'auto-unstrip', ai_unstrip: 'ai-unstrip' };

/**
 * auto-unstrip and ai-unstrip of an analysis the caller owns (apply renames its functions). A POST reports
 * the run in progress, or the finished one with the same parameters, or starts one; `apply` writes a
 * finished run's names once (AUTO_UNSTRIP / AI_UNSTRIP, with their evidence, into the name history).
 */
export class UnstripService {
  constructor(private readonly store: Store) {}

  async auto(caller: Caller, analysisId: number, body: Static<typeof AutoUnstripRequest>) {
    const request: UnstripRunRequest = {
      minSimilarity: (body.min_similarity ?? 90) / 100,
      confidenceThreshold: (body.confidence_threshold ?? 90) / 100,
      minGroupSize: body.min_group_size ?? 10,
      apply: body.apply ?? false,
      useCanonicalNames: body.use_canonical_names ?? false,
    };
    return this.post(caller, analysisId, 'auto_unstrip', request, body);
  }

  async ai(caller: Caller, analysisId: number, body: Static<typeof AiUnstripRequest>) {
    const request = { ...AI_UNSTRIP_DEFAULTS, apply: body.apply ?? false, useCanonicalNames: false };
    return this.post(caller, analysisId, 'ai_unstrip', request, {});
  }

  async cancel(caller: Caller, analysisId: number, kind: UnstripKind): Promise<AutoUnstripResponseBody> {
    await ownedAnalysis(this.store, caller, analysisId);
    const run = await this.store.similarityRuns.latestOfAnalysis(analysisId, kind);
    if (!run || !isActive(run) || !(await this.store.similarityRuns.cancel(run.id)))
      throw errors.noActiveRun(LABEL[kind]);
    return this.respond(caller, (await this.store.similarityRuns.get(run.id))!);
  }

  private async post(
    caller: Caller,
    analysisId: number,
    kind: UnstripKind,
    request: UnstripRunRequest,
    flags: { status_only?: boolean; no_cache?: boolean },
  ): Promise<AutoUnstripResponseBody> {
    const analysis = await ownedAnalysis(this.store, caller, analysisId);
    const runs = this.store.similarityRuns;
    const latest = await runs.latestOfAnalysis(analysisId, kind);
    if (flags.status_only || (latest && isActive(latest))) return this.respond(caller, latest);
    // `apply` is what to do with the result, not part of the question; a re-analysis (new function ids)
    // makes it a new question.
    const subject = { analysisId, analysedAt: analysis.updated_at };
    const key = requestKey(kind, caller.id, subject, { ...request, apply: undefined });
    const same = await runs.latest(key);
    // A finished run whose names came from analyses the caller can no longer see is asked again.
    if (same?.status === 'COMPLETED' && !flags.no_cache) {
      const { suggestions, hidden } = await this.visibleSuggestions(caller, same);
      if (hidden === 0) {
        if (request.apply && !same.applied) await queueApply(this.store, same);
        return present(same, suggestions);
      }
    }
    const started = await startRun(this.store, { kind, userId: caller.id, analysisId, requestKey: key, request });
    return this.respond(caller, started);
  }

  /**
   * The best-supported name the analysis's latest finished unstrip runs suggest for its function at `vaddr`,
   * from matches the caller can see, with its confidence; null when they suggest none.
   */
  async predictedName(caller: Caller, analysisId: number, vaddr: number) {
    let best: { name: string; confidence: number } | null = null;
    for (const kind of ['auto_unstrip', 'ai_unstrip'] as const) {
      const { suggestions } = await this.visibleSuggestions(
        caller,
        await this.store.similarityRuns.latestOfAnalysis(analysisId, kind),
      );
      for (const s of suggestions ?? [])
        if (s.vaddr === vaddr && s.confidence > (best?.confidence ?? -1))
          best = { name: s.name, confidence: s.confidence };
    }
    return best;
  }

  /** A finished run's suggestions less those naming functions of analyses the caller can no longer see. */
  private async visibleSuggestions(caller: Caller, run: SimilarityRunRow | undefined) {
    if (run?.status !== 'COMPLETED' || !run.result) return { suggestions: null, hidden: 0 };
    const { suggestions } = JSON.parse(run.result) as UnstripRunResult;
    const visible = await visibleAnalysisIds(
      this.store,
      caller,
      suggestions.map((s) => s.evidence.matched_analysis_id),
    );
    const kept = suggestions.filter((s) => visible.has(s.evidence.matched_analysis_id));
    return { suggestions: kept, hidden: suggestions.length - kept.length };
  }

  /** The run's state and its suggestions, re-checked against what the caller may see now. */
  private async respond(caller: Caller, run: SimilarityRunRow | undefined): Promise<AutoUnstripResponseBody> {
    return present(run, (await this.visibleSuggestions(caller, run)).suggestions);
  }
}

function present(run: SimilarityRunRow | undefined, suggestions: StoredSuggestion[] | null): AutoUnstripResponseBody {
  const req = run ? (JSON.parse(run.request) as UnstripRunRequest) : null;
  const canonical = req?.useCanonicalNames ?? false;
  return {
    ...runStatus(run),
    applied: run ? run.applied === 1 : null,
    matches:
      suggestions
        ?.filter((s) => s.confidence >= req!.confidenceThreshold)
        .map((s) => ({
          function_id: s.functionId,
          function_vaddr: s.vaddr,
          suggested_name: canonical ? canonicalName(s.name) : s.mangledName,
          suggested_demangled_name: canonical ? canonicalName(s.name) : s.name,
        })) ?? null,
  };
}
