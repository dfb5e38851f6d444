// Child of bench-analyze.js: runs the whole static analysis on one file and prints its time and peak RSS.
import { readFileSync } from 'node:fs';
import { analyze } from '../dist/src/engine/index.js';

const bytes = readFileSync(process.argv[2]);
// The first run also loads the WebAssembly modules (iced-x86, the demangler); a worker thread pays that
// once, so the second run is what each analysis costs a running service.
let t0 = performance.now();
await analyze(bytes, {});
const coldMs = performance.now() - t0;
t0 = performance.now();
const r = await analyze(bytes, {});
const ms = performance.now() - t0;
console.log(
  JSON.stringify({
    ms,
    coldMs,
    functions: r.functionCount,
    instructions: r.instructionCount,
    strings: r.strings.length,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }),
);
