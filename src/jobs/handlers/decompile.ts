import type { BlobStore } from '../../blobs/index.js';
import type { LlmSettings } from '../../shared/llm-settings.js';
import type { Store } from '../../store/index.js';
import type { AnalysisPool } from '../analysis-pool.js';
import type { DecompileTaskOutput } from '../decompile-task.js';
import { FunctionJobHandler } from './function-job.js';

/**
 * Decompiles the functions a job was asked for in an analysis thread (decompile-task.ts), which stores each
 * one's result and opens its own provider of `llm` for those asked for with the model; the analysis's log
 * follows it.
 */
export const decompileJobHandler = (
  store: Store,
  blobs: BlobStore,
  pool: AnalysisPool,
  maxAnalysisBytes: number,
  databaseUrl: string,
  llm: LlmSettings | null,
) =>
  new FunctionJobHandler<Extract<DecompileTaskOutput, { kind: 'done' }>>(store, blobs, maxAnalysisBytes, databaseUrl, {
    label: 'Decompilation',
    rows: store.functionDecompilations,
    run: (input) => pool.decompile({ ...input, llm }),
    done: (out, ms) =>
      `${out.decompiled} of ${out.asked} functions decompiled in ${ms} ms` +
      (out.withModel ? `; ${out.withModel} with ${out.model}, ${out.refined} refined` : ''),
  });
