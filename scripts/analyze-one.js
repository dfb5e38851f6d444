// Child of bench-analyze.js: runs the whole static analysis on one file and prints its time and peak RSS.
import { readFileSync } from 'node:fs';
import { analyze } from '../dist/src/engine/index.js';

const bytes = readFileSync(process.argv[2]);
// The first run also loads the WebAssembly modules (iced-x86, the demangler) and runs the engine's code
// cold; a service's worker threads pay that once and then run hot, so the median of three further runs is
// what each analysis costs a running service (the first of them is often still half-optimised).
let t0 = performance.now();
await analyze(bytes, {});
const coldMs = performance.now() - t0;
const times = [];
/** Time to the start of the instructions stage: the recovery engine issue 3 measures (parse … strings). */
const recoveryTimes = [];
let r;
for (let i = 0; i < 3; i++) {
  t0 = performance.now();
  let recovered = NaN;
  r = await analyze(bytes, {}, (stage) => {
    if (stage === 'instructions') recovered = performance.now() - t0;
  });
  times.push(performance.now() - t0);
  recoveryTimes.push(Number.isNaN(recovered) ? times.at(-1) : recovered);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[1];
const ms = median(times);
console.log(
  JSON.stringify({
    ms,
    recoveryMs: median(recoveryTimes),
    coldMs,
    functions: r.functionCount,
    instructions: r.instructionCount,
    strings: r.strings.length,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }),
);
