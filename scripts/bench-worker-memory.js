// npm run bench:memory -- <file> — the process's RSS around one analysis of <file> in an AnalysisPool thread
// (one thread and the default limits, as `serve` builds it): idle, when the result arrives, then at intervals
// after the result is dropped and the main thread collected, while the idle thread retires.
// Default file: the largest corpus binary (busybox); docs/decisions.md has anthoscli and kubectl.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../dist/src/config/index.js';
import { AnalysisPool } from '../dist/src/jobs/index.js';

const file =
  process.argv[2] ?? join('..', 'shared', 'corpus', 'bin', 'busybox', 'busybox-static_1_1.35.0-4+deb12u1+b1_amd64');
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench:memory does)');
const mib = () => `${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`;

const pool = new AnalysisPool(1, loadConfig({}).analysisLimits);
await sleep(1000);
console.log(`idle, no thread yet: ${mib()}`);
const t0 = performance.now();
let out = await pool.run({
  path: file,
  binaryConfig: null,
  symbols: null,
  debugPath: null,
  maxBytes: 2 ** 31 - 1,
  capabilities: false,
  rulesDirs: [],
  sbom: false,
});
const done = performance.now();
const what = out.kind === 'done' ? `${out.result.functionCount} functions` : out.reason;
console.log(`analysed in ${Math.round(done - t0)} ms (${what}): ${mib()}`);
out = null;
for (const s of [1, 4, 6, 10, 30]) {
  await sleep(done + s * 1000 - performance.now());
  globalThis.gc();
  console.log(`+${s} s, result dropped: ${mib()}`);
}
await pool.close();
