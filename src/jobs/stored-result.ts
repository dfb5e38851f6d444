// What an analysis leaves in the store, written by the worker thread that ran it: the rows the API pages
// through, the capability features and the result document. Only a summary crosses back to the main thread.
import { toResultDocument, type AnalysisResult, type BinaryIdentity } from '../contracts/index.js';
import type { Store } from '../store/index.js';

/** What the job logs about a stored analysis: small, so handing it to the main thread costs nothing. */
export interface AnalysisSummary {
  identity: BinaryIdentity;
  sha256: string;
  size: number;
  entropy: number;
  functionCount: number;
  instructionCount: number;
  stringCount: number;
  /** The parser's first diagnostics (a damaged container is analysed in part). */
  diagnostics: string[];
  vectorCount: number | null;
  capabilities: { matched: number; rules: number; evaluations: number; naiveEvaluations: number } | null;
  libraries: number | null;
}

const MAX_DIAGNOSTICS = 20;

/**
 * Stores a finished analysis's results (replacing an earlier run's, in short transactions) and sums them up.
 * Run in the worker thread: converting, serialising and inserting a large binary's rows took seconds of the
 * API's event loop when the result was handed to the main thread to store.
 */
export async function storeResult(store: Store, analysisId: number, result: AnalysisResult): Promise<AnalysisSummary> {
  await store.functions.replace(analysisId, result);
  if (result.capabilityFeatures) await store.events.saveFeatures(analysisId, result.capabilityFeatures);
  await store.events.saveResult(analysisId, toResultDocument(result));
  const caps = result.capabilities;
  return {
    identity: result.identity,
    sha256: result.hashes.sha256,
    size: result.size,
    entropy: result.entropy,
    functionCount: result.functionCount,
    instructionCount: result.instructionCount,
    stringCount: result.strings.length,
    diagnostics: result.diagnostics.slice(0, MAX_DIAGNOSTICS),
    vectorCount: result.vectors?.count ?? null,
    capabilities: caps
      ? {
          matched: caps.matches.length,
          rules: caps.rules,
          evaluations: caps.evaluations,
          naiveEvaluations: caps.naiveEvaluations,
        }
      : null,
    libraries: result.sbom?.length ?? null,
  };
}
