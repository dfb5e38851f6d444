import type {
  MatchingRunRequest,
  RunKind,
  SimilarityRunJobPayload,
  UnstripRunRequest,
  UnstripRunResult,
} from '../../contracts/index.js';
import { canonicalName } from '../../engine/similarity/index.js';
import type { JobRow, SimilarityRunRow, Store } from '../../store/index.js';
import type { SimilarityIndex } from '../../store/similarity-index.js';
import type { JobHandler } from '../runner.js';
import { runMatching } from '../similarity/matching-run.js';
import { RunCancelled } from '../similarity/nearest-in-chunks.js';
import { isRenamable, runNaming } from '../similarity/naming-run.js';
import type { RunContext } from '../similarity/run-context.js';

const SOURCE_TYPES = { auto_unstrip: 'AUTO_UNSTRIP', ai_unstrip: 'AI_UNSTRIP' } as const;

/**
 * Runs function matching and unstripping (similarity_runs rows): progress goes to the row as the run
 * goes, a cancelled row stops it at the next chunk, and the result (and, when asked, the names) are
 * written at the end. A payload with `apply` only writes the names of a finished run.
 */
export class SimilarityRunJobHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly index: SimilarityIndex,
  ) {}

  async run(job: JobRow): Promise<void> {
    const payload = JSON.parse(job.payload) as SimilarityRunJobPayload;
    const runs = this.store.similarityRuns;
    const run = await runs.get(payload.runId);
    if (!run) return; // its analysis was deleted
    if (payload.apply) return this.applyNames(run);
    if (!(await runs.start(run.id))) return; // cancelled while queued
    const user = await this.store.users.byId(run.user_id);
    if (!user) return void (await runs.fail(run.id, 'the user who asked is gone'));
    const ctx: RunContext = {
      store: this.store,
      index: this.index,
      viewer: { userId: user.id, teamId: user.team_id },
      progress: (done) => runs.progress(run.id, done * 100),
    };
    const kind = run.kind as RunKind;
    try {
      if (kind === 'matches') {
        await runs.complete(run.id, await runMatching(ctx, JSON.parse(run.request) as MatchingRunRequest));
        return;
      }
      const req = JSON.parse(run.request) as UnstripRunRequest;
      const result = await runNaming(ctx, kind, run.analysis_id!, req);
      if ((await runs.complete(run.id, result)) && req.apply) await this.applyNames((await runs.get(run.id))!);
    } catch (err) {
      if (err instanceof RunCancelled) return;
      throw err;
    }
  }

  async failed(job: JobRow, err: Error, retrying: boolean): Promise<void> {
    if (retrying) return;
    await this.store.similarityRuns.fail((JSON.parse(job.payload) as SimilarityRunJobPayload).runId, err.message);
  }

  /** Writes a finished unstrip run's names into the functions and their history, with the evidence. */
  private async applyNames(run: SimilarityRunRow): Promise<void> {
    if (run.kind === 'matches' || run.result === null || run.analysis_id === null) return;
    const sourceType = SOURCE_TYPES[run.kind as keyof typeof SOURCE_TYPES];
    const req = JSON.parse(run.request) as UnstripRunRequest;
    const { suggestions } = JSON.parse(run.result) as UnstripRunResult;
    // A function renamed since the run finished keeps its new name.
    const still = new Set(
      (await this.store.similarityInputs.functions(run.analysis_id)).filter(isRenamable).map((f) => f.id),
    );
    const changes = suggestions
      .filter((s) => s.confidence >= req.confidenceThreshold && still.has(s.functionId))
      .map((s) => ({
        functionId: s.functionId,
        name: req.useCanonicalNames ? canonicalName(s.name) : s.name,
        mangledName: req.useCanonicalNames ? canonicalName(s.name) : s.mangledName,
        sourceType,
        userId: run.user_id,
        source: {
          functionId: s.evidence.matched_function_id,
          binaryId: s.evidence.matched_binary_id,
          analysisId: s.evidence.matched_analysis_id,
        },
        evidence: s.evidence,
      }));
    await this.store.similarityRuns.applyOnce(run.id, () => this.store.nameHistory.applyNames(changes));
  }
}
