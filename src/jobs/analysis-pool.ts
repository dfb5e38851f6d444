import { Piscina } from 'piscina';
import type { AnalysisTaskInput, AnalysisTaskOutput } from './analysis-task.js';

/** Worker threads for analysis: CPU-bound engine work never runs on the API's event loop. */
export class AnalysisPool {
  private readonly pool: Piscina;

  constructor(threads: number) {
    // Compiled (.js) in production and tests; the extension follows whatever this module was loaded as.
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    this.pool = new Piscina({
      filename: new URL(`./analysis-task${ext}`, import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(threads, 1),
      idleTimeout: 60_000,
    });
  }

  run(input: AnalysisTaskInput): Promise<AnalysisTaskOutput> {
    return this.pool.run(input) as Promise<AnalysisTaskOutput>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
