// npm run bench:sbom — library identification on every corpus binary that links a known library
// statically: expected (from ../shared/corpus/manifest.json) vs found, name and version, and the time it
// takes against `strings -a` on the same file (the tool people grep version banners out of by hand).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBinary } from '../../src/engine/formats/parse.js';
import { identifyLibraries } from '../../src/engine/sbom/index.js';
import { extractStrings } from '../../src/engine/strings/index.js';
import { CORPUS, corpusManifest, median, type CorpusBinary } from './lib.js';

const manifest = corpusManifest();
if (!manifest) {
  console.log('bench:sbom skipped: ../shared/corpus is not present');
  process.exit(0);
}

/** `1:1.2.13.dfsg-1` → `1.2.13` (Debian epoch, repack and revision dropped). */
const upstream = (v: string) =>
  v
    .replace(/^\d+:/, '')
    .replace(/[.+~]dfsg.*$|-[^-]*$/, '')
    .replace(/\+.*$/, '');

/** Debian library packages by the name the checkers give their library. */
const DEBIAN_NAMES: Record<string, string> = { zlib1g: 'zlib', libbz2: 'bzip2', libzstd: 'zstd' };

/** What each binary should be found to carry: its project, or the Debian packages it links. */
function expectedLibraries(b: CorpusBinary): [name: string, version: string][] {
  if (b.kind === 'library-build' || b.kind === 'prebuilt-debian') return [[b.project, upstream(b.version)]];
  if (b.kind === 'debian-static-link') {
    return b.version.split(';').map((p) => {
      const [pkg = '', version = ''] = p.trim().split(/\s+/);
      return [DEBIAN_NAMES[pkg.replace(/-dev$/, '')] ?? pkg, upstream(version)];
    });
  }
  return [];
}

let expectedTotal = 0;
let named = 0;
let versioned = 0;
let extra = 0;
let ours = 0;
let theirs = 0;
console.log('binary'.padEnd(58), 'expected'.padEnd(34), 'found');
for (const b of manifest) {
  const want = expectedLibraries(b);
  if (want.length === 0) continue;
  const file = path.join(CORPUS, b.path);
  const bytes = readFileSync(file);
  const times: number[] = [];
  let found: ReturnType<typeof identifyLibraries> = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const image = parseBinary(bytes);
    found = identifyLibraries(extractStrings(image), image.libraries).filter((c) => c.linkage === 'static');
    times.push(performance.now() - t0);
  }
  const ref: number[] = [];
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
