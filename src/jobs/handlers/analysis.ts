import type { BlobStore } from '../../blobs/index.js';
import {
  decodeAnalysisConfig,
  type AnalysisJobPayload,
  type BinaryIdentity,
  type StoredAnalysisConfig,
} from '../../contracts/index.js';
import type { JobRow, Store } from '../../store/index.js';
import type { AnalysisPool } from '../analysis-pool.js';
import { PermanentJobError } from '../failures.js';
import type { JobHandler } from '../runner.js';
import { sampleInput } from '../sample-input.js';

const describe = (id: BinaryIdentity) => {
  const bits = id.bits ? `${id.bits}-bit ` : '';
  const endian = id.endianness ? `${id.endianness}-endian ` : '';
  return (
    `${id.format.toUpperCase()} ${bits}${endian}${id.architecture} ${id.binaryType} for ${id.platform}` +
    `${id.dynamic ? ', dynamically linked' : ''}${id.debug ? ', with debug info' : ''}`
  );
};

/** What analysis_config asks for beyond recovery; CVEs need the libraries, so they imply the SBOM. */
function wanted(config: StoredAnalysisConfig): { capabilities: boolean; sbom: boolean } {
  const c = config.analysis_config;
  return { capabilities: c.generate_capabilities === true, sbom: c.generate_sbom === true || c.generate_cves === true };
}

/**
 * Runs one analysis: status and log lines go to the store as it progresses; the analysis thread records the
 * stage events as the engine moves (stage-progress.ts).
 */
export class AnalysisJobHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly pool: AnalysisPool,
    private readonly maxAnalysisBytes: number,
    private readonly rulesDirs: string[],
    /** The database the worker threads store results in: this store's. */
    private readonly databaseUrl: string,
  ) {}

  async run(job: JobRow): Promise<void> {
    const id = job.analysis_id;
    if (id === null) throw new PermanentJobError('analysis job without an analysis');
    const analysis = await this.store.analyses.get(id);
    if (!analysis) return; // deleted while queued: nothing to do
    const { debugSha256 = null } = (JSON.parse(job.payload) ?? {}) as Partial<AnalysisJobPayload>;
    const { events } = this.store;
    await this.store.analyses.setStatus(id, 'Processing');
    await events.log(id, `Analysis started (attempt ${job.attempts} of ${job.max_attempts})`);
    const sample = await sampleInput(this.blobs, analysis, debugSha256, this.maxAnalysisBytes);
    if (analysis.debug_hash && !sample.debugPath)
      await events.log(id, `Debug file ${analysis.debug_hash} is not among your uploads; names come from the binary`);

    const started = performance.now();
    const out = await this.pool.run({
      ...sample,
      ...wanted(decodeAnalysisConfig(analysis.config)),
      rulesDirs: this.rulesDirs,
      databaseUrl: this.databaseUrl,
      analysisId: id,
    });
    if (out.kind === 'refused') throw new PermanentJobError(out.reason);
    const r = out.summary;
    for (const p of out.ruleProblems.slice(0, 10))
      await events.log(id, `Capability rule skipped: ${p.source}: ${p.message}`);
    await events.log(id, `Identified ${describe(r.identity)}`);
    await events.log(id, `SHA-256 ${r.sha256}, ${r.size} bytes, entropy ${r.entropy.toFixed(3)}`);
    await events.log(
      id,
      `Recovered ${r.functionCount} functions (${r.instructionCount} instructions), ${r.stringCount} strings`,
    );
    for (const d of r.diagnostics) await events.log(id, `Warning: ${d}`);
    if (r.vectorCount !== null) await events.log(id, `Indexed ${r.vectorCount} function vectors for similarity search`);
    if (r.capabilities)
      await events.log(
        id,
        `Matched ${r.capabilities.matched} of ${r.capabilities.rules} capability rules ` +
          `(${r.capabilities.evaluations} evaluations; ${r.capabilities.naiveEvaluations} without the index)`,
      );
    if (r.libraries !== null) await events.log(id, `Identified ${r.libraries} libraries`);
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
      // The stage that was running when it failed (ANALYSIS when the engine never started).
      const last = (await events.stages(id)).at(-1);
      await events.stage(id, last?.status === 'STARTED' ? last.stage : 'ANALYSIS', 'ERROR', last?.progress ?? null);
      await this.store.analyses.setStatus(id, 'Error');
    }
  }
}
