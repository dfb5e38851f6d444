import type { Static } from '@sinclair/typebox';
import type {
  AnalysisTagItem,
  AnalysisCreateRequest,
  AnalysisRecord,
  BinaryIdentity,
  ListAnalysesQuery,
  ReAnalysisForm,
} from '../contracts/index.js';
import {
  ANALYSIS_JOB_KIND,
  boundariesHash,
  DYNAMIC_EXECUTION_JOB_KIND,
  decodeAnalysisConfig,
  encodeAnalysisConfig,
  isModelName,
  MODEL_NAMES,
  modelId,
  type AnalysisJobPayload,
  type StoredAnalysisConfig,
} from '../contracts/index.js';
import { applyBinaryConfig } from '../engine/binary-config.js';
import { pickModel } from '../engine/models.js';
import { errors } from '../shared/errors.js';
import type { AnalysisWithOwner, Store } from '../store/index.js';
import { canView, ownedAnalysis, visibleAnalysis, type Caller } from './access.js';
import { debugSample, sampleIdentity } from './samples.js';

type CreateBody = Static<typeof AnalysisCreateRequest>;
type ListQuery = Static<typeof ListAnalysesQuery>;
type RequeueBody = Static<typeof ReAnalysisForm>;

const MAX_RETRIES = 10;

/** `max_retry_attempts` is the only tuning parameter with an effect: retries of the job, clamped. */
const attemptsFrom = (maxRetry: number | undefined) => 1 + Math.min(Math.max(maxRetry ?? 5, 0), MAX_RETRIES);

/** Highest queue priority an administrator may give a requeued job (everyone else's is at most 0). */
const MAX_PRIORITY = 100;

/**
 * The queue is shared: anyone may put their own job behind others (a negative priority), only an
 * administrator may move one ahead of everyone's (up to MAX_PRIORITY). A higher value is clamped, not refused,
 * as clients send the field with values of their own.
 */
const priorityFor = (caller: Caller, asked: number) =>
  Math.max(-MAX_PRIORITY, Math.min(asked, caller.role === 'ADMIN' ? MAX_PRIORITY : 0));

/** What was detected and what would make the binary analysable, for the 400 "no appropriate model". */
function whyNoModel(identity: BinaryIdentity): string {
  if (identity.format === 'raw' || identity.architecture === 'unknown')
    return (
      'its format and architecture were not recognised; for a raw blob (firmware, shellcode) pass ' +
      'binary_config with its isa (x86, x86_64, or arm for AArch64) and platform'
    );
  return (
    `it is ${identity.format.toUpperCase()} ${identity.architecture} for ${identity.platform}, which no model ` +
    `analyses; the models (GET /v2/models) cover ${MODEL_NAMES.map((m) => m.replace('binnet-0.7-', '')).join(', ')}`
  );
}

/** The job of an emulated run: one attempt unless the request asks for more (a run is deterministic). */
const dynamicJob = (maxRetry: number | undefined) => ({
  kind: DYNAMIC_EXECUTION_JOB_KIND,
  payload: null,
  maxAttempts: attemptsFrom(maxRetry),
});

export class AnalysesService {
  constructor(
    private readonly store: Store,
    /** Function tags derived from the analysis's capabilities (UnderstandingService.tagItems). */
    private readonly capabilityTags: (a: AnalysisWithOwner) => Promise<Static<typeof AnalysisTagItem>[]>,
  ) {}

  async create(caller: Caller, body: CreateBody, maxRetry: number | undefined) {
    const sha256 = body.sha_256_hash.toLowerCase();
    const sample = await this.store.samples.get(sha256);
    // Samples are stored once per hash, but only those who uploaded one may analyse it: knowing a hash
    // must not give access to (or confirm the existence of) someone else's private upload.
    if (!sample || !(await this.store.samples.uploadedBy(caller.id, sha256)))
      throw errors
        .resourceNotFound()
        .withDetail(`sha_256_hash ${sha256} was never uploaded by you: upload the file first (POST /v2/upload)`);
    const identity = applyBinaryConfig(JSON.parse(sample.identity) as BinaryIdentity, body.binary_config ?? null);
    const model = pickModel(identity);
    if (!model) throw errors.noModel(whyNoModel(identity));
    const config: StoredAnalysisConfig = {
      analysis_config: body.analysis_config ?? {},
      binary_config: body.binary_config ?? null,
      symbols: body.symbols ?? null,
      auto_run_agents: { triage: body.auto_run_agents?.triage ?? false },
      function_boundaries_hash: boundariesHash(body.symbols ?? null),
    };
    const payload: AnalysisJobPayload = { debugSha256: await debugSample(this.store, caller.id, body.debug_hash) };
    const ids = await this.store.analyses.create(
      {
        userId: caller.id,
        sha256,
        binaryName: body.filename,
        binarySize: sample.size,
        scope: body.analysis_scope ?? 'PRIVATE',
        modelName: model,
        baseAddress: body.symbols?.base_address ?? identity.baseAddress,
        debugHash: body.debug_hash ?? null,
        config: encodeAnalysisConfig(config),
        tags: (body.tags ?? []).map((t) => t.name),
        // A dump or extracted file found for the caller and not analysed yet: this is its analysis.
        binaryId: await this.store.binaryRelations.unanalysedChild(caller.id, sha256),
      },
      { kind: ANALYSIS_JOB_KIND, payload, maxAttempts: attemptsFrom(maxRetry) },
      config.analysis_config.sandbox_config?.enabled ? dynamicJob(maxRetry) : null,
    );
    return { analysis_id: ids.analysisId, binary_id: ids.binaryId };
  }

  async requeue(caller: Caller, id: number, form: RequeueBody, maxRetry: number | undefined) {
    const a = await this.store.analyses.get(id);
    if (!a || !canView(caller, a))
      throw errors.resourceNotFound().withDetail(`analysis ${id} does not exist or is not visible to you`);
    if (a.user_id !== caller.id) throw errors.forbidden();
    let model = a.model_name;
    if (form.model_name) {
      if (!isModelName(form.model_name))
        throw errors.noModel(`${form.model_name} is not a model; GET /v2/models lists them`);
      model = form.model_name;
    }
    const payload: AnalysisJobPayload = { debugSha256: await debugSample(this.store, caller.id, a.debug_hash) };
    await this.store.analyses.requeue(
      id,
      model,
      {
        kind: ANALYSIS_JOB_KIND,
        payload,
        priority: priorityFor(caller, form.priority ?? 0),
        maxAttempts: attemptsFrom(maxRetry),
      },
      form.tags ?? [],
      decodeAnalysisConfig(a.config).analysis_config.sandbox_config?.enabled ? dynamicJob(maxRetry) : null,
    );
    return { analysis_id: id, binary_id: a.binary_id, reference: `analysis/${id}` };
  }

  async list(caller: Caller, q: ListQuery) {
    const statuses = q.status ?? ['All'];
    const rows = await this.store.analyses.list(
      { id: caller.id, teamId: caller.teamId },
      {
        workspaces: q.workspace ?? ['personal'],
        statuses: statuses.includes('All') ? null : statuses,
        modelNames: q.model_name?.length ? q.model_name : null,
        dynamicExecutionStatus:
          q.dynamic_execution_status && q.dynamic_execution_status !== 'ALL' ? q.dynamic_execution_status : null,
        usernames: q.usernames?.length ? q.usernames : null,
        sha256: q.sha256_hash ?? null,
        searchTerm: q.search_term ?? '',
        orderBy: q.order_by ?? 'created',
        order: q.order ?? 'DESC',
        limit: q.limit ?? 20,
        offset: q.offset ?? 0,
      },
    );
    const tags = await this.store.analyses.tags(rows.map((r) => r.id));
    return {
      results: rows.map((r) =>
        this.record(
          caller,
          r,
          tags.filter((t) => t.analysis_id === r.id),
        ),
      ),
    };
  }

  private record(
    caller: Caller,
    a: AnalysisWithOwner,
    tags: { name: string; origin: string }[],
  ): Static<typeof AnalysisRecord> {
    const cfg = decodeAnalysisConfig(a.config);
    return {
      analysis_id: a.id,
      analysis_scope: a.analysis_scope,
      binary_id: a.binary_id,
      model_id: modelId(a.model_name),
      model_name: a.model_name,
      status: a.status,
      creation: new Date(a.created_at).toISOString(),
      is_owner: a.user_id === caller.id,
      binary_name: a.binary_name,
      sha_256_hash: a.sha256,
      function_boundaries_hash: cfg.function_boundaries_hash,
      binary_size: a.binary_size,
      username: a.username,
      dynamic_execution_status: a.dynamic_execution_status as Static<typeof AnalysisRecord>['dynamic_execution_status'],
      dynamic_execution_task_id: null,
      base_address: a.base_address ?? 0,
      tags: tags.map((t) => ({ name: t.name, origin: t.origin, collection_id: null })),
    };
  }

  async lookup(caller: Caller, binaryId: number) {
    const a = await this.store.analyses.byBinaryId(binaryId);
    if (!a || !canView(caller, a)) throw errors.resourceNotFound();
    return { analysis_id: a.id, binary_id: a.binary_id };
  }

  async update(caller: Caller, id: number, body: { binary_name?: string | null; analysis_scope?: string | null }) {
    await ownedAnalysis(this.store, caller, id);
    const set: { binary_name?: string; analysis_scope?: string } = {};
    if (body.binary_name != null) set.binary_name = body.binary_name;
    if (body.analysis_scope != null) set.analysis_scope = body.analysis_scope;
    await this.store.analyses.update(id, set);
    return this.detail(caller, id);
  }

  async detail(caller: Caller, id: number) {
    const a = await visibleAnalysis(this.store, caller, id);
    const identity = await sampleIdentity(this.store, a.sha256);
    const cfg = decodeAnalysisConfig(a.config);
    return {
      access: { owner: a.user_id === caller.id, username: a.username },
      analysis_id: a.id,
      analysis_scope: a.analysis_scope,
      architecture: identity?.architecture ?? 'unknown',
      binary_dynamic: identity?.dynamic ?? false,
      binary_format: identity?.format ?? 'raw',
      binary_name: a.binary_name,
      binary_size: a.binary_size,
      binary_type: identity?.binaryType ?? 'raw',
      creation: new Date(a.created_at).toISOString(),
      dashboard_url: `/analyses/${a.id}`,
      debug: identity?.debug ?? false,
      model_name: a.model_name,
      sbom: null,
      sha_256_hash: a.sha256,
      auto_run_agents: cfg.auto_run_agents,
    };
  }

  async delete(caller: Caller, id: number) {
    await ownedAnalysis(this.store, caller, id);
    await this.store.analyses.deleteMany([id]);
    return {};
  }

  /** All or nothing: 404 when any id is missing (or invisible), 403 when any is someone else's. */
  async bulkDelete(caller: Caller, ids: number[]) {
    const unique = [...new Set(ids)];
    const rows = await this.store.analyses.getMany(unique);
    if (rows.length !== unique.length || rows.some((a) => !canView(caller, a))) throw errors.someAnalysesNotFound();
    if (rows.some((a) => a.user_id !== caller.id)) throw errors.forbidden();
    if (!(await this.store.analyses.deleteMany(unique))) throw errors.someAnalysesNotFound();
    return {};
  }

  /** Per analysis: added, missing (or invisible) or not the caller's; one lookup and one insert per 1 000. */
  async bulkAddTags(caller: Caller, ids: number[], tags: string[]) {
    const unique = [...new Set(ids)];
    const found = new Map((await this.store.analyses.getMany(unique)).map((a) => [a.id, a]));
    const owned = unique.filter((id) => found.get(id)?.user_id === caller.id);
    await this.store.analyses.addTagsToMany(owned, tags);
    const results = unique.map((id) => {
      const a = found.get(id);
      if (!a || !canView(caller, a))
        return { analysis_id: id, message: null, error: `Analysis with ID ${id} could not be found` };
      if (a.user_id !== caller.id)
        return { analysis_id: id, message: null, error: 'You do not have permission to access this resource' };
      return { analysis_id: id, message: 'Tags added', error: null };
    });
    return { results };
  }

  async replaceTags(caller: Caller, id: number, tags: string[]) {
    await ownedAnalysis(this.store, caller, id);
    await this.store.analyses.replaceTags(id, tags);
    const rows = await this.store.analyses.tags([id]);
    return { tags: rows.map((t) => ({ name: t.name, origin: t.origin })) };
  }

  async tags(caller: Caller, id: number) {
    const analysis = await visibleAnalysis(this.store, caller, id);
    const rows = await this.store.analyses.tags([id]);
    return {
      analysis_tags: [
        ...rows.map((t) => ({ name: t.name, origin: t.origin, collection_id: null })),
        ...(await this.capabilityTags(analysis)),
      ],
    };
  }
}
