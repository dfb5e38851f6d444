import type { BlobStore } from '../../blobs/index.js';
import type { Store } from '../../store/index.js';
import type { AnalysisPool } from '../analysis-pool.js';
import type { DataTypesTaskOutput } from '../data-types-task.js';
import { FunctionJobHandler } from './function-job.js';

/**
 * Generates an analysis's data types in an analysis thread (data-types-task.ts), which stores every function's
 * record; the analysis's log follows it.
 */
export const dataTypesJobHandler = (
  store: Store,
  blobs: BlobStore,
  pool: AnalysisPool,
  maxAnalysisBytes: number,
  databaseUrl: string,
) =>
  new FunctionJobHandler<Extract<DataTypesTaskOutput, { kind: 'done' }>>(store, blobs, maxAnalysisBytes, databaseUrl, {
    label: 'Data types',
    rows: store.functionDataTypes,
    run: (input) => pool.generateTypes(input),
    done: (out, ms) => `recovered for ${out.recovered} of ${out.functions} functions in ${ms} ms`,
  });
