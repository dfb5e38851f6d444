import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AnalysisResult } from '../contracts/index.js';
import { outputOverLimit } from './output-limits.js';

/** A result holding `n` functions, strings, calls and data references (only the counts matter here). */
const holding = (functions: number, strings: number, calls: number, refs: number) =>
  ({
    functions: new Array(functions),
    strings: new Array(strings),
    calls: new Array(calls),
    refs: new Array(refs),
  }) as unknown as AnalysisResult;

const LIMITS = { maxFunctions: 10, maxStrings: 20, maxXrefs: 30 };

test('outputOverLimit: each count against its limit; cross-references are calls plus data references', () => {
  const cases: [result: AnalysisResult, reason: string | null][] = [
    [holding(10, 20, 15, 15), null],
    [
      holding(11, 20, 0, 0),
      'output limit exceeded: the analysis found 11 functions, more than 10 (BINLENS_ANALYSIS_MAX_FUNCTIONS raises the limit)',
    ],
    [
      holding(0, 21, 0, 0),
      'output limit exceeded: the analysis found 21 strings, more than 20 (BINLENS_ANALYSIS_MAX_STRINGS raises the limit)',
    ],
    [
      holding(0, 0, 16, 15),
      'output limit exceeded: the analysis found 31 cross-references, more than 30 (BINLENS_ANALYSIS_MAX_XREFS raises the limit)',
    ],
    // Over several limits: the first, in the order the store writes them.
    [
      holding(11, 21, 31, 0),
      'output limit exceeded: the analysis found 11 functions, more than 10 (BINLENS_ANALYSIS_MAX_FUNCTIONS raises the limit)',
    ],
  ];
  for (const [result, reason] of cases) assert.equal(outputOverLimit(result, LIMITS), reason);
});
