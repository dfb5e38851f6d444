import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `binlens serve` as a real process on a free port and waits until it listens. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['bin/binlens.js', 'serve'], {
    env: { ...process.env, BINLENS_PORT: '0', BINLENS_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 20_000;
  let match: RegExpMatchArray | null = null;
  while (!(match = out.match(/listening on (http:\/\/[^\s]+)/))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    child,
    baseUrl: match[1]!,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Peak resident memory of a process (VmHWM), in bytes. */
export async function peakRss(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1]);
  return kb * 1024;
}
