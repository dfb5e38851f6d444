// Similarity → confidence that the candidate is the same source function: a logistic curve fitted to the
// calibration `npm run bench:similarity` prints. Per similarity band, the share of pool-100 queries whose
// best candidate (in that band) was the true match: 0.50–0.60 → 0.39, 0.60–0.70 → 0.63, 0.70–0.75 →
// 0.88, 0.75–0.80 → 0.96, ≥ 0.80 → 0.99. The curve gives 0.31, 0.69, 0.88, 0.94 at the band midpoints, ≥ 0.96 from 0.80.
// Against 100 negatives only: a larger index needs the matching phase to calibrate again (docs/similarity.md).

/** Similarity at which half of the top-1 candidates are right. */
export const CONFIDENCE_MIDPOINT = 0.6;
/** Slope: logit units per unit of similarity (the logit rises 3.5 from 0.55 to 0.775). */
export const CONFIDENCE_SLOPE = 16;

export function similarityConfidence(similarity: number): number {
  return 1 / (1 + Math.exp(-CONFIDENCE_SLOPE * (similarity - CONFIDENCE_MIDPOINT)));
}
