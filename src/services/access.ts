import { errors } from '../shared/errors.js';
import type { AnalysisWithOwner, Store } from '../store/index.js';

export interface Caller {
  id: number;
  username: string;
  teamId: number | null;
  role: string;
}

/** PRIVATE: its owner, and the owner's team; PUBLIC: everyone. */
export const canView = (caller: Caller, a: Pick<AnalysisWithOwner, 'user_id' | 'analysis_scope' | 'owner_team_id'>) =>
  a.user_id === caller.id ||
  a.analysis_scope === 'PUBLIC' ||
  (caller.teamId !== null && a.owner_team_id === caller.teamId);

/** An analysis the caller may see; one they may not is reported missing, so its existence does not leak. */
export async function visibleAnalysis(store: Store, caller: Caller, id: number): Promise<AnalysisWithOwner> {
  const a = await store.analyses.get(id);
  if (!a || !canView(caller, a)) throw errors.analysisNotFound(id);
  return a;
}

/** A function and its analysis, when the caller may see that analysis; otherwise the function is missing. */
export async function visibleFunction(store: Store, caller: Caller, id: number) {
  const f = await store.functions.get(id);
  if (!f) throw errors.functionNotFound(id);
  const analysis = await visibleAnalysis(store, caller, f.analysis_id).catch(() => {
    throw errors.functionNotFound(id);
  });
  return { f, analysis };
}

/** An analysis the caller owns: missing or invisible → 404, visible but someone else's → 403. */
export async function ownedAnalysis(store: Store, caller: Caller, id: number): Promise<AnalysisWithOwner> {
  const a = await visibleAnalysis(store, caller, id);
  if (a.user_id !== caller.id) throw errors.forbidden();
  return a;
}

/** Which of these analyses the caller may see now (cached results are re-checked with it on every read). */
export async function visibleAnalysisIds(store: Store, caller: Caller, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await store.analyses.getMany(ids);
  return new Set(rows.filter((a) => canView(caller, a)).map((a) => a.id));
}
