import type { MatchingRunRequest, MatchingRunResult } from '../../contracts/index.js';
import { isPlaceholderName, matchConfidence, nameConfidences } from '../../engine/similarity/index.js';
import type { Neighbour } from '../../store/similarity-index.js';
import { nearestInChunks } from './nearest-in-chunks.js';
import { resolveCollections, storeViewer, type RunContext } from './run-context.js';

/** Candidates fetched beyond results_per_function when debug_types filters after the index answers. */
const DEBUG_TYPES_SLACK = 20;

const percent = (x: number) => Math.round(x * 10_000) / 100;

/** Whether a candidate's name is of a kind debug_types asks for (a SYSTEM name only when not a placeholder). */
const ofDebugType = (types: string[], n: Neighbour) =>
  types.includes(n.nameSourceType) && (n.nameSourceType !== 'SYSTEM' || n.debug);

/** The nearest visible functions of each query function, with similarity, confidence and name confidences. */
export async function runMatching(ctx: RunContext, req: MatchingRunRequest): Promise<MatchingRunResult> {
  const started = Date.now();
  const { store } = ctx;
  const queryIds =
    req.analysisId !== null
      ? (await store.similarityInputs.functions(req.analysisId)).map((f) => f.id)
      : [...new Set(req.functionIds ?? [])];
  const own =
    req.analysisId !== null
      ? [req.analysisId]
      : [...new Set((await store.similarityInputs.describe(queryIds)).map((f) => f.analysis_id))];
  const { debugTypes, ...filters } = req.filters;
  const filter = await resolveCollections(ctx, { ...filters, excludeAnalysisIds: own });
  const k = req.resultsPerFunction + (debugTypes?.length ? DEBUG_TYPES_SLACK : 0);
  const nearest = filter
    ? await nearestInChunks(ctx.index, {
        functionIds: queryIds,
        k,
        minSimilarity: req.minSimilarity,
        viewer: ctx.viewer,
        filter,
        onProgress: (done) => ctx.progress(done * 0.9),
      })
    : new Map(queryIds.map((id) => [id, [] as Neighbour[]]));

  const poolSize = await store.similarityInputs.countNamed(storeViewer(ctx.viewer), own.length === 1 ? own[0]! : null);
  const kept = new Map(
    [...nearest].map(([id, ns]) => [
      id,
      (debugTypes?.length ? ns.filter((n) => ofDebugType(debugTypes, n)) : ns).slice(0, req.resultsPerFunction),
    ]),
  );
  const details = new Map(
    (await store.similarityInputs.describe([...kept.values()].flat().map((n) => n.functionId))).map((d) => [d.id, d]),
  );
  let numDebugMatches = 0;
  const matches = queryIds.map((id) => {
    const ns = kept.get(id)!.filter((n) => details.has(n.functionId));
    const named = ns.filter((n) => n.debug || !isPlaceholderName(n.name));
    return {
      function_id: id,
      matched_functions: ns.map((n) => {
        const d = details.get(n.functionId)!;
        if (n.debug) numDebugMatches++;
        return {
          function_id: n.functionId,
          binary_id: n.binaryId,
          function_name: d.name,
          function_vaddr: d.vaddr,
          mangled_name: d.mangled_name,
          debug: n.debug,
          binary_name: d.binary_name,
          sha_256_hash: d.sha256,
          analysis_id: n.analysisId,
          similarity: percent(n.similarity),
          confidence: percent(matchConfidence(n.similarity, poolSize)),
        };
      }),
      confidences: nameConfidences(named, poolSize).map((c) => ({ name: c.name, confidence: percent(c.confidence) })),
    };
  });
  return { matches, numDebugMatches, totalTimeMs: Date.now() - started };
}
