import { Piscina } from 'piscina';
import type { AnalysisLimits } from '../shared/analysis-limits.js';
import type { AnalysisTaskInput, AnalysisTaskOutput } from './analysis-task.js';
import type { DataTypesTaskInput, DataTypesTaskOutput } from './data-types-task.js';
import type { DecompileTaskInput, DecompileTaskOutput } from './decompile-task.js';
import { limitExceeded, PermanentJobError } from './failures.js';
import { taskUrl } from './task-url.js';

/**
 * An analysis thread retires after this long without work, and with it the memory its analyses grew: an
 * idle thread runs no GC to shrink its heap, and WebAssembly memory (the decoders') never shrinks. After
 * kubectl (49 MB) the process stayed at 2213 MiB with the thread kept alive; retired, 290 MiB from 6 s on
 * (docs/decisions.md, `npm run bench:memory`). A new thread costs 0.2–0.4 s, paid only after a pause, since
 * the runner starts its next analysis as soon as the last one ends.
 */
const IDLE_TIMEOUT_MS = 5000;

/** V8's young generation for a heap of `mb` MiB: its default 48 MiB, a sixteenth of smaller heaps. */
const youngGenerationMb = (mb: number) => Math.min(48, Math.floor(mb / 16));

/** An analysis as the handler asks for it; the pool adds its output limits. */
export type AnalysisRequest = Omit<AnalysisTaskInput, 'limits'>;

/**
 * Worker threads for analyses, data-type generation and decompilation, so they never run on the API's event loop, each bounded
 * by the limits: a thread past its time is terminated, one past its heap dies (and the next task gets a fresh
 * one), a result past the output limits is refused in the thread before it is stored.
 */
export class AnalysisPool {
  private readonly pool: Piscina;

  constructor(
    threads: number,
    private readonly limits: AnalysisLimits,
  ) {
    const young = youngGenerationMb(limits.maxMemoryMb);
    this.pool = new Piscina({
      filename: taskUrl('analysis-task'),
      minThreads: 0,
      maxThreads: Math.max(threads, 1),
      idleTimeout: IDLE_TIMEOUT_MS,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb - young, maxYoungGenerationSizeMb: young },
    });
  }

  /**
   * Runs one analysis. Time counts from the hand-over, queueing included: the runner claims no more jobs
   * than there are threads, so an analysis waits only for a thread to start. A limit hit rejects with a
   * PermanentJobError naming the setting that raises it.
   */
  run(request: AnalysisRequest): Promise<AnalysisTaskOutput> {
    const { maxFunctions, maxStrings, maxXrefs } = this.limits;
    const input: AnalysisTaskInput = { ...request, limits: { maxFunctions, maxStrings, maxXrefs } };
    return this.limited<AnalysisTaskOutput>(input, 'analysis-task', 'the analysis');
  }

  /** Generates an analysis's data types (data-types-task.ts) in an analysis thread, within the same limits. */
  generateTypes(input: DataTypesTaskInput): Promise<DataTypesTaskOutput> {
    return this.limited<DataTypesTaskOutput>(input, 'data-types-task', 'data-type generation');
  }

  /**
   * Decompiles functions of an analysis (decompile-task.ts) in an analysis thread, within the same limits.
   * Its language-model calls share half the time limit, so a slow model leaves the other half for the
   * decompiler and the thread ends with the deterministic results stored rather than terminated.
   */
  decompile(request: Omit<DecompileTaskInput, 'modelBudgetMs'>): Promise<DecompileTaskOutput> {
    const input: DecompileTaskInput = { ...request, modelBudgetMs: Math.floor(this.limits.timeoutMs / 2) };
    return this.limited<DecompileTaskOutput>(input, 'decompile-task', 'decompilation');
  }

  private async limited<T>(input: unknown, task: string, what: string): Promise<T> {
    const { timeoutMs, maxMemoryMb } = this.limits;
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    try {
      return (await this.pool.run(input, { signal: timer.signal, filename: taskUrl(task) })) as T;
    } catch (err) {
      // Piscina terminates the thread of an aborted task; one that hit its heap limit is already gone.
      if (timer.signal.aborted)
        throw new PermanentJobError(
          limitExceeded('time', `${what} was still running after ${timeoutMs} ms`, 'timeoutMs'),
        );
      if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw new PermanentJobError(
          limitExceeded('memory', `${what} needed more than ${maxMemoryMb} MiB of heap`, 'maxMemoryMb'),
        );
      throw err;
    } finally {
      clearTimeout(timeout);
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
