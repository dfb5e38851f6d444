import { ANALYSIS_LIMIT_SETTINGS, type AnalysisLimits } from '../shared/analysis-limits.js';

/** A failure that retrying cannot fix (a malformed or missing sample): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/**
 * Whether an error from the engine is one retrying cannot fix: malformed input (FormatError) or an
 * instruction set without a decoder (DecoderError) carry `permanent`. Any other error is a bug or an outage.
 */
export const isPermanentFailure = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true;

/**
 * Why an analysis was stopped at one of its limits, naming the setting that raises it. Permanent: the
 * same sample under the same limits goes past them again.
 */
export const limitExceeded = (kind: 'time' | 'memory' | 'output', detail: string, limit: keyof AnalysisLimits) =>
  `${kind} limit exceeded: ${detail} (${ANALYSIS_LIMIT_SETTINGS[limit]} raises the limit)`;

/** Backoff before attempt n+1: 1 s, 2 s, 4 s … capped at 60 s. */
export const retryDelayMs = (attempt: number, baseMs = 1000) =>
  Math.min(baseMs * 2 ** Math.max(attempt - 1, 0), 60_000);
