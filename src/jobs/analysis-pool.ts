import { Piscina } from 'piscina';
import type { BlockTextRequest, FileHashes } from '../contracts/index.js';
import type { ReportInput } from '../engine/report/index.js';
import type { AnalysisTaskInput, AnalysisTaskOutput } from './analysis-task.js';

// Compiled (.js) in production and tests; the extension follows whatever this module was loaded as.
const task = (name: string) =>
  new URL(`./${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/** Worker threads for engine work: analyses and block text never run on the API's event loop. */
export class AnalysisPool {
  private readonly pool: Piscina;

  /** `idleThreads`: threads kept alive with nothing to do (0 for a pool that serves occasional requests). */
  constructor(threads: number, idleThreads = 1) {
    this.pool = new Piscina({
      filename: task('analysis-task'),
      minThreads: Math.min(idleThreads, Math.max(threads, 1)),
      maxThreads: Math.max(threads, 1),
      idleTimeout: 60_000,
    });
  }

  run(input: AnalysisTaskInput): Promise<AnalysisTaskOutput> {
    return this.pool.run(input) as Promise<AnalysisTaskOutput>;
  }

  renderBlocks(request: BlockTextRequest): Promise<string[][]> {
    return this.pool.run(request, { filename: task('render-task') }) as Promise<string[][]>;
  }

  describeFile(path: string): Promise<{ hashes: FileHashes; entropy: number }> {
    return this.pool.run(path, { filename: task('describe-task') }) as Promise<{ hashes: FileHashes; entropy: number }>;
  }

  renderPdf(input: ReportInput): Promise<Uint8Array> {
    return this.pool.run(input, { filename: task('report-task') }) as Promise<Uint8Array>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
