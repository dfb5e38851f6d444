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
