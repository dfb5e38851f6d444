// npm run bench:memory -- <file> — the process's RSS around one analysis of <file> in an AnalysisPool thread
// (one thread and the default limits, as `serve` builds it): idle, when the result arrives, then at intervals
// after the result is dropped and the main thread collected, while the idle thread retires.
// Default file: the largest corpus binary (busybox); docs/decisions.md has anthoscli and kubectl.
// Needs node --expose-gc (npm run bench:memory passes it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config/index.js';
import { AnalysisPool } from '../../src/jobs/index.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { benchAnalysis, CORPUS } from './lib.js';

const file = process.argv[2] ?? join(CORPUS, 'bin', 'busybox', 'busybox-static_1_1.35.0-4+deb12u1+b1_amd64');
const gc = globalThis.gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:memory does)');
const mib = () => `${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`;

// The thread stores the result, as in the service: a scratch SQLite database with one queued analysis.
const scratch = mkdtempSync(join(tmpdir(), 'binlens-bench-memory-'));
const databaseUrl = join(scratch, 'binlens.sqlite');
const driver = openDatabase(databaseUrl);
await driver.migrate();
const store = createStore(driver);
const user = await store.users.create({ username: 'b', email: 'b', role: 'USER', teamName: null, apiKeyHash: 'b' });
const analysisId = await benchAnalysis(store, user.id, {
  sha256: '0'.repeat(64),
  size: 0,
  filename: 'f',
  binaryName: 'f',
  modelName: 'binnet-0.7-x86-64-linux',
  payload: {},
});

const pool = new AnalysisPool(1, loadConfig({}).analysisLimits);
await sleep(1000);
console.log(`idle, no thread yet: ${mib()}`);
const t0 = performance.now();
let out: Awaited<ReturnType<AnalysisPool['run']>> | null = await pool.run({
  path: file,
  binaryConfig: null,
  symbols: null,
  debugPath: null,
  maxBytes: 2 ** 31 - 1,
  capabilities: false,
  rulesDirs: [],
  sbom: false,
  databaseUrl,
  analysisId,
});
const done = performance.now();
const what = out.kind === 'done' ? `${out.summary.functionCount} functions, stored` : out.reason;
console.log(`analysed in ${Math.round(done - t0)} ms (${what}): ${mib()}`);
// Dropped so that the collections below may free the result.
out = null;
for (const s of [1, 4, 6, 10, 30]) {
  await sleep(done + s * 1000 - performance.now());
  gc();
  console.log(`+${s} s, result dropped: ${mib()}`);
}
await pool.close();
await driver.close();
rmSync(scratch, { recursive: true, force: true });
