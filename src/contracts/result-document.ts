// The analysis result as the store keeps it (analysis_results.document): the result without the parts
// stored as rows (functions, calls, strings, references, vectors) or apart (capability features), with
// a version. Written and read here only, so services never cast the stored JSON themselves.
import type { AnalysisResult } from './result.js';

export const RESULT_DOCUMENT_VERSION = 1;

export type ResultDocument = Omit<
  AnalysisResult,
  'functions' | 'calls' | 'strings' | 'refs' | 'vectors' | 'capabilityFeatures'
> & { version: typeof RESULT_DOCUMENT_VERSION };

export function toResultDocument(result: AnalysisResult): ResultDocument {
  const { functions, calls, strings, refs, vectors, capabilityFeatures, ...document } = result;
  return { version: RESULT_DOCUMENT_VERSION, ...document };
}

/**
 * A stored document as the current type, or undefined when there is none. Documents written before the
 * version existed have version 1's shape. A newer version is refused with what to do: a Binlens rolled
 * back after an upgrade cannot read what the newer one wrote until the analysis runs again.
 */
export function readResultDocument(stored: unknown): ResultDocument | undefined {
  if (stored === undefined || stored === null) return undefined;
  const document = stored as Partial<ResultDocument>;
  const version = document.version ?? RESULT_DOCUMENT_VERSION;
  if (version !== RESULT_DOCUMENT_VERSION)
    throw new Error(
      `the stored analysis result is version ${version}; this Binlens reads version ${RESULT_DOCUMENT_VERSION}: requeue the analysis to rebuild it`,
    );
  return { ...document, version } as ResultDocument;
}
