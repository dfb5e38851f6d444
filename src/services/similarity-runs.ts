import { createHash } from 'node:crypto';
import { SIMILARITY_RUN_JOB_KIND, type RunKind, type SimilarityRunJobPayload } from '../contracts/index.js';
import type { SimilarityRunRow, Store } from '../store/index.js';

/** Attempts a run's job gets: a transient database failure is retried, a bug is not hidden for long. */
const MAX_ATTEMPTS = 3;

export const isActive = (r: SimilarityRunRow) => r.status === 'PENDING' || r.status === 'RUNNING';

/** Same kind, asker, subject and parameters → same key: the latest run with it answers a repeated request. */
export const requestKey = (kind: RunKind, userId: number, subject: unknown, params: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([kind, userId, subject, params]))
    .digest('hex');

/** Starts a run: its row and the durable job that does it, together. */
export function startRun(
  store: Store,
  run: { kind: RunKind; userId: number; analysisId: number | null; requestKey: string; request: unknown },
): Promise<SimilarityRunRow> {
  return store.similarityRuns.create(run, (runId) => ({
    kind: SIMILARITY_RUN_JOB_KIND,
    payload: { runId } satisfies SimilarityRunJobPayload,
    maxAttempts: MAX_ATTEMPTS,
  }));
}

/** Queues writing the names of a finished unstrip run (the worker writes them, once). */
export async function queueApply(store: Store, run: SimilarityRunRow): Promise<void> {
  await store.jobs.enqueue({
    kind: SIMILARITY_RUN_JOB_KIND,
    analysisId: null,
    payload: { runId: run.id, apply: true } satisfies SimilarityRunJobPayload,
    maxAttempts: MAX_ATTEMPTS,
  });
}

/** Fields every run response shares. */
export const runStatus = (r: SimilarityRunRow | undefined) => ({
  progress: r?.progress ?? 0,
  status: r?.status ?? 'UNINITIALISED',
  total_time: r?.started_at == null ? null : Math.round(((r.finished_at ?? Date.now()) - r.started_at) / 1000),
  error_message: r?.error ?? null,
});
