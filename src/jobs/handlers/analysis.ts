import type { BlobStore } from '../../blobs/index.js';
import type { AnalysisJobPayload, AnalysisResult } from '../../contracts/index.js';
import type { JobRow, Store } from '../../store/index.js';
import type { AnalysisPool } from '../analysis-pool.js';
import { PermanentJobError } from '../failures.js';
import type { JobHandler } from '../runner.js';

const describe = (r: AnalysisResult) => {
  const id = r.identity;
  const bits = id.bits ? `${id.bits}-bit ` : '';
  const endian = id.endianness ? `${id.endianness}-endian ` : '';
  return (
    `${id.format.toUpperCase()} ${bits}${endian}${id.architecture} ${id.binaryType} for ${id.platform}` +
    `${id.dynamic ? ', dynamically linked' : ''}${id.debug ? ', with debug info' : ''}`
  );
};

/** Runs one analysis: status, stage events and log lines go to the store as it progresses. */
export class AnalysisJobHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly pool: AnalysisPool,
    private readonly maxAnalysisBytes: number,
  ) {}

  async run(job: JobRow): Promise<void> {
    const id = job.analysis_id;
    if (id === null) throw new PermanentJobError('analysis job without an analysis');
    const analysis = await this.store.analyses.get(id);
    if (!analysis) return; // deleted while queued: nothing to do
    const payload = JSON.parse(job.payload) as AnalysisJobPayload;
    const { events } = this.store;
    await this.store.analyses.setStatus(id, 'Processing');
    await events.stage(id, 'ANALYSIS', 'STARTED');
    await events.log(id, `Analysis started (attempt ${job.attempts} of ${job.max_attempts})`);
    if (!(await this.blobs.has(payload.sha256)))
      throw new PermanentJobError(`sample ${payload.sha256} is missing from the blob store`);

    const started = performance.now();
    const out = await this.pool.run({
      path: await this.blobs.localPath(payload.sha256),
      binaryConfig: payload.binaryConfig,
      maxBytes: this.maxAnalysisBytes,
    });
    if (out.kind === 'refused') throw new PermanentJobError(out.reason);
    const result = out.result;
    await events.log(id, `Identified ${describe(result)}`);
    await events.log(id, `SHA-256 ${result.hashes.sha256}, ${result.size} bytes, entropy ${result.entropy.toFixed(3)}`);
    await events.saveResult(id, result);
    await events.stage(id, 'ANALYSIS', 'FINISHED');
    await events.log(id, `Analysis complete in ${Math.round(performance.now() - started)} ms`);
    await this.store.analyses.setStatus(id, 'Complete');
  }

  async failed(job: JobRow, err: Error, retrying: boolean, retryInMs: number): Promise<void> {
    const id = job.analysis_id;
    if (id === null || !(await this.store.analyses.get(id))) return;
    const { events } = this.store;
    if (retrying) {
      await events.log(
        id,
        `Attempt ${job.attempts} failed: ${err.message}; retrying in ${Math.round(retryInMs / 1000)} s`,
      );
      await this.store.analyses.setStatus(id, 'Queued');
    } else {
      await events.log(id, `Error: ${err.message}`);
      await events.stage(id, 'ANALYSIS', 'ERROR');
      await this.store.analyses.setStatus(id, 'Error');
    }
  }
}
