// Runs every compiled test file (unit tests beside the code, suites in test/, tools' tests) with node's
// test runner: `npm test`, or `node dist/tools/build/run-tests.js <substring>…` for the matching files only.
// Node 20's runner takes no globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const files: string[] = [];
const walk = (dir: string) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.test.js')) files.push(p);
  }
};
walk('dist/src');
walk('dist/test');
walk('dist/tools');
const filter = process.argv.slice(2);
const selected = filter.length ? files.filter((f) => filter.some((s) => f.includes(s))) : files;
// node --test with no files would run every test it can find: a filter that matches nothing is a mistake.
if (selected.length === 0) {
  console.error(`no compiled test file matches ${filter.join(', ')}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...selected], { stdio: 'inherit' });
process.exit(r.status ?? 1);
