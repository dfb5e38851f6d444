// The service as a user runs it: a real process, the CLI beside it, a large streamed upload.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sampleProgram } from './helpers/engine/sample-program.js';
import { peakRss, startServer, type ServerProcess } from './helpers/server-process.js';

const ADMIN = 'process-test-admin-key';
const UPLOAD_BYTES = 512 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** A multipart upload whose file part is generated on the fly: the client never holds it whole. */
function streamingUpload(url: string, key: string, bytes: number, prefix = Buffer.alloc(0)) {
  const boundary = 'binlens-process-test';
  const hash = createHash('sha256');
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="upload_file_type"\r\n\r\nBINARY\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    hash.update(prefix);
    yield prefix;
    for (let sent = 0, i = 0; sent < bytes; sent += CHUNK, i++) {
      // A fresh buffer each time: a yielded one may still sit in the socket's queue.
      const chunk = Buffer.alloc(CHUNK, i & 0xff);
      chunk.writeUInt32LE(i, 0);
      hash.update(chunk);
      yield chunk;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return new Promise<{ status: number; body: string; sha256: string }>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { authorization: key, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, sha256: hash.digest('hex') }));
    });
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
}

/** Files in the upload staging area (partial uploads), in whatever process's folder. */
const stagedFiles = (dataDir: string) =>
  (existsSync(join(dataDir, 'blobs', 'tmp'))
    ? readdirSync(join(dataDir, 'blobs', 'tmp'), { recursive: true, withFileTypes: true })
    : []
  )
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe('binlens as a process', () => {
  let dataDir: string;
  let server: ServerProcess;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'binlens-proc-'));
    server = await startServer({ BINLENS_DATA_DIR: dataDir, BINLENS_ADMIN_API_KEY: ADMIN });
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('`npx binlens users create` works while the server runs, against the same data', () => {
    const r = spawnSync('npx', ['binlens', 'users', 'create', 'dave', '--team', 'blue'], {
      env: { ...process.env, BINLENS_DATA_DIR: dataDir, npm_config_yes: 'true' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const key = r.stdout.trim().split('\n').at(-1)!;
    assert.match(key, /^bl_[A-Za-z0-9_-]{43}$/);
    return fetch(`${server.baseUrl}/v2/users/me`, { headers: { authorization: key } })
      .then((res) => res.json() as Promise<{ data: { username: string } }>)
      .then((body) => assert.equal(body.data.username, 'dave'));
  });

  test(`a ${UPLOAD_BYTES / 2 ** 20} MiB upload is streamed: server memory stays flat`, async () => {
    const before = await peakRss(server.child.pid!);
    const res = await streamingUpload(`${server.baseUrl}/v2/upload`, ADMIN, UPLOAD_BYTES);
    assert.equal(res.status, 200, res.body);
    const data = JSON.parse(res.body).data as { sha_256_hash: string };
    assert.equal(data.sha_256_hash, res.sha256);
    const blob = join(dataDir, 'blobs', res.sha256.slice(0, 2), res.sha256.slice(2, 4), res.sha256);
    assert.equal(statSync(blob).size, UPLOAD_BYTES);
    const peak = await peakRss(server.child.pid!);
    // Buffering the body would add at least its size; streaming keeps growth to buffers and GC slack.
    assert.ok(peak - before < 96 * 2 ** 20, `peak RSS grew by ${((peak - before) / 2 ** 20).toFixed(1)} MiB`);
    rmSync(blob);
    assert.deepEqual(stagedFiles(dataDir), [], 'no temporary file is left behind');
  });
});

describe('a server killed mid-analysis', () => {
  let dataDir: string;
  let server: ServerProcess;
  const env = () => ({ BINLENS_DATA_DIR: dataDir, BINLENS_ADMIN_API_KEY: ADMIN, BINLENS_JOB_LEASE_MS: '1000' });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.baseUrl + path, {
      method,
      headers: { authorization: ADMIN, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as { data: Record<string, unknown> };
  };
  const statusOf = async (id: number) => (await call('GET', `/v2/analyses/${id}/status`)).data.analysis_status;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'binlens-crash-'));
    server = await startServer(env());
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('SIGKILL mid-upload: the partial file is removed when the server starts again', async () => {
    const upload = streamingUpload(`${server.baseUrl}/v2/upload`, ADMIN, 1024 * 2 ** 20).catch(() => null);
    const deadline = Date.now() + 20_000;
    const stagedBytes = () => stagedFiles(dataDir).reduce((n, f) => n + statSync(f).size, 0);
    while (stagedBytes() < 32 * 2 ** 20) {
      assert.ok(Date.now() < deadline, 'the upload never reached the staging area');
      await new Promise((r) => setTimeout(r, 10));
    }
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    await upload;
    assert.ok(stagedBytes() >= 32 * 2 ** 20, 'the killed upload left its partial file');
    server = await startServer(env());
    assert.deepEqual(stagedFiles(dataDir), []);
  });

  test('SIGKILL while Processing: after restart the job is taken over and completes', async () => {
    // A small program with 256 MiB appended (an overlay): hashing it keeps the analysis in Processing
    // for a while, and no model refuses it.
    const program = Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));
    const up = await streamingUpload(`${server.baseUrl}/v2/upload`, ADMIN, 256 * 2 ** 20, program);
    const created = await call('POST', '/v2/analyses', {
      filename: 'big.bin',
      sha_256_hash: JSON.parse(up.body).data.sha_256_hash,
    });
    const id = created.data.analysis_id as number;
    const deadline = Date.now() + 20_000;
    while ((await statusOf(id)) !== 'Processing') {
      assert.ok(Date.now() < deadline, 'analysis never reached Processing');
      await new Promise((r) => setTimeout(r, 10));
    }
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');

    server = await startServer(env());
    assert.equal(await statusOf(id), 'Processing');
    while ((await statusOf(id)) === 'Processing' || (await statusOf(id)) === 'Queued') {
      assert.ok(Date.now() < deadline + 20_000, 'analysis never finished after the restart');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(await statusOf(id), 'Complete');
    const logs = (await call('GET', `/v2/analyses/${id}/logs`)).data.logs as string;
    assert.match(
      logs,
      /Analysis started \(attempt 1 of 6\)[\s\S]*Analysis started \(attempt 2 of 6\)[\s\S]*Analysis complete/,
    );
  });
});
