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
const hasGcc = (() => {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

interface Problem {
  index: number;
  c_func: string;
  c_test: string;
}

const includes = (c: string) => c.split('\n').filter((l) => /^\s*#\s*include/.test(l));

// Floats and fabs (0), strings and malloc (12), loops over arrays (24), a string built char by char (36).
for (const index of [0, 12, 24, 36])
  for (const level of ['O0', 'O2'])
    test(`decompile: HumanEval-Decompile problem ${index} at -${level} recompiles with its test and passes`, async (t) => {
      if (!existsSync(BENCH) || !hasGcc) return t.skip(`${BENCH} or gcc absent`);
      const p = (JSON.parse(readFileSync(BENCH, 'utf8')) as { problems: Problem[] }).problems.find(
        (x) => x.index === index,
      )!;
      const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
      try {
        writeFileSync(join(dir, 'func.c'), p.c_func);
        writeFileSync(join(dir, 'stub.c'), 'int main(void) { return 0; }\n');
        execFileSync('gcc', [`-${level}`, '-o', 'func', 'func.c', 'stub.c', '-lm'], { cwd: dir, stdio: 'ignore' });
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
