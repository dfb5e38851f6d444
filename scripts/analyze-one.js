// Child of bench-analyze.js: runs the whole static analysis on one file and prints its time and peak RSS.
import { readFileSync } from 'node:fs';
import { analyze } from '../dist/src/engine/index.js';

const bytes = readFileSync(process.argv[2]);
const t0 = performance.now();
const r = await analyze(bytes, {});
const ms = performance.now() - t0;
console.log(
  JSON.stringify({
    ms,
    functions: r.functionCount,
    instructions: r.instructionCount,
    strings: r.strings.length,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }),
);
