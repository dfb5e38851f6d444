// `binlens serve` as a real process, failing to start: each failure names the setting that changes it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

const CLI = path.resolve('dist', 'src', 'cli', 'main.js');

/** Runs `binlens serve` to its exit (a start that succeeds is killed after 20 s and fails the test). */
function serve(env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill(), 20_000);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

describe('binlens serve: start-up failures', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'binlens-startup-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a port in use names BINLENS_PORT', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = (taken.address() as { port: number }).port;
      const r = await serve({ BINLENS_DATA_DIR: dataDir, BINLENS_PORT: String(port), BINLENS_HOST: '127.0.0.1' });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${port} is already in use: .*BINLENS_PORT`));
    } finally {
      taken.close();
    }
  });

  test('an unreachable PostgreSQL names BINLENS_DATABASE_URL, without the password', async () => {
    const r = await serve({ BINLENS_DATA_DIR: dataDir, BINLENS_DATABASE_URL: 'postgres://me:secret@127.0.0.1:1/x' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /cannot reach the database at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/x: .*BINLENS_DATABASE_URL/,
    );
    assert.doesNotMatch(r.stderr, /secret/);
  });
});
