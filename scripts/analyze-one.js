// Child of bench-analyze.js: runs the whole static analysis on one file, every stage the service runs
// (capabilities with the shipped rules, SBOM), and prints its time, its stages' times and peak RSS.
import { readFileSync } from 'node:fs';
import { StageClock } from '../dist/src/cli/stage-clock.js';
import { analyze } from '../dist/src/engine/index.js';
import { loadDemangler } from '../dist/src/jobs/demangler.js';
import { loadCapabilityRules } from '../dist/src/jobs/rule-files.js';

const bytes = readFileSync(process.argv[2]);
const { rules } = await loadCapabilityRules([]);
const options = { rules, sbom: true, demangle: await loadDemangler() };
// The first run also loads the WebAssembly modules (iced-x86, the demangler) and runs the engine's code
// cold; a service's worker threads pay that once and then run hot, so the median of three further runs is
// what each analysis costs a running service (the first of them is often still half-optimised).
let t0 = performance.now();
await analyze(bytes, options);
const coldMs = performance.now() - t0;
const runs = [];
let r;
for (let i = 0; i < 3; i++) {
  const clock = new StageClock();
  t0 = performance.now();
  // 'done' ends the last stage.
  r = await analyze(bytes, options, (stage) => (stage === 'done' ? clock.stop() : clock.enter(stage)));
  runs.push({ ms: performance.now() - t0, stages: Object.fromEntries(clock.stages().map((s) => [s.stage, s.ms])) });
}
const median = runs.sort((a, b) => a.ms - b.ms)[1];
// "recovery" is the engine issue 3 measured: parse … strings, up to the instructions stage.
const recoveryMs = ['identify', 'hash', 'parse', 'recover', 'names', 'strings'].reduce(
  (n, s) => n + (median.stages[s] ?? 0),
  0,
);
console.log(
  JSON.stringify({
    ms: median.ms,
    recoveryMs,
    stages: median.stages,
    coldMs,
    functions: r.functionCount,
    instructions: r.instructionCount,
    strings: r.strings.length,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }),
);
