// Builds the checkout when it was never built or its TypeScript changed since the last build, and does
// nothing otherwise: `npm install` (prepare), `npm start` and every `binlens …` (also through npx, which
// installs this checkout into its cache and runs prepare) pay for a build only when there is one to do.
// Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** Sources a build reads: TypeScript, and the web interface's TSX, CSS and page. */
const SOURCE = /\.(ts|tsx|css|html)$/;

/** The latest change to a source under `dir`; the generated API types of the interface are an output. */
function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (SOURCE.test(e.name) && e.name !== 'schema.d.ts') newest = Math.max(newest, mtime(p));
  }
  return newest;
}

/** Builds when needed; exits the process with the build's status when the build fails. */
export function buildIfStale() {
  // The build's last step stamps it (tools/build/web.ts): a failed or unfinished build stays stale.
  const built = mtime(join(root, 'dist', '.built'));
  const sources = ['src', 'tools', 'web'].map((d) => newestSource(join(root, d)));
  if (built !== 0 && sources.every((t) => t <= built)) return;
  console.error(built === 0 ? 'binlens: building…' : 'binlens: sources changed since the last build: building…');
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildIfStale();
