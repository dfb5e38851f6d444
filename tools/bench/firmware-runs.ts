// The two unpackers of the firmware benchmark (firmware.ts), each run as a process of its own and measured
// the same way from outside: wall time from spawn to exit, and peak RSS as GNU time reports it (the largest
// of the process and the helpers it waited for: node alone; binwalk's unsquashfs, 7z, tsk_recover …).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { UnpackRequest } from '../../src/jobs/firmware-process.js';
import type { FirmwareLimits } from '../../src/shared/index.js';
import type { UnpackOneRecord } from './firmware-unpack-one.js';

export const GNU_TIME = '/usr/bin/time';

export interface ToolRun {
  ms: number;
  peakRssMiB: number;
  /** Why the run failed (exit status, time-out), or null. */
  failure: string | null;
}

/** Past this a run is killed and counted a failure: the whole matrix has ~5 minutes. */
const RUN_TIMEOUT_MS = 120_000;
/** The heap jobs/handlers/firmware.ts gives the unpacking process. */
const HEAP_MB = 4096;

function timed(cmd: string, args: readonly string[], timeFile: string): ToolRun & { stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(GNU_TIME, ['-f', '%M', '-o', timeFile, cmd, ...args], {
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t0;
  // GNU time writes "Command exited with non-zero status N" before the figure when the command failed.
  const kib = existsSync(timeFile) ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) : NaN;
  const failure =
    r.error || r.signal
      ? `${r.signal ?? r.error?.message}${ms >= RUN_TIMEOUT_MS ? ` (killed after ${RUN_TIMEOUT_MS / 1000} s)` : ''}`
      : r.status !== 0
        ? `exit ${r.status}: ${r.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`
        : null;
  return { ms, peakRssMiB: kib / 1024, failure, stdout: r.stdout ?? '' };
}

const unpackOne = fileURLToPath(new URL('./firmware-unpack-one.js', import.meta.url));

/** Binlens's unpacker on `image`, into `outputDir`, within the service's limits. */
export function runBinlens(
  image: { file: string; size: number; password: string | null },
  outputDir: string,
  limits: FirmwareLimits,
): ToolRun & { record: UnpackOneRecord | null } {
  mkdirSync(outputDir, { recursive: true });
  const request: UnpackRequest = {
    path: image.file,
    outputDir,
    password: image.password,
    // As the job sizes the byte budget: max(the configured bytes, the ratio × the image).
    maxBytes: Math.max(limits.maxBytes, limits.maxRatio * image.size),
    maxFiles: limits.maxFiles,
    maxDepth: limits.maxDepth,
    wallMs: limits.wallMs,
  };
  const run = timed(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, unpackOne, JSON.stringify(request)],
    `${outputDir}.time`,
  );
  const last = run.stdout.trim().split('\n').pop();
  const record = run.failure === null && last ? (JSON.parse(last) as UnpackOneRecord) : null;
  return { ...run, record };
}

/** binwalk's own version line ("Binwalk v2.3.3"). */
export const binwalkVersion = (): string =>
  /Binwalk v\S+/.exec(spawnSync('binwalk', ['--help'], { encoding: 'utf8' }).stdout ?? '')?.[0] ??
  'binwalk (version unknown)';

/** Whether binwalk can be run in a mount namespace of its own (root, or CAP_SYS_ADMIN). */
export const canUnshare = (): boolean => spawnSync('unshare', ['--mount', 'true']).status === 0;

/**
 * `binwalk -e -M` (recursive extraction) on `image` into `outputDir`. Its extraction rules fall back to
 * `mount` for squashfs, cramfs, ext and romfs when the extraction tool fails; as root that would leave
 * mounts behind, so it runs in a private mount namespace when it can, where they end with it (and what was
 * only mounted is not in the output tree, so not counted).
 */
export function runBinwalk(image: string, outputDir: string, unshare: boolean): ToolRun {
  mkdirSync(outputDir, { recursive: true });
  const binwalk = ['binwalk', '-q', '-e', '-M', '--run-as=root', '-C', outputDir, image];
  const [cmd, ...args] = unshare ? ['unshare', '--mount', '--propagation', 'private', ...binwalk] : binwalk;
  const { ms, peakRssMiB, failure } = timed(cmd!, args, `${outputDir}.time`);
  return { ms, peakRssMiB, failure };
}
