// Shared by the benchmark scripts: start `binlens serve` as a real process and talk to it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export async function startServer(env) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/binlens.js', 'serve'], {
    env: { ...process.env, BINLENS_PORT: '0', BINLENS_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let m;
  while (!(m = out.match(/listening on (http:\/\/\S+)/))) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const coldStartMs = performance.now() - t0;
  return {
    child,
    baseUrl: m[1],
    coldStartMs,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export const peakRssBytes = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)[1]) * 1024;

export async function api(baseUrl, key, method, path, body) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}

export async function uploadBuffer(baseUrl, key, buf, name = 'sample.bin') {
  const form = new FormData();
  form.append('upload_file_type', 'BINARY');
  form.append('file', new Blob([buf]), name);
  const res = await fetch(`${baseUrl}/v2/upload`, { method: 'POST', headers: { authorization: key }, body: form });
  return (await res.json()).data;
}

export const fmt = (n, d = 1) => n.toFixed(d);
