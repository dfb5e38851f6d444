// Worker-thread entry of data-type generation: reads the analysis's sample, runs the engine's types stage over
// the functions as the analysis found them (analyzeTypes repeats the deterministic recovery) and stores every
// function's record, matched to the stored functions by address. Runs inside piscina, not on the API loop; only
// a summary goes back.
import { analyzeTypes, type ProgressCallback } from '../engine/index.js';
import type { Store } from '../store/index.js';
import { isPermanentFailure } from './failures.js';
import { readSample, type SampleInput } from './sample-input.js';
import { threadStore } from './thread-store.js';

export interface DataTypesTaskInput extends SampleInput {
  /** Where the records go: the service's database (already migrated), the analysis and the job generating. */
  databaseUrl: string;
  analysisId: number;
  jobId: number;
}

/** Errors lose their class crossing the thread boundary, so a refusal that retrying cannot fix is data. */
export type DataTypesTaskOutput =
  { kind: 'done'; functions: number; recovered: number } | { kind: 'refused'; reason: string };

/** Why a function has no record (its CPU has no lifter: every architecture the engine analyses has one). */
export const NO_SIGNATURE = 'no signature was recovered for this function (its instruction set has no lifter)';

/** The engine's progress as log lines of the analysis: `Data types: Recovering functions (6%)`. */
const logProgress =
  (events: Store['events'], analysisId: number): ProgressCallback =>
  async (stage, fraction, label) => {
    if (stage !== 'done') await events.log(analysisId, `Data types: ${label} (${Math.round(fraction * 100)}%)`);
  };

export default async function generateTypes(input: DataTypesTaskInput): Promise<DataTypesTaskOutput> {
  const sample = await readSample(input);
  if (sample.kind === 'refused') return sample;
  try {
    const store = threadStore(input.databaseUrl);
    const records = await analyzeTypes(sample.bytes, sample.options, logProgress(store.events, input.analysisId));
    const byAddress = new Map(records.map((r) => [r.vaddr, r]));
    const functions = await store.functions.map(input.analysisId);
    const outcomes = functions.map((f) => ({ vaddr: f.vaddr, record: byAddress.get(f.vaddr) ?? null }));
    await store.functionDataTypes.storeGenerated(input.analysisId, input.jobId, outcomes, NO_SIGNATURE);
    return { kind: 'done', functions: functions.length, recovered: outcomes.filter((o) => o.record).length };
  } catch (err) {
    if (isPermanentFailure(err)) return { kind: 'refused', reason: (err as Error).message };
    throw err;
  }
}
