// npm run bench:sbom — library identification on every corpus binary that links a known library
// statically: expected (from ../shared/corpus/manifest.json) vs found, name and version, and the time it
// takes against `strings -a` on the same file (the tool people grep version banners out of by hand).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBinary } from '../dist/src/engine/formats/parse.js';
import { identifyLibraries } from '../dist/src/engine/sbom/index.js';
import { extractStrings } from '../dist/src/engine/strings/index.js';

const corpus = path.resolve('..', 'shared', 'corpus');
if (!existsSync(path.join(corpus, 'manifest.json'))) {
  console.log('bench:sbom skipped: ../shared/corpus is not present');
  process.exit(0);
}

/** `1:1.2.13.dfsg-1` → `1.2.13` (Debian epoch, repack and revision dropped). */
const upstream = (v) =>
  v
    .replace(/^\d+:/, '')
    .replace(/[.+~]dfsg.*$|-[^-]*$/, '')
    .replace(/\+.*$/, '');

/** What each binary should be found to carry: its project, or the Debian packages it links. */
function expectedLibraries(b) {
  if (b.kind === 'library-build' || b.kind === 'prebuilt-debian') return [[b.project, upstream(b.version)]];
  if (b.kind === 'debian-static-link') {
    const names = { zlib1g: 'zlib', libbz2: 'bzip2', libzstd: 'zstd' };
    return b.version.split(';').map((p) => {
      const [pkg, version] = p.trim().split(/\s+/);
      return [names[pkg.replace(/-dev$/, '')] ?? pkg, upstream(version)];
    });
  }
  return [];
}

const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let expectedTotal = 0;
let named = 0;
let versioned = 0;
let extra = 0;
let ours = 0;
let theirs = 0;
console.log('binary'.padEnd(58), 'expected'.padEnd(34), 'found');
for (const b of manifest.binaries) {
  const want = expectedLibraries(b);
  if (want.length === 0) continue;
  const file = path.join(corpus, b.path);
  const bytes = readFileSync(file);
  const times = [];
  let found = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const image = parseBinary(bytes);
    found = identifyLibraries(extractStrings(image), image.libraries).filter((c) => c.linkage === 'static');
    times.push(performance.now() - t0);
  }
  const ref = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    execFileSync('strings', ['-a', file], { maxBuffer: 1 << 28 });
    ref.push(performance.now() - t0);
  }
  ours += median(times);
  theirs += median(ref);
  const got = new Map(found.map((c) => [c.name, c.version]));
  for (const [name, version] of want) {
    expectedTotal++;
    if (got.has(name)) named++;
    if (got.get(name) === version) versioned++;
  }
  extra += found.filter(
    (c) => !want.some(([n]) => n === c.name) && !(c.name === 'glibc' && b.project === 'busybox'),
  ).length;
  console.log(
    path.basename(b.path).slice(0, 57).padEnd(58),
    want
      .map(([n, v]) => `${n} ${v}`)
      .join(', ')
      .padEnd(34),
    found.map((c) => `${c.name} ${c.version ?? '(no version)'}`).join(', '),
  );
}
console.log(
  `\nlibraries expected ${expectedTotal}: named ${named} (${(named / expectedTotal).toFixed(3)}), ` +
    `name and version right ${versioned} (${(versioned / expectedTotal).toFixed(3)}); ` +
    `libraries found that the manifest does not list: ${extra} (glibc in static busybox counted as expected)`,
);
console.log(
  `time: parse + strings + checkers ${ours.toFixed(0)} ms in all (median of 3 per file), ` +
    `strings -a ${theirs.toFixed(0)} ms, ratio ${(ours / theirs).toFixed(2)}`,
);
