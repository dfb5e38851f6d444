// npm run bench:analyze — the whole static analysis (every stage: parse, recovery, names, strings,
// instructions, vectors, capabilities with the shipped rules, SBOM) of each stripped corpus binary and of
// the machine's libcrypto, each in a fresh process (analyze-one.ts), beside `objdump -d` on the same file in
// the same run. Also peak memory per MB of input, the time per stage summed over the files, and upload →
// Complete through the API for the largest file. BENCH_FILTER=<substring> limits the files.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { AnalysisEnvelopes } from '../../src/contracts/index.js';
import type { AnalyzeOneRecord } from './analyze-one.js';
import { api, CORPUS, corpusManifest, dataOf, fmt, median, startServer, uploadBuffer } from './lib.js';

const files: string[] = [];
const manifest = corpusManifest();
if (manifest) {
  for (const b of manifest) if (b.stripped) files.push(join(CORPUS, b.path));
} else console.log(`${CORPUS} absent: measuring the machine's libraries only`);
for (const lib of ['/usr/lib/x86_64-linux-gnu/libcrypto.so.3', '/usr/lib/aarch64-linux-gnu/libcrypto.so.3']) {
  if (existsSync(lib)) files.push(lib);
}
const filter = process.env.BENCH_FILTER ?? '';

/** Median of three runs, like the engine's warm figure (analyze-one.ts). */
const time = (cmd: string, args: string[]) => {
  const runs: number[] = [];
  let ok = true;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
    runs.push(performance.now() - t0);
    ok &&= r.status === 0;
  }
  return { ms: median(runs), ok };
};
// The multi-architecture objdump (binutils-multiarch) reads every corpus architecture.
const objdump = 'objdump';
// The compiled child beside this compiled file.
const analyzeOne = fileURLToPath(new URL('./analyze-one.js', import.meta.url));

let totalCold = 0;
let totalEngine = 0;
let totalRecovery = 0;
let totalObjdump = 0;
let totalMb = 0;
let worstRssPerMb = 0;
let worstLargeRatio = 0;
const stageTotals: Record<string, number> = {};
console.log(
  '\nfile                                                     MB   engine ms  objdump ms  ratio  functions  RSS MiB/MB  recovery ms  ratio',
);
for (const f of files.filter((x) => x.includes(filter))) {
  const run = spawnSync(process.execPath, [analyzeOne, f], { encoding: 'utf8' });
  if (run.status !== 0) {
    console.log(`${f}: analysis failed: ${run.stderr.slice(0, 300)}`);
    continue;
  }
  const r = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as AnalyzeOneRecord;
  const od = time(objdump, ['-d', f]);
  const mb = statSync(f).size / 1e6;
  const name = f.split('/').pop() ?? f;
  totalEngine += r.ms;
  totalRecovery += r.recoveryMs;
  totalCold += r.coldMs;
  totalObjdump += od.ms;
  totalMb += mb;
  // Per MB means something only where the input outweighs the process itself (~130 MiB with the rules).
  if (mb >= 1) worstRssPerMb = Math.max(worstRssPerMb, r.maxRssMiB / mb);
  if (mb >= 1 && od.ok) worstLargeRatio = Math.max(worstLargeRatio, r.ms / od.ms);
  for (const [stage, ms] of Object.entries(r.stages)) stageTotals[stage] = (stageTotals[stage] ?? 0) + ms;
  console.log(
    `${name.slice(0, 54).padEnd(54)} ${fmt(mb, 2).padStart(5)} ${fmt(r.ms, 0).padStart(10)} ${(od.ok ? fmt(od.ms, 0) : 'n/a').padStart(11)}  ${od.ok ? fmt(r.ms / od.ms, 2).padStart(5) : '  n/a'}  ${String(r.functions).padStart(9)}  ${fmt(r.maxRssMiB / mb, 1).padStart(10)}  ${fmt(r.recoveryMs, 0).padStart(11)}  ${od.ok ? fmt(r.recoveryMs / od.ms, 2).padStart(5) : '  n/a'}`,
  );
}
// "recovery" stops where the similarity vectors start: parse, disassembly, recovery, names, strings.
console.log(
  `recovery (parse … strings, before the instructions stage): ${fmt(totalRecovery / 1000, 2)} s warm, ratio ${fmt(totalRecovery / totalObjdump, 2)} to objdump -d`,
);
console.log(
  `stages (warm, summed): ${Object.entries(stageTotals)
    .map(([s, ms]) => `${s} ${fmt(ms / 1000, 2)} s`)
    .join(', ')}`,
);
console.log(
  `worst ratio on a file of 1 MB or more: ${fmt(worstLargeRatio, 2)}; worst peak RSS on those ${fmt(worstRssPerMb, 1)} MiB/MB`,
);
console.log(
  `all: ${fmt(totalMb, 1)} MB, engine ${fmt(totalEngine / 1000, 2)} s warm (${fmt(totalCold / 1000, 2)} s cold), objdump -d ${fmt(totalObjdump / 1000, 2)} s, ratio ${fmt(totalEngine / totalObjdump, 2)} warm, ${fmt(totalCold / totalObjdump, 2)} cold`,
);

// Upload → Complete through the API, for the largest file measured.
const largest = files.filter((x) => x.includes(filter)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
if (largest) {
  const KEY = 'bench-analyze-key';
  const dataDir = `/tmp/binlens-bench-analyze-${process.pid}`;
  const server = await startServer({ BINLENS_DATA_DIR: dataDir, BINLENS_ADMIN_API_KEY: KEY });
  try {
    const t0 = performance.now();
    const up = await uploadBuffer(server.baseUrl, KEY, readFileSync(largest), 'largest');
    const created = await api(AnalysisEnvelopes.create, server.baseUrl, KEY, 'POST', '/v2/analyses', {
      filename: 'largest',
      sha_256_hash: up.sha_256_hash,
      analysis_config: { generate_capabilities: true, generate_sbom: true },
    });
    const id = dataOf(created, 'create analysis').analysis_id;
    let status = '';
    while (status !== 'Complete' && status !== 'Error') {
      await sleep(50);
      const s = await api(AnalysisEnvelopes.status, server.baseUrl, KEY, 'GET', `/v2/analyses/${id}/status`);
      status = dataOf(s, 'status').analysis_status;
    }
    console.log(
      `API: ${largest.split('/').pop()} (${fmt(statSync(largest).size / 1e6, 2)} MB) upload → ${status} in ${fmt((performance.now() - t0) / 1000, 2)} s`,
    );
  } finally {
    await server.stop();
    spawnSync('rm', ['-rf', dataDir]);
  }
}
