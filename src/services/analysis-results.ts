import { decodeAnalysisConfig, modelId, readResultDocument } from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { ownedAnalysis, visibleAnalysis, type Caller } from './access.js';
import { sampleIdentity } from './samples.js';

/** Read views of one analysis (basic, status, params, logs, stages) and owner-only additions. */
export class AnalysisResultsService {
  constructor(private readonly store: Store) {}

  async basic(caller: Caller, id: number) {
    const a = await visibleAnalysis(this.store, caller, id);
    const [result, identity] = await Promise.all([
      this.store.events.result(id).then(readResultDocument),
      sampleIdentity(this.store, a.sha256),
    ]);
    return {
      binary_id: a.binary_id,
      binary_name: a.binary_name,
      binary_size: a.binary_size,
      creation: new Date(a.created_at).toISOString(),
      sha_256_hash: a.sha256,
      model_name: a.model_name,
      model_id: modelId(a.model_name),
      owner_username: a.username,
      is_system: false,
      analysis_scope: a.analysis_scope,
      is_owner: a.user_id === caller.id,
      debug: result?.identity.debug ?? identity?.debug ?? false,
      function_count: result?.functionCount ?? 0,
      is_advanced: decodeAnalysisConfig(a.config).analysis_config.advanced_analysis ?? false,
      base_address: a.base_address,
      binary_uuid: null,
      sequencer_version: null,
    };
  }

  async status(caller: Caller, id: number) {
    const a = await visibleAnalysis(this.store, caller, id);
    const progress = a.status === 'Complete' ? 100 : await this.store.events.progress(id);
    return { analysis_id: a.id, analysis_status: a.status, ...(progress === null ? {} : { progress }) };
  }

  async params(caller: Caller, id: number) {
    const a = await visibleAnalysis(this.store, caller, id);
    const identity =
      readResultDocument(await this.store.events.result(id))?.identity ?? (await sampleIdentity(this.store, a.sha256));
    return {
      debug_hash: a.debug_hash,
      binary_size: a.binary_size,
      architecture: identity?.architecture ?? 'unknown',
      binary_type: identity?.binaryType ?? 'raw',
      binary_format: identity?.format ?? 'raw',
      binary_dynamic: identity?.dynamic ?? false,
      model_name: a.model_name,
    };
  }

  async logs(caller: Caller, id: number) {
    await visibleAnalysis(this.store, caller, id);
    const rows = await this.store.events.logs(id);
    return { logs: rows.map((r) => `${new Date(r.created_at).toISOString()} ${r.line}`).join('\n') };
  }

  async insertLog(caller: Caller, id: number, line: string) {
    await ownedAnalysis(this.store, caller, id);
    await this.store.events.log(id, line);
  }

  async stages(caller: Caller, id: number) {
    await visibleAnalysis(this.store, caller, id);
    const rows = await this.store.events.stages(id);
    return {
      events: rows.map((r) => ({
        stage: r.stage as 'ANALYSIS',
        status: r.status as 'QUEUED',
        timestamp: new Date(r.created_at).toISOString(),
        ...(r.progress === null ? {} : { progress: r.progress }),
      })),
    };
  }

  /** Owner-only: strings added by a user or an agent; a vaddr that already has one rejects the batch. */
  async putStrings(caller: Caller, id: number, strings: { value: string; vaddr: number; source: string }[]) {
    await ownedAnalysis(this.store, caller, id);
    const clash = await this.store.events.addStrings(id, strings);
    if (clash !== null) throw errors.stringExists(clash);
  }
}
