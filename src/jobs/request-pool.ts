import { Piscina } from 'piscina';
import type { BlockTextRequest, SectionEntropyRequest } from '../contracts/index.js';
import type { ReportInput } from '../engine/report/index.js';
import type describeFile from './describe-task.js';
import { taskUrl } from './task-url.js';

/**
 * One worker thread for engine work the API does on request — block text, digests of a stored sample, the
 * PDF report and its sections' entropy — so it never runs on the event loop nor waits behind analyses. It
 * retires after a minute idle.
 */
export class RequestPool {
  private readonly pool = new Piscina({ maxThreads: 1, minThreads: 0, idleTimeout: 60_000 });

  renderBlocks(request: BlockTextRequest): Promise<string[][]> {
    return this.pool.run(request, { filename: taskUrl('render-task') }) as Promise<string[][]>;
  }

  describeFile(path: string): ReturnType<typeof describeFile> {
    return this.pool.run(path, { filename: taskUrl('describe-task') }) as ReturnType<typeof describeFile>;
  }

  sectionEntropy(request: SectionEntropyRequest): Promise<number[]> {
    return this.pool.run(request, { filename: taskUrl('section-entropy-task') }) as Promise<number[]>;
  }

  renderPdf(input: ReportInput): Promise<Uint8Array> {
    return this.pool.run(input, { filename: taskUrl('report-task') }) as Promise<Uint8Array>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
