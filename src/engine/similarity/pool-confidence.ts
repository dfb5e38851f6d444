// A match's odds against a whole index rather than against 100 negatives (the pool `confidence.ts` was
// fitted on). If negatives were independent, the chance that one of them outscores the true match would
// grow linearly with their number, i.e. the odds would fall by ln(N/100) logit units; measured, they fall
// slower (Recall@1 XO 0.73 at pool 100 → 0.59 at pool 3 300, docs/similarity.md), because most negatives
// are far from any given query. POOL_PENALTY damps the log: at 10 000 functions a similarity needs
// 2 × 0.45 × ln(10) / 16 ≈ +0.13 more than at 100 for the same odds.
import { CONFIDENCE_MIDPOINT, CONFIDENCE_SLOPE } from './confidence.js';

/** The pool size confidence.ts was calibrated on. */
export const CALIBRATION_POOL = 100;
/** Logit units lost per e-fold of index size beyond CALIBRATION_POOL (1 = independent negatives). */
export const POOL_PENALTY = 0.45;

/** Log-odds that a candidate at this cosine similarity is the query's true match, in an index of poolSize. */
export function matchLogit(similarity: number, poolSize: number): number {
  const excess = Math.log(Math.max(poolSize, CALIBRATION_POOL) / CALIBRATION_POOL);
  return CONFIDENCE_SLOPE * (similarity - CONFIDENCE_MIDPOINT) - POOL_PENALTY * excess;
}

/** The same as a probability: a lone candidate's confidence (0..1). */
export const matchConfidence = (similarity: number, poolSize: number): number =>
  1 / (1 + Math.exp(-matchLogit(similarity, poolSize)));
