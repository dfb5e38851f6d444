import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CDiagnostic {
  /** 1-based line of the checked source; 0 when gcc named none. */
  line: number;
  severity: 'error' | 'warning';
  message: string;
}

/** What gcc said about the source, or why it could not say. */
export type CSyntaxCheck = { ran: true; diagnostics: CDiagnostic[] } | { ran: false; reason: string };

const FILE = 'unit.c';
/**
 * Syntax and types only (no code generated), as standard C11 as the decompiler writes it; the C locale keeps
 * gcc's messages English with ASCII quotes, and without carets each diagnostic is one line.
 */
const GCC_ARGS = ['-fsyntax-only', '-std=c11', '-fdiagnostics-color=never', '-fno-diagnostics-show-caret', FILE];
/** gcc's diagnostics of a unit that is mostly broken run to a few hundred KB; more is cut, not parsed. */
const MAX_OUTPUT_BYTES = 1 << 20;

const DIAGNOSTIC = /^unit\.c:(\d+):(?:\d+:)? (error|fatal error|warning): (.*)$/;

/**
 * Checks C source with `gcc -fsyntax-only -std=c11`, in a temporary directory removed after, as an async
 * child process (the event loop only waits) killed after `timeoutMs`. The source may come from a model, so
 * callers keep preprocessor directives out of what they did not write: gcc would read any file an #include
 * named and quote it in its messages.
 */
export async function checkCSyntax(
  source: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<CSyntaxCheck> {
  const dir = await mkdtemp(join(tmpdir(), 'binlens-c-check-'));
  try {
    await writeFile(join(dir, FILE), source);
    const result = await new Promise<{ status: number; stderr: string } | { failed: string }>((resolve) => {
      execFile(
        'gcc',
        GCC_ARGS,
        {
          cwd: dir,
          env: { ...process.env, LC_ALL: 'C' },
          timeout: options.timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: MAX_OUTPUT_BYTES,
          signal: options.signal,
          encoding: 'utf8',
        },
        (err, _stdout, stderr) => {
          const e = err as (NodeJS.ErrnoException & { killed?: boolean; signal?: string | null }) | null;
          if (!e) resolve({ status: 0, stderr });
          else if (typeof e.code === 'number') resolve({ status: e.code, stderr });
          else if (e.code === 'ENOENT') resolve({ failed: 'gcc is not installed (the compile check needs it)' });
          else if (e.name === 'AbortError') resolve({ failed: 'the check was cancelled' });
          else if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') resolve({ status: 1, stderr });
          else if (e.killed) resolve({ failed: `gcc took longer than ${options.timeoutMs} ms` });
          else resolve({ failed: `gcc failed: ${e.message}` });
        },
      );
    });
    if ('failed' in result) return { ran: false, reason: result.failed };
    const diagnostics: CDiagnostic[] = [];
    for (const text of result.stderr.split('\n')) {
      const m = DIAGNOSTIC.exec(text);
      if (m)
        diagnostics.push({ line: Number(m[1]), severity: m[2] === 'warning' ? 'warning' : 'error', message: m[3]! });
    }
    // A failure gcc states on no line of the source (a crash, a driver error) still fails the check.
    if (result.status !== 0 && !diagnostics.some((d) => d.severity === 'error')) {
      const said = result.stderr.trim().split('\n')[0] || `gcc exited with status ${result.status}`;
      diagnostics.push({ line: 0, severity: 'error', message: said });
    }
    return { ran: true, diagnostics };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
