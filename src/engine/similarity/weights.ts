import type { FeatureGroup } from '../features/index.js';

/**
 * How much each feature group counts in a function vector. Each group is first scaled to unit length, so
 * a weight is the group's share of the vector before the final normalisation: Σw² = 4.90, of which
 * n-grams hold (1² + 0.25² + 0.7²)/4.91 ≈ 32 %, CFG shape and graphlets ≈ 14 %, constants, strings and
 * imports ≈ 39 %, call counts and callees' imports/strings ≈ 15 %.
 *
 * Chosen by tools/tune/similarity.ts on the `tune` half of the corpus function names (pool 100, mean
 * Recall@1 over XO/XC/XA/XM): from all groups ≈ 1, dropping bigrams raised the mean 0.764 → 0.778 and
 * dropping CFG counts 0.778 → 0.780 (200 queries a task, ±0.02). Keeping both at 0.25 measured the same
 * (0.7794 vs 0.7800 at 400 queries) and keeps block and edge counts in every explanation.
 */
export const DEFAULT_WEIGHTS: Readonly<Record<FeatureGroup, number>> = {
  unigram: 1.0,
  bigram: 0.25,
  trigram: 0.7,
  cfg: 0.25,
  graphlet: 0.8,
  constant: 0.8,
  string: 0.8,
  import: 0.8,
  calls: 0.6,
  neighbour: 0.6,
};
