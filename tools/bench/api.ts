// npm run bench:api — cold start, and latency/throughput of GET status and GET list under 64 concurrent
// connections (autocannon), on SQLite and on PostgreSQL. Reference in the same run: the same server's
// unauthenticated /healthz (Fastify's floor for one route), and `node -e 0` for process start.
// BENCH_SECONDS (default 10) per route; BINLENS_BENCH_PG_URL the PostgreSQL admin connection.
//
// npm run bench:api -- --busy — the same routes while the server is busy: one large binary
// (BENCH_LARGE_BINARY, default the largest ELF among a few well-known system files, ≥ 100 MB) and 20 corpus
// analyses queued, two analysed at a time. 32 connections on status and 32 on list at once from then until
// the large analysis has ended (stored included); p50/p99/max and timeouts (autocannon's 10 s), how the
// large analysis ended (Complete, or Error with the limit it hit) and the server's peak RSS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Instance } from 'autocannon';
import { AnalysisEnvelopes } from '../../src/contracts/index.js';
import {
  api,
  CORPUS,
  corpusManifest,
  dataOf,
  fmt,
  peakRssBytes,
  postgresDatabase,
  startServer,
  uploadBuffer,
} from './lib.js';

const BUSY = process.argv.includes('--busy');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const ANALYSES = 200;
const KEY = 'bench-admin-key';
const PG_URL = process.env.BINLENS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The sample every benchmark analysis is of: a small real program (the load test measures the API, not the
 * engine, and 2 × 200 analyses of a large one would take minutes), or a bare ELF header without the corpus.
 */
function sampleBinary(): Buffer {
  const dir = join(CORPUS, 'bin', 'samples');
  try {
    const f = readdirSync(dir).find((n) => n.includes('linux-x86_64') && n.endsWith('_stripped'));
    if (f) return readFileSync(join(dir, f));
  } catch {
    /* corpus absent */
  }
  const elf = Buffer.alloc(0x200);
  elf.write('\x7fELF\x02\x01\x01', 0, 'latin1');
  elf.writeUInt16LE(2, 16); // ET_EXEC
  elf.writeUInt16LE(62, 18); // x86-64
  return elf;
}

interface RouteFigures {
  p50: number;
  p99: number;
  rps: number;
}

async function run(url: string, title: string, headers: Record<string, string>): Promise<RouteFigures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, title });
  if (r.non2xx || r.errors) throw new Error(`${title}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average };
}

/** A /v2 client of one server with the admin key. */
const client = (baseUrl: string) => ({
  status: async (id: number) =>
    dataOf(await api(AnalysisEnvelopes.status, baseUrl, KEY, 'GET', `/v2/analyses/${id}/status`), 'status')
      .analysis_status,
  create: async (filename: string, sha256: string) =>
    api(AnalysisEnvelopes.create, baseUrl, KEY, 'POST', '/v2/analyses', { filename, sha_256_hash: sha256 }),
});

interface Measured {
  name: string;
  coldStartMs: number;
  floor: RouteFigures;
  status: RouteFigures;
  list: RouteFigures;
}

async function backend(name: string, env: Record<string, string>): Promise<Measured> {
  const server = await startServer({ ...env, BINLENS_ADMIN_API_KEY: KEY });
  try {
    const v2 = client(server.baseUrl);
    const bin = sampleBinary();
    const up = await uploadBuffer(server.baseUrl, KEY, bin, 'bench.bin');
    let id = 0;
    for (let i = 0; i < ANALYSES; i++) {
      id = dataOf(await v2.create(`bench-${i}`, up.sha_256_hash), 'create analysis').analysis_id;
    }
    for (;;) {
      if ((await v2.status(id)) === 'Complete') break;
      await sleep(50);
    }
    const h = { authorization: KEY };
    const floor = await run(`${server.baseUrl}/healthz`, 'healthz', {});
    const status = await run(`${server.baseUrl}/v2/analyses/${id}/status`, 'status', h);
    const list = await run(`${server.baseUrl}/v2/analyses/list?limit=20`, 'list', h);
    return { name, coldStartMs: server.coldStartMs, floor, status, list };
  } finally {
    await server.stop();
  }
}

/** The largest of a few binaries a developer machine tends to have (or BENCH_LARGE_BINARY). */
function largeBinary(): { path: string; size: number } {
  const candidates = process.env.BENCH_LARGE_BINARY
    ? [process.env.BENCH_LARGE_BINARY]
    : [
        ...['stable', 'nightly'].flatMap((t) => {
          const dir = join(process.env.HOME ?? '/root', `.rustup/toolchains/${t}-x86_64-unknown-linux-gnu/lib`);
          return existsSync(dir)
            ? readdirSync(dir)
                .filter((f) => f.startsWith('librustc_driver'))
                .map((f) => join(dir, f))
            : [];
        }),
        '/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1',
        '/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1',
        '/usr/local/bin/terraform',
        process.execPath,
      ];
  const found = candidates.filter((f) => existsSync(f)).map((f) => ({ path: f, size: statSync(f).size }));
  found.sort((a, b) => b.size - a.size);
  if (!found[0]) throw new Error('no large binary: set BENCH_LARGE_BINARY');
  return found[0];
}

/** Up to `n` distinct corpus binaries, smallest first (they queue behind the large one). */
function corpusBinaries(n: number): string[] {
  return (corpusManifest() ?? [])
    .filter((b) => b.stripped)
    .sort((a, b) => a.size - b.size)
    .slice(0, n)
    .map((b) => join(CORPUS, b.path));
}

interface LoadFigures extends RouteFigures {
  max: number;
  timeouts: number;
  non2xx: number;
  seconds: number;
}

/** Load on one route until `stop` is called; then its latency figures. */
function loadUntilStopped(url: string, title: string, headers: Record<string, string>, connections: number) {
  let instance: Instance | undefined;
  const done = new Promise<LoadFigures>((resolve, reject) => {
    instance = autocannon({ url, connections, duration: 3600, headers, title, timeout: 10 }, (err, r) =>
      err
        ? reject(err)
        : resolve({
            p50: r.latency.p50,
            p99: r.latency.p99,
            max: r.latency.max,
            rps: r.requests.average,
            timeouts: r.timeouts,
            non2xx: r.non2xx,
            seconds: r.duration,
          }),
    );
  });
  return { stop: () => (instance?.stop(), done) };
}

interface BusyMeasured {
  name: string;
  large: { path: string; size: number };
  corpus: number;
  status: LoadFigures;
  list: LoadFigures;
  end: string;
  seconds: number;
  last: string | undefined;
  rss: number;
}

async function busyBackend(name: string, env: Record<string, string>): Promise<BusyMeasured> {
  // Two analysis threads on two cores: the API competes with both for CPU.
  const server = await startServer({ ...env, BINLENS_ADMIN_API_KEY: KEY, BINLENS_WORKERS: '2' });
  try {
    const v2 = client(server.baseUrl);
    const large = largeBinary();
    const up = await uploadBuffer(server.baseUrl, KEY, readFileSync(large.path), 'large.bin');
    const largeId = dataOf(await v2.create('large.bin', up.sha_256_hash), 'create analysis').analysis_id;
    const started = performance.now();
    let lastId = largeId;
    // The 20 smallest corpus binaries the server takes (a build it has no model for answers 400).
    let accepted = 0;
    for (const path of corpusBinaries(Infinity)) {
      if (accepted === 20) break;
      const u = await uploadBuffer(server.baseUrl, KEY, readFileSync(path), `corpus-${accepted}`);
      const created = await v2.create(`corpus-${accepted}`, u.sha_256_hash);
      if (!created.data) continue;
      lastId = created.data.analysis_id;
      accepted++;
    }
    // Load from the moment everything is queued until the large analysis has ended (stored included).
    const h = { authorization: KEY };
    const loads = [
      loadUntilStopped(`${server.baseUrl}/v2/analyses/${lastId}/status`, 'status', h, CONNECTIONS / 2),
      loadUntilStopped(`${server.baseUrl}/v2/analyses/list?limit=20`, 'list', h, CONNECTIONS / 2),
    ] as const;
    let end: string;
    for (;;) {
      end = await v2.status(largeId);
      if (end === 'Complete' || end === 'Error') break;
      await sleep(1000);
    }
    const [status, list] = await Promise.all([loads[0].stop(), loads[1].stop()]);
    const seconds = (performance.now() - started) / 1000;
    const logs = await api(AnalysisEnvelopes.logs, server.baseUrl, KEY, 'GET', `/v2/analyses/${largeId}/logs`);
    const last = dataOf(logs, 'logs').logs.trim().split('\n').at(-1);
    return {
      name,
      large,
      corpus: accepted,
      status,
      list,
      end,
      seconds,
      last,
      rss: peakRssBytes(server.child.pid),
    };
  } finally {
    await server.stop();
  }
}

const nodeStart = () => {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t0;
};

/** Each backend measured by `measure`: SQLite, then PostgreSQL where one is reachable. */
async function measureBackends<M>(measure: (name: string, env: Record<string, string>) => Promise<M>): Promise<M[]> {
  const results: M[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'binlens-bench-'));
  try {
    results.push(await measure('sqlite', { BINLENS_DATA_DIR: join(dataDir, 'sqlite') }));
    const pgdb = await postgresDatabase(PG_URL, `binlens_bench_${process.pid}`, (err) =>
      console.log(`PostgreSQL not reachable at ${PG_URL} (${err.message}): PostgreSQL run skipped`),
    );
    if (pgdb) {
      try {
        results.push(
          await measure('postgres', { BINLENS_DATA_DIR: join(dataDir, 'pg'), BINLENS_DATABASE_URL: pgdb.url }),
        );
      } finally {
        await pgdb.drop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

if (BUSY) {
  const results = await measureBackends(busyBackend);
  const r0 = results[0]!;
  console.log(
    `\nbusy: ${r0.corpus} corpus analyses and ${r0.large.path} (${fmt(r0.large.size / 2 ** 20, 0)} MiB) queued; ${CONNECTIONS} connections (32 status + 32 list) until the large analysis ended`,
  );
  console.log('backend   route                         p50 ms  p99 ms  max ms     req/s  timeouts  non-2xx');
  for (const r of results)
    for (const [route, m] of [
      ['GET /v2/analyses/{id}/status', r.status],
      ['GET /v2/analyses/list', r.list],
    ] as const)
      console.log(
        `${r.name.padEnd(9)} ${route.padEnd(29)} ${fmt(m.p50, 0).padStart(6)} ${fmt(m.p99, 0).padStart(7)} ${fmt(m.max, 0).padStart(7)} ${fmt(m.rps, 0).padStart(9)} ${String(m.timeouts).padStart(9)} ${String(m.non2xx).padStart(8)}`,
      );
  for (const r of results)
    console.log(
      `${r.name}: under load for ${fmt(r.status.seconds, 0)} s; the large analysis ended ${r.end} after ${fmt(r.seconds, 0)} s (last log line: ${r.last}); server peak RSS ${fmt(r.rss / 2 ** 20, 0)} MiB`,
    );
  process.exit(0);
}

const results = await measureBackends(backend);
const nodeMs = nodeStart();
console.log(`\n${CONNECTIONS} connections, ${DURATION} s per route, ${ANALYSES} analyses in the database`);
console.log('backend   route                     p50 ms  p99 ms     req/s  vs /healthz');
for (const r of results) {
  for (const [route, m] of [
    ['GET /healthz (reference)', r.floor],
    ['GET /v2/analyses/{id}/status', r.status],
    ['GET /v2/analyses/list', r.list],
  ] as const) {
    console.log(
      `${r.name.padEnd(9)} ${route.padEnd(28)} ${fmt(m.p50, 0).padStart(4)} ${fmt(m.p99, 0).padStart(7)} ${fmt(m.rps, 0).padStart(9)}  ${fmt(m.rps / r.floor.rps, 2).padStart(6)}x`,
    );
  }
}
for (const r of results) {
  console.log(
    `cold start (${r.name}): ${fmt(r.coldStartMs, 0)} ms to listening; reference \`node -e 0\`: ${fmt(nodeMs, 0)} ms (${fmt(r.coldStartMs / nodeMs, 1)}x)`,
  );
}
