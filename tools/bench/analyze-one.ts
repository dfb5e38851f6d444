// Child of analyze.ts (npm run bench:analyze): runs the whole static analysis on one file, every stage the
// service runs (capabilities with the shipped rules, SBOM), and prints its time, its stages' times and
// peak RSS as one JSON line (AnalyzeOneRecord).
//   node dist/tools/bench/analyze-one.js FILE
import { readFileSync } from 'node:fs';
import { StageClock } from '../../src/cli/stage-clock.js';
import type { AnalysisResult } from '../../src/contracts/index.js';
import { analyze, type AnalyzeOptions } from '../../src/engine/index.js';
import { loadDemangler } from '../../src/jobs/demangler.js';
import { loadCapabilityRules } from '../../src/jobs/rule-files.js';

/** What the child prints for its parent. */
export interface AnalyzeOneRecord {
  ms: number;
  recoveryMs: number;
  stages: Record<string, number>;
  coldMs: number;
  functions: number;
  instructions: number;
  strings: number;
  maxRssMiB: number;
}

const file = process.argv[2];
if (!file) throw new Error('usage: node dist/tools/bench/analyze-one.js FILE');
const bytes = readFileSync(file);
const { rules } = await loadCapabilityRules([]);
const options: AnalyzeOptions = { rules, sbom: true, demangle: await loadDemangler() };
// The first run also loads the WebAssembly modules (iced-x86, the demangler) and runs the engine's code
// cold; a service's worker threads pay that once and then run hot, so the median of three further runs is
// what each analysis costs a running service (the first of them is often still half-optimised).
let t0 = performance.now();
let r: AnalysisResult = await analyze(bytes, options);
const coldMs = performance.now() - t0;
const runs: { ms: number; stages: Record<string, number> }[] = [];
for (let i = 0; i < 3; i++) {
  const clock = new StageClock();
  t0 = performance.now();
  // 'done' ends the last stage.
  r = await analyze(bytes, options, (stage) => (stage === 'done' ? clock.stop() : clock.enter(stage)));
  runs.push({ ms: performance.now() - t0, stages: Object.fromEntries(clock.stages().map((s) => [s.stage, s.ms])) });
}
const median = runs.sort((a, b) => a.ms - b.ms)[1]!;
// "recovery" is the engine issue 3 measured: parse … strings, up to the instructions stage.
const recoveryMs = ['identify', 'hash', 'parse', 'recover', 'names', 'strings'].reduce(
  (n, s) => n + (median.stages[s] ?? 0),
  0,
);
const record: AnalyzeOneRecord = {
  ms: median.ms,
  recoveryMs,
  stages: median.stages,
  coldMs,
  functions: r.functionCount,
  instructions: r.instructionCount,
  strings: r.strings.length,
  maxRssMiB: process.resourceUsage().maxRSS / 1024,
};
console.log(JSON.stringify(record));
