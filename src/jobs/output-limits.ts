import type { AnalysisResult } from '../contracts/index.js';
import type { AnalysisLimits } from '../shared/analysis-limits.js';
import { limitExceeded } from './failures.js';

/** The limits on what one result may hold: what the store writes a row for and the API pages through. */
export type OutputLimits = Pick<AnalysisLimits, 'maxFunctions' | 'maxStrings' | 'maxXrefs'>;

/** Why `result` holds more than the limits allow (the first count over its limit), or null when it fits. */
export function outputOverLimit(result: AnalysisResult, limits: OutputLimits): string | null {
  const counts = [
    ['maxFunctions', result.functions.length, 'functions'],
    ['maxStrings', result.strings.length, 'strings'],
    ['maxXrefs', result.calls.length + result.refs.length, 'cross-references'],
  ] as const;
  const over = counts.find(([limit, n]) => n > limits[limit]);
  if (!over) return null;
  const [limit, n, what] = over;
  return limitExceeded('output', `the analysis found ${n} ${what}, more than ${limits[limit]}`, limit);
}
