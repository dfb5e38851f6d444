import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { RunKind, StoredSuggestion, UnstripRunRequest, UnstripRunResult } from '../../contracts/index.js';
import { isPlaceholderName, suggestNames, type NamingCandidate } from '../../engine/similarity/index.js';
import { nearestInChunks, RunCancelled } from './nearest-in-chunks.js';
import { storeViewer, type RunContext } from './run-context.js';

/** Nearest named functions considered per query function. */
const CANDIDATES = 8;
/**
 * Suggestions kept in the run's result: all but the hopeless. The request's confidence threshold is
 * applied when the result is read or applied; the best-first assignment gives the same names above any
 * threshold whether it is applied before or after, and the stored tail draws the precision/recall curve.
 */
const KEPT_CONFIDENCE = 0.05;
/** Share of a run's progress spent asking the index; the rest is scoring. */
const SEARCH_SHARE = 0.7;

/** A function unstripping may rename: a placeholder name the analysis gave, not symbols', not a person's. */
export const isRenamable = (f: { name: string; debug: number; name_source_type: string }) =>
  f.debug === 0 && f.name_source_type === 'SYSTEM' && isPlaceholderName(f.name);

/**
 * Suggested names for an analysis's stripped functions. auto: each function's nearest named functions
 * alone; ai: every function (named ones as anchors), the call graphs and the address order of the query
 * and the reference binaries (engine/similarity/function-naming.ts).
 */
export async function runNaming(
  ctx: RunContext,
  kind: Exclude<RunKind, 'matches'>,
  analysisId: number,
  req: UnstripRunRequest,
): Promise<UnstripRunResult> {
  const started = Date.now();
  const { store } = ctx;
  const callGraph = kind === 'ai_unstrip';
  const functions = await store.similarityInputs.functions(analysisId);
  const queries = functions
    .map((f) => ({ functionId: f.id, name: f.name, renamable: isRenamable(f) }))
    .filter((q) => callGraph || q.renamable);
  const nearest = await nearestInChunks(ctx.index, {
    functionIds: queries.map((q) => q.functionId),
    k: CANDIDATES,
    minSimilarity: req.minSimilarity,
    viewer: ctx.viewer,
    filter: { debug: true, excludeAnalysisIds: [analysisId] },
    onProgress: (done) => ctx.progress(done * SEARCH_SHARE),
  });
  const candidates = new Map<number, NamingCandidate[]>();
  const references = new Set<number>();
  for (const [id, ns] of nearest) {
    candidates.set(
      id,
      ns.map((n) => ({
        functionId: n.functionId,
        analysisId: n.analysisId,
        binaryId: n.binaryId,
        name: n.name,
        similarity: n.similarity,
      })),
    );
    for (const n of ns) references.add(n.analysisId);
  }
  const binaries = [analysisId, ...references];
  const calls = callGraph ? await store.similarityInputs.calls(binaries) : [];
  const layout = callGraph ? await store.similarityInputs.layout(binaries) : [];
  const poolSize = await store.similarityInputs.countNamed(storeViewer(ctx.viewer), analysisId);

  const steps = suggestNames(
    { queries, candidates, calls, layout, poolSize },
    {
      callGraph,
      minSimilarity: req.minSimilarity,
      confidenceThreshold: KEPT_CONFIDENCE,
      minGroupSize: req.minGroupSize,
    },
  );
  let step = steps.next();
  while (!step.done) {
    if (!(await ctx.progress(SEARCH_SHARE + (1 - SEARCH_SHARE) * step.value))) throw new RunCancelled();
    await yieldToLoop();
    step = steps.next();
  }

  const vaddrs = new Map(functions.map((f) => [f.id, f.vaddr]));
  const mangled = new Map(
    (await store.similarityInputs.describe(step.value.map((s) => s.matchedFunctionId))).map((d) => [
      d.id,
      d.mangled_name,
    ]),
  );
  const suggestions: StoredSuggestion[] = step.value.map((s) => ({
    functionId: s.functionId,
    vaddr: vaddrs.get(s.functionId)!,
    name: s.name,
    mangledName: mangled.get(s.matchedFunctionId) ?? s.name,
    confidence: s.confidence,
    evidence: {
      matched_function_id: s.matchedFunctionId,
      matched_binary_id: s.matchedBinaryId,
      matched_analysis_id: s.matchedAnalysisId,
      matched_name: s.matchedName,
      similarity: s.similarity,
      confidence: s.confidence,
      agreeing_binaries: s.agreeingBinaries,
      neighbours: s.neighbours,
      agreeing_neighbours: s.agreeingNeighbours,
      contradicting_neighbours: s.contradictingNeighbours,
      pool_size: poolSize,
      method: kind,
      alternatives: s.alternatives,
    },
  }));
  return { suggestions, totalTimeMs: Date.now() - started };
}
