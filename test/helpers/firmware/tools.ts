// Debian's tools that make the firmware readers' fixtures (mksquashfs, mkfs.jffs2, xz, lz4 …): the tests
// build their inputs with the real tools at run time and skip, saying which package to install, without them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The command's path, or null when it is not installed (also looks in /sbin and /usr/sbin). */
export function toolPath(command: string): string | null {
  for (const dir of ['', '/usr/sbin/', '/sbin/']) {
    const path = dir ? `${dir}${command}` : command;
    if (spawnSync('sh', ['-c', `command -v ${path}`], { encoding: 'utf8' }).status === 0)
      return dir ? path : spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  }
  return null;
}

/** Why a test cannot run here (`command` from Debian package `pkg` is missing), or null when it can. */
export function missingTool(command: string, pkg: string): string | null {
  return toolPath(command) ? null : `${command} is not installed (apt-get install ${pkg})`;
}

/** Runs a tool, failing the test with its standard error when it fails; returns its standard output. */
export function runTool(command: string, args: string[], options: { cwd?: string; input?: Uint8Array } = {}): Buffer {
  const path = toolPath(command) ?? command;
  return execFileSync(path, args, {
    cwd: options.cwd,
    input: options.input,
    maxBuffer: 1 << 30,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** A fresh temporary directory for the callback, removed afterwards. */
export function inTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'binlens-fw-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
