// The decompiler against HumanEval-Decompile problems (../shared/decompile-bench): compiled at -O0 and -O2,
// func0 decompiled from the linked executable alone, its C compiled with the problem's own test main and
// run — the test passes only if the output computes what the machine code does. Skipped with a message
// when the benchmark or gcc is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { decompile } from './index.js';

const BENCH = resolve(process.cwd(), '..', 'shared', 'decompile-bench', 'problems.json');
const has = (cc: string) => {
  try {
    execFileSync(cc, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasGcc = has('gcc');
const hasCross = has('aarch64-linux-gnu-gcc');

interface Problem {
  index: number;
  c_func: string;
  c_test: string;
}

const includes = (c: string) => c.split('\n').filter((l) => /^\s*#\s*include/.test(l));

// Floats and fabs (0), strings and malloc (12), loops over arrays (24), a string built char by char (36);
// a palindrome built from a string (10); x86-64, and AArch64 built with the cross compiler (the test still runs here, as the protocol says).
const cases = [
  ...[0, 12, 24, 36].flatMap((index) => ['O0', 'O2'].map((level) => ({ index, level, cc: 'gcc' }))),
  // -O3 vectorises problem 160's loop (paddd, pshufd): the SSE lanes as standard C.
  { index: 160, level: 'O3', cc: 'gcc' },
  ...[10, 24].map((index) => ({ index, level: 'O2', cc: 'aarch64-linux-gnu-gcc' })),
];
for (const { index, level, cc } of cases)
  test(`decompile: HumanEval-Decompile problem ${index} built by ${cc} -${level} recompiles with its test and passes`, async (t) => {
    if (!existsSync(BENCH) || !hasGcc) return t.skip(`${BENCH} or gcc absent`);
    if (cc !== 'gcc' && !hasCross) return t.skip(`${cc} absent`);
    const p = (JSON.parse(readFileSync(BENCH, 'utf8')) as { problems: Problem[] }).problems.find(
      (x) => x.index === index,
    )!;
    const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
    try {
      writeFileSync(join(dir, 'func.c'), p.c_func);
      writeFileSync(join(dir, 'stub.c'), 'int main(void) { return 0; }\n');
      execFileSync(cc, [`-${level}`, '-o', 'func', 'func.c', 'stub.c', '-lm'], { cwd: dir, stdio: 'ignore' });
      const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'func')), {});
      const start = image.symbols.find((s) => s.name === 'func0')!.vaddr;
      const out = decompile(image, graph, decoders, [graph.functions.findIndex((f) => f.start === start)]);
      assert.deepEqual(
        out.functions.filter((f) => f.error),
        [],
        'every function decompiles',
      );
      assert.ok(!out.source.includes('#include <assert.h>'), 'standard headers of its own only');
      const body = p.c_test
        .split('\n')
        .filter((l) => !/^\s*#\s*include/.test(l))
        .join('\n');
      writeFileSync(join(dir, 'test.c'), [...includes(p.c_func), ...includes(p.c_test), out.source, body].join('\n'));
      execFileSync('gcc', ['test.c', '-o', 'test', '-lm'], { cwd: dir, stdio: 'pipe' });
      execFileSync('timeout', ['10', './test'], { cwd: dir, stdio: 'ignore' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
