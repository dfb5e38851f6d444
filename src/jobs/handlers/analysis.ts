import type { BlobStore } from '../../blobs/index.js';
import type { AnalysisJobPayload, AnalysisResult } from '../../contracts/index.js';
import type { FunctionResults, JobRow, Store } from '../../store/index.js';
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

/** The rows the API pages through, from the engine's result document. */
function functionResults(r: AnalysisResult): FunctionResults {
  const stringSites = new Set(r.strings.flatMap((s) => s.refs.map((ref) => ref.site)));
  return {
    functions: r.functions.map((f) => ({
      vaddr: f.vaddr,
      size: f.size,
      name: f.name,
      mangledName: f.mangledName,
      nameSourceType: f.nameOrigin === 'client' ? 'EXTERNAL' : 'SYSTEM',
      debug: f.nameOrigin === 'symbol' || f.nameOrigin === 'debug',
      source: f.found,
      thumb: f.thumb,
      blocks: f.blocks,
    })),
    calls: r.calls.map((c) => ({
      caller: c.caller,
      callee: c.callee,
      target: c.target,
      name: c.calleeName ?? (c.target >= 0 ? `sub_${c.target.toString(16)}` : '(indirect)'),
      external: c.kind === 'import',
      site: c.site,
    })),
    strings: r.strings,
    vectors: r.vectors,
    refs: [
      ...r.calls
        .filter((c) => c.target >= 0)
        .map((c) => ({ site: c.site, func: c.caller, target: c.target, kind: 'call' })),
      ...r.refs.map((x) => ({ ...x, kind: stringSites.has(x.site) ? 'string' : 'data' })),
    ],
  };
}

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

    const debugSha256 = payload.debugSha256 ?? null;
    const debugPresent = debugSha256 !== null && (await this.blobs.has(debugSha256));
    if (analysis.debug_hash && !debugPresent)
      await events.log(id, `Debug file ${analysis.debug_hash} is not among your uploads; names come from the binary`);

    const started = performance.now();
    const out = await this.pool.run({
      path: await this.blobs.localPath(payload.sha256),
      binaryConfig: payload.binaryConfig,
      symbols: payload.symbols ?? null,
      debugPath: debugPresent ? await this.blobs.localPath(debugSha256) : null,
      maxBytes: this.maxAnalysisBytes,
    });
    if (out.kind === 'refused') throw new PermanentJobError(out.reason);
    const result = out.result;
    await events.log(id, `Identified ${describe(result)}`);
    await events.log(id, `SHA-256 ${result.hashes.sha256}, ${result.size} bytes, entropy ${result.entropy.toFixed(3)}`);
    await events.log(
      id,
      `Recovered ${result.functionCount} functions (${result.instructionCount} instructions), ${result.strings.length} strings`,
    );
    for (const d of result.diagnostics.slice(0, 20)) await events.log(id, `Warning: ${d}`);
    await this.store.functions.replace(id, functionResults(result));
    if (result.vectors) await events.log(id, `Indexed ${result.vectors.count} function vectors for similarity search`);
    const { functions, calls, strings, refs, vectors, ...document } = result;
    await events.saveResult(id, document);
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
