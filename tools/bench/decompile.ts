// npm run bench:decompile — HumanEval-Decompile re-executability (../shared/decompile-bench, its README's
// protocol): each problem's func.c compiled at -O0..-O3 and linked with a stub main, func0 decompiled from
// that executable alone, the output compiled with the original test's main and run (pass: exit 0 within
// 10 s). Prints the pass share per level and overall, the recompile share and decompile time per function,
// beside the reference figures the README gives (Ghidra cannot run here). BENCH_TARGET=aarch64 for the
// second target (inputs built with aarch64-linux-gnu-gcc; the test is built and run on this host, as the
// protocol says);
// BENCH_FILTER=<index,…> limits problems, BENCH_LEVELS=O0,O2 levels, BENCH_VERBOSE=1 prints each failure.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { recoverBinaryFunctions } from '../../src/engine/index.js';
import { decompile } from '../../src/engine/decompile/index.js';
import { fmt } from './lib.js';

const run = promisify(execFile);
const BENCH = resolve(process.cwd(), '..', 'shared', 'decompile-bench');
if (!existsSync(join(BENCH, 'problems.json'))) {
  console.log(`${BENCH} absent: nothing to measure`);
  process.exit(0);
}

interface Problem {
  index: number;
  function: string;
  c_func: string;
  c_test: string;
}
const problems = (JSON.parse(readFileSync(join(BENCH, 'problems.json'), 'utf8')) as { problems: Problem[] }).problems;
const filter = process.env.BENCH_FILTER?.split(',').map(Number);
const levels = (process.env.BENCH_LEVELS ?? 'O0,O1,O2,O3').split(',');
const verbose = process.env.BENCH_VERBOSE === '1';
const target = process.env.BENCH_TARGET ?? 'x86_64';
const cc = target === 'aarch64' ? 'aarch64-linux-gnu-gcc' : 'gcc';

const work = mkdtempSync(join(tmpdir(), 'binlens-decompile-'));
writeFileSync(join(work, 'stub.c'), 'int main(void) { return 0; }\n');
const includes = (c: string) => c.split('\n').filter((l) => /^\s*#\s*include/.test(l));
const withoutIncludes = (c: string) =>
  c
    .split('\n')
    .filter((l) => !/^\s*#\s*include/.test(l))
    .join('\n');

interface Outcome {
  level: string;
  recompiled: boolean;
  passed: boolean;
  ms: number;
  why: string;
}

async function attempt(p: Problem, level: string): Promise<Outcome> {
  const dir = join(work, `${p.index}-${level}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'func.c'), p.c_func);
  await run(cc, [`-${level}`, '-c', 'func.c', '-o', 'func.o'], { cwd: dir });
  await run(cc, [`-${level}`, '-o', 'func', 'func.o', join(work, 'stub.c'), '-lm'], { cwd: dir });
  const t0 = performance.now();
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'func')), {});
  const sym = image.symbols.find((s) => s.name === p.function);
  const fi = sym ? graph.functions.findIndex((f) => f.start === sym.vaddr) : -1;
  const out = fi >= 0 ? decompile(image, graph, decoders, [fi]) : null;
  const ms = performance.now() - t0;
  const failed = out?.functions.find((f) => f.error);
  if (!out || failed)
    return {
      level,
      recompiled: false,
      passed: false,
      ms,
      why: failed ? `${failed.name}: ${failed.error}` : 'func0 not found',
    };
  const test = [...includes(p.c_func), ...includes(p.c_test), out.source, withoutIncludes(p.c_test)].join('\n');
  writeFileSync(join(dir, 'test.c'), test);
  try {
    await run('gcc', ['test.c', '-o', 'test', '-lm'], { cwd: dir });
  } catch (err) {
    const first =
      String((err as { stderr?: string }).stderr ?? err)
        .split('\n')
        .find((l) => l.includes('error')) ?? '';
    return { level, recompiled: false, passed: false, ms, why: `compile: ${first.trim()}` };
  }
  try {
    await run('timeout', ['10', './test'], { cwd: dir });
    return { level, recompiled: true, passed: true, ms, why: '' };
  } catch (err) {
    return { level, recompiled: true, passed: false, ms, why: `run: exit ${(err as { code?: number }).code}` };
  }
}

const outcomes: Outcome[] = [];
const jobs = problems
  .filter((p) => !filter || filter.includes(p.index))
  .flatMap((p) => levels.map((level) => ({ p, level })));
// Two at a time: the compilers and the tests run in their own processes.
for (let i = 0; i < jobs.length; i += 2) {
  const batch = await Promise.all(jobs.slice(i, i + 2).map(({ p, level }) => attempt(p, level)));
  batch.forEach((o, k) => {
    outcomes.push(o);
    if (verbose && !o.passed) console.log(`${jobs[i + k]!.p.index} ${o.level}: ${o.why}`);
  });
}
rmSync(work, { recursive: true, force: true });

const share = (list: Outcome[], f: (o: Outcome) => boolean) => (list.length ? list.filter(f).length / list.length : 0);
console.log(`target ${target}: ${jobs.length} cases`);
console.log('level   pass   recompile');
for (const level of levels) {
  const list = outcomes.filter((o) => o.level === level);
  console.log(
    `${level.padEnd(6)} ${fmt(
      share(list, (o) => o.passed),
      4,
    )}  ${fmt(
      share(list, (o) => o.recompiled),
      4,
    )}`,
  );
}
console.log(
  `all    ${fmt(
    share(outcomes, (o) => o.passed),
    4,
  )}  ${fmt(
    share(outcomes, (o) => o.recompiled),
    4,
  )}`,
);
const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
console.log(
  `decompile time per function (recovery included): p50 ${fmt(pick(0.5), 1)} ms, p95 ${fmt(pick(0.95), 1)} ms`,
);
console.log(
  'reference (all 164 problems, x86-64): Ghidra 11.0.3 as published 0.2012; with a typedef prelude 0.6082; LLM4Decompile-9B-v2 0.649',
);
