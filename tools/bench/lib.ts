// Shared by the benchmarks and tuning tools: the corpus beside the project, `binlens serve` started as a
// real process and the /v2 API it answers, the rows of a benchmark analysis in a store, scratch PostgreSQL
// databases, and small number helpers.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Static, TSchema } from '@sinclair/typebox';
import pg from 'pg';
import type { UploadEnvelope, UploadResponse } from '../../src/contracts/index.js';
import type { Store } from '../../src/store/index.js';

/** ../shared/corpus: the benchmarks run from the project root. */
export const CORPUS = resolve(process.cwd(), '..', 'shared', 'corpus');

/** One binary of the corpus manifest (the fields the tools read). */
export interface CorpusBinary {
  path: string;
  sha256: string;
  size: number;
  format: string;
  os: string;
  arch: string;
  bits: number;
  compiler: string;
  opt: string;
  project: string;
  version: string;
  kind: 'library-build' | 'prebuilt-debian' | 'debian-static-link' | 'sample';
  stripped: boolean;
  unstripped_counterpart: string | null;
  truth: string | null;
}

/** A ground-truth file (../shared/corpus/truth): the unstripped build's symbol table. */
export interface CorpusTruth {
  functions: {
    name: string;
    canonical_name?: string;
    /** Hexadecimal, `0x…`. */
    address: string;
    size: number;
    size_method: string;
    /** `|`-separated: runtime, library, driver, … */
    origin: string;
  }[];
}

/** A JSON data file of the corpus or the tools, typed by what the caller knows it holds. */
export const readJson = <T>(file: string | URL): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** The corpus's binaries, or null when ../shared/corpus is absent. */
export function corpusManifest(): CorpusBinary[] | null {
  const file = join(CORPUS, 'manifest.json');
  return existsSync(file) ? readJson<{ binaries: CorpusBinary[] }>(file).binaries : null;
}

export interface BenchServer {
  child: ChildProcess;
  baseUrl: string;
  coldStartMs: number;
  stop(): Promise<void>;
}

/** `binlens serve` on a free port; `coldStartMs` is spawn → listening, polled every 5 ms. */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/binlens.js', 'serve'], {
    env: { ...process.env, BINLENS_PORT: '0', BINLENS_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  let baseUrl: string | undefined;
  while (!(baseUrl = /listening on (http:\/\/\S+)/.exec(out)?.[1])) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const coldStartMs = performance.now() - t0;
  return {
    child,
    baseUrl,
    coldStartMs,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Peak resident memory of a process (VmHWM), in bytes. */
export function peakRssBytes(pid: number | undefined): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kb) * 1024;
}

/** A /v2 call; the body is what the route's `response` schema (a contracts/ envelope) says it sends. */
export async function api<R extends TSchema>(
  response: R,
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  body?: object,
): Promise<Static<R>> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Static<R>;
}

/** The `data` of an envelope, which a failed call leaves null. */
export function dataOf<D>(envelope: { data?: D | null; message?: string | null }, what: string): D {
  if (envelope.data == null) throw new Error(`${what}: ${envelope.message ?? 'no data'}`);
  return envelope.data;
}

/** POST /v2/upload of `buf` as a binary: the stored sample's hash, type and name. */
export async function uploadBuffer(
  baseUrl: string,
  key: string,
  buf: Uint8Array,
  name = 'sample.bin',
): Promise<Static<typeof UploadResponse>> {
  const form = new FormData();
  form.append('upload_file_type', 'BINARY');
  form.append('file', new Blob([buf]), name);
  const res = await fetch(`${baseUrl}/v2/upload`, { method: 'POST', headers: { authorization: key }, body: form });
  return dataOf((await res.json()) as Static<typeof UploadEnvelope>, 'upload');
}

/** An uploaded sample and its analysis, queued as a `bench` job: the rows a benchmark stores results against. */
export async function benchAnalysis(
  store: Store,
  userId: number,
  a: { sha256: string; size: number; filename: string; binaryName: string; modelName: string; payload: unknown },
): Promise<number> {
  await store.samples.recordUpload(
    { sha256: a.sha256, size: a.size, identity: '{}' },
    { user_id: userId, file_type: 'BINARY', filename: a.filename },
  );
  const { analysisId } = await store.analyses.create(
    {
      userId,
      sha256: a.sha256,
      binaryName: a.binaryName,
      binarySize: a.size,
      scope: 'PRIVATE',
      modelName: a.modelName,
      baseAddress: null,
      debugHash: null,
      config: '{}',
      tags: [],
    },
    { kind: 'bench', payload: a.payload, maxAttempts: 1 },
  );
  return analysisId;
}

/** A database created for one run, and how to measure and drop it. */
export interface ScratchDatabase {
  url: string;
  /** Bytes on disk. */
  size(): Promise<number>;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database `name`, created and later dropped through `adminUrl`; null, after telling
 * `unreachable` why, when no server answers there.
 */
export async function postgresDatabase(
  adminUrl: string,
  name: string,
  unreachable: (err: Error) => void,
  connectionTimeoutMillis?: number,
): Promise<ScratchDatabase | null> {
  const connect = async () => {
    const c = new pg.Client({
      connectionString: adminUrl,
      ...(connectionTimeoutMillis ? { connectionTimeoutMillis } : {}),
    });
    await c.connect();
    return c;
  };
  const admin = async (q: string) => {
    const c = await connect();
    try {
      return await c.query<Record<string, unknown>>(q);
    } finally {
      await c.end();
    }
  };
  let first: pg.Client;
  try {
    first = await connect();
  } catch (err) {
    unreachable(err instanceof Error ? err : new Error(String(err)));
    return null;
  }
  try {
    await first.query(`DROP DATABASE IF EXISTS ${name}`);
    await first.query(`CREATE DATABASE ${name}`);
  } finally {
    await first.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    size: async () => Number((await admin(`SELECT pg_database_size('${name}') AS n`)).rows[0]?.n),
    drop: async () => void (await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

export const fmt = (n: number, d = 1): string => n.toFixed(d);

/** The middle value (the upper one of an even count). */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
