// npm run bench:decompile-corpus — every function of the corpus's lz4 1.10.0 and sqlite 3.50.4 x86-64 builds
// (stripped; gcc -O0..-O3, clang -O0/-O2/-O3) decompiled into one translation unit per binary, which gcc
// compiles (`gcc -c`, no warnings): per binary the share that decompiles, the share that compiles (errors
// attributed to the definition they fall in), failures by cause, gotos per function (and the functions
// with irreducible flow, the only ones that should have any, apart) and lines per function beside the
// source's lines per function (from the build's -g twin where the corpus has one), and the time
// per function (p50/p95; recovery and signatures apart) beside the whole binary's. Ghidra's decompiler core
// needs 230 ms per function (p50) on this machine (the figure; Ghidra cannot run here).
// BENCH_FILTER=<substring> limits the binaries.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decompile } from '../../src/engine/decompile/index.js';
import { recoverBinaryFunctions } from '../../src/engine/index.js';
import { CORPUS, corpusManifest, fmt } from './lib.js';

const manifest = corpusManifest();
if (!manifest) {
  console.log(`${CORPUS} absent: nothing to measure`);
  process.exit(0);
}
const filter = process.env.BENCH_FILTER ?? '';
const chosen = manifest.filter(
  (b) =>
    b.stripped &&
    b.arch === 'x86_64' &&
    b.os === 'linux' &&
    /(lz4-1\.10\.0|sqlite-3\.50\.4)_/.test(b.path) &&
    b.path.includes(filter),
);
const work = mkdtempSync(join(tmpdir(), 'binlens-decompile-corpus-'));
const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

console.log(
  'binary                                        functions  decompiled  compiled  gotos/fn  irreducible  gotos there  gotos elsewhere  lines/fn  src lines/fn  p50 ms  p95 ms  whole s',
);
const causes = new Map<string, number>();
let all = { n: 0, decompiled: 0, compiled: 0, gotosElsewhere: 0 };
for (const b of chosen) {
  const bytes = readFileSync(join(CORPUS, b.path));
  const t0 = performance.now();
  const { image, graph, decoders } = await recoverBinaryFunctions(bytes, {});
  const out = decompile(
    image,
    graph,
    decoders,
    graph.functions.map((_, i) => i),
  );
  const whole = (performance.now() - t0) / 1000;
  const file = join(work, 'unit.c');
  writeFileSync(file, out.source);
  const cc = spawnSync('gcc', ['-c', '-w', '-fmax-errors=0', file, '-o', join(work, 'unit.o')], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  // Each error line falls in the definition that starts last before it.
  const lines = out.source.split('\n');
  const starts: [number, string][] = [];
  lines.forEach((l, i) => {
    const m = /^\S.*\b(\w+)\(.*\) \{$/.exec(l);
    if (m) starts.push([i + 1, m[1]!]);
  });
  const broken = new Set<string>();
  for (const l of cc.stderr.split('\n')) {
    const m = /unit\.c:(\d+):\d+: error: (.*)/.exec(l);
    if (!m) continue;
    const at = Number(m[1]);
    const owner = starts.filter(([s]) => s <= at).pop()?.[1];
    if (owner && !broken.has(owner)) {
      broken.add(owner);
      const k = `compile: ${m[2]!.replace(/‘[^’]*’/g, '…')}`;
      causes.set(k, (causes.get(k) ?? 0) + 1);
    }
  }
  const ok = out.functions.filter((f) => f.text !== null);
  for (const f of out.functions) if (f.error) causes.set(f.error, (causes.get(f.error) ?? 0) + 1);
  const compiled = ok.filter((f) => !broken.has(f.name)).length;
  const gotosIn = (fs: typeof ok) => fs.reduce((n, f) => n + (f.text!.match(/\bgoto\b/g)?.length ?? 0), 0);
  const gotos = gotosIn(ok);
  const irreducible = ok.filter((f) => f.irreducible);
  const gotosThere = gotosIn(irreducible);
  all.gotosElsewhere += gotos - gotosThere;
  const lineCount = ok.reduce((n, f) => n + f.text!.split('\n').length, 0);
  const times = out.functions.map((f) => f.ms).sort((x, y) => x - y);
  const n = out.functions.length;
  const twin = sourceLinesPerFunction(join(CORPUS, b.path.replace(/_stripped$/, 'g')));
  const source = twin === null ? '-' : fmt(twin);
  all = { ...all, n: all.n + n, decompiled: all.decompiled + ok.length, compiled: all.compiled + compiled };
  console.log(
    `${b.path.split('/').pop()!.padEnd(45)} ${String(n).padStart(9)} ${fmt((100 * ok.length) / n).padStart(10)}% ${fmt((100 * compiled) / n).padStart(8)}% ${fmt(gotos / Math.max(1, ok.length)).padStart(9)} ${String(irreducible.length).padStart(12)} ${String(gotosThere).padStart(12)} ${String(gotos - gotosThere).padStart(16)} ${fmt(lineCount / Math.max(1, ok.length)).padStart(9)} ${source.padStart(13)} ${fmt(quantile(times, 0.5), 1).padStart(7)} ${fmt(quantile(times, 0.95), 1).padStart(7)} ${fmt(whole, 1).padStart(8)}`,
  );
}
rmSync(work, { recursive: true, force: true });
console.log(
  `all: ${all.n} functions, ${fmt((100 * all.decompiled) / Math.max(1, all.n))}% decompile, ${fmt((100 * all.compiled) / Math.max(1, all.n))}% compile (target 95%), ${all.gotosElsewhere} gotos outside irreducible flow (target 0)`,
);
console.log('failures by cause:');
for (const [k, v] of [...causes].sort((x, y) => y[1] - x[1]).slice(0, 12))
  console.log(`  ${String(v).padStart(5)}  ${k}`);
console.log('reference: Ghidra decompiler core 230 ms per function (p50)');
console.log(
  "src lines/fn: distinct source lines (inlined ones included) the -g twin's line table maps into each function (objdump --dwarf=decodedline)",
);

/**
 * Source lines per function of a -g build: the distinct (file, line) rows of its line table that fall in
 * each function's symbol range, averaged over the functions that have any; null without the build.
 */
function sourceLinesPerFunction(path: string): number | null {
  if (!existsSync(path)) return null;
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  const functions = [...run('nm', ['-S', '--defined-only', path]).matchAll(/^([0-9a-f]+) ([0-9a-f]+) [tT] \S+$/gm)]
    .map((m) => ({
      start: parseInt(m[1]!, 16),
      end: parseInt(m[1]!, 16) + parseInt(m[2]!, 16),
      lines: new Set<string>(),
    }))
    .sort((a, b) => a.start - b.start);
  for (const m of run('objdump', ['--dwarf=decodedline', path]).matchAll(/^(\S+)\s+(\d+)\s+0x([0-9a-f]+)/gm)) {
    const at = parseInt(m[3]!, 16);
    let lo = 0;
    let hi = functions.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (functions[mid]!.start <= at) lo = mid;
      else hi = mid - 1;
    }
    const f = functions[lo];
    if (f && at >= f.start && at < f.end) f.lines.add(`${m[1]}:${m[2]}`);
  }
  const counted = functions.filter((f) => f.lines.size);
  return counted.reduce((n, f) => n + f.lines.size, 0) / Math.max(1, counted.length);
}
