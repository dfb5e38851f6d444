// node scripts/tune-similarity.js — coordinate search over the feature-group weights on the `tune` half
// of the corpus function names (the bench publishes the `test` half), maximising mean Recall@1 over XO,
// XC, XA and XM at pool 100 (TUNE_QUERIES, default 300, queries each). Prints the weights to put in
// src/engine/similarity/weights.ts; nothing is written. Needs `npm run build` first.
import { loadCorpus, runTask, TASKS, vectorize } from './similarity-protocol.js';
import { DEFAULT_WEIGHTS } from '../dist/src/engine/similarity/index.js';

const data = await loadCorpus();
if (!data) process.exit(0);
const score = (weights) => {
  vectorize(data.pool, weights);
  const rows = Object.keys(TASKS).map((task, i) =>
    runTask(data, task, {
      negatives: 100,
      nQueries: Number(process.env.TUNE_QUERIES ?? 300),
      split: 'tune',
      seed: 2000 + i,
    }),
  );
  return { mean: rows.reduce((a, r) => a + r.r1, 0) / rows.length, rows };
};
const show = (r) => r.rows.map((x) => `${x.task} ${x.r1.toFixed(3)}`).join('  ');
let best = { ...DEFAULT_WEIGHTS };
let bestScore = score(best);
console.log(`start ${bestScore.mean.toFixed(4)}  ${show(bestScore)}`);
// TUNE_ROUNDS rounds (default 2) of the TUNE_FACTORS multipliers (default 0, 0.5, 1.5, 2.5) per group;
// a step is kept only when the mean rises by more than 0.001.
const factors = (process.env.TUNE_FACTORS ?? '0,0.5,1.5,2.5').split(',').map(Number);
for (let round = 0; round < Number(process.env.TUNE_ROUNDS ?? 2); round++)
  for (const group of Object.keys(best))
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
