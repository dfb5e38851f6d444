// npm run bench:api — cold start, and latency/throughput of GET status and GET list under 64 concurrent
// connections (autocannon), on SQLite and on PostgreSQL. Reference in the same run: the same server's
// unauthenticated /healthz (Fastify's floor for one route), and `node -e 0` for process start.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { api, fmt, startServer, uploadBuffer } from './bench-lib.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const ANALYSES = 200;
const KEY = 'bench-admin-key';
const PG_URL = process.env.BINLENS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The sample every benchmark analysis is of: a small real program (the load test measures the API, not the
 * engine, and 2 × 200 analyses of a large one would take minutes), or a bare ELF header without the corpus.
 */
function sampleBinary() {
  const dir = join(process.cwd(), '..', 'shared', 'corpus', 'bin', 'samples');
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

async function run(url, title, headers) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, title });
  if (r.non2xx || r.errors) throw new Error(`${title}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average };
}

async function backend(name, env) {
  const server = await startServer({ ...env, BINLENS_ADMIN_API_KEY: KEY });
  try {
    const bin = sampleBinary();
    const up = await uploadBuffer(server.baseUrl, KEY, bin, 'bench.bin');
    let id = 0;
    for (let i = 0; i < ANALYSES; i++) {
      const r = await api(server.baseUrl, KEY, 'POST', '/v2/analyses', {
        filename: `bench-${i}`,
        sha_256_hash: up.sha_256_hash,
      });
      id = r.data.analysis_id;
    }
    for (;;) {
      const s = await api(server.baseUrl, KEY, 'GET', `/v2/analyses/${id}/status`);
      if (s.data.analysis_status === 'Complete') break;
      await new Promise((r) => setTimeout(r, 50));
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

async function postgresDatabase() {
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`PostgreSQL not reachable at ${PG_URL} (${err.message}): PostgreSQL run skipped`);
    return null;
  }
  const db = `binlens_bench_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${db}`);
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${db}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await c.end();
    },
  };
}

const nodeStart = () => {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t0;
};

const results = [];
const dataDir = mkdtempSync(join(tmpdir(), 'binlens-bench-'));
try {
  results.push(await backend('sqlite', { BINLENS_DATA_DIR: join(dataDir, 'sqlite') }));
  const pgdb = await postgresDatabase();
  if (pgdb) {
    try {
      results.push(
        await backend('postgres', { BINLENS_DATA_DIR: join(dataDir, 'pg'), BINLENS_DATABASE_URL: pgdb.url }),
      );
    } finally {
      await pgdb.drop();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const nodeMs = nodeStart();
console.log(`\n${CONNECTIONS} connections, ${DURATION} s per route, ${ANALYSES} analyses in the database`);
console.log('backend   route                     p50 ms  p99 ms     req/s  vs /healthz');
for (const r of results) {
  for (const [route, m] of [
    ['GET /healthz (reference)', r.floor],
    ['GET /v2/analyses/{id}/status', r.status],
    ['GET /v2/analyses/list', r.list],
  ]) {
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
