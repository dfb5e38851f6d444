// npm run build && node dist/tools/tune/similarity.js — coordinate search over the feature-group weights on
// the `tune` half of the corpus function names (the bench publishes the `test` half), maximising mean
// Recall@1 over XO, XC, XA and XM at pool 100 (TUNE_QUERIES, default 300, queries each). Prints the weights
// to put in src/engine/similarity/weights.ts; nothing is written.
import { FEATURE_GROUPS } from '../../src/engine/features/index.js';
import { DEFAULT_WEIGHTS } from '../../src/engine/similarity/index.js';
import {
  loadCorpus,
  runTask,
  TASK_NAMES,
  vectorize,
  type TaskResult,
  type Weights,
} from '../bench/similarity-protocol.js';

const data = await loadCorpus();
if (!data) process.exit(0);
const score = (weights: Weights) => {
  vectorize(data.pool, weights);
  const rows = TASK_NAMES.map((task, i) =>
    runTask(data, task, {
      negatives: 100,
      nQueries: Number(process.env.TUNE_QUERIES ?? 300),
      split: 'tune',
      seed: 2000 + i,
    }),
  );
  return { mean: rows.reduce((a, r) => a + r.r1, 0) / rows.length, rows };
};
const show = (r: { rows: TaskResult[] }) => r.rows.map((x) => `${x.task} ${x.r1.toFixed(3)}`).join('  ');
let best: Weights = { ...DEFAULT_WEIGHTS };
let bestScore = score(best);
console.log(`start ${bestScore.mean.toFixed(4)}  ${show(bestScore)}`);
// TUNE_ROUNDS rounds (default 2) of the TUNE_FACTORS multipliers (default 0, 0.5, 1.5, 2.5) per group;
// a step is kept only when the mean rises by more than 0.001 (groups in DEFAULT_WEIGHTS's key order).
const factors = (process.env.TUNE_FACTORS ?? '0,0.5,1.5,2.5').split(',').map(Number);
for (let round = 0; round < Number(process.env.TUNE_ROUNDS ?? 2); round++)
  for (const group of FEATURE_GROUPS)
    for (const factor of factors) {
      const trial = { ...best, [group]: Math.round(best[group] * factor * 100) / 100 };
      const s = score(trial);
      if (s.mean > bestScore.mean + 0.001) {
        best = trial;
        bestScore = s;
        console.log(`${group} ×${factor} → ${s.mean.toFixed(4)}  ${show(s)}`);
      }
    }
console.log(JSON.stringify(best));
