// Refinement on the decompiler's real output: a program gcc builds here is decompiled by the engine, and
// each function's text and unit go to refineDecompilation as the ai-decompilation jobs will pass them.
// A model (the loopback server) that answers a function's own text must see it kept (the text is in the unit
// exactly once, and the unit passes the check); a readable rewrite is kept, a broken one is not.
// Skips without gcc.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeDecompilation, type Decompilation } from '../../src/engine/index.js';
import { openLlmProvider, refineDecompilation, type LlmProvider } from '../../src/llm/index.js';
import { chatAnswer, startChatServer, type ChatServer } from '../helpers/chat-completions-server.js';
import { hasCommand } from '../helpers/commands.js';

const PROGRAM = `
int sq(int x) { return x * x; }
int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += sq(a[i]); return s; }
int main(int argc, char **argv) { int a[3] = {argc, 2, 3}; (void)argv; return sum(a, 3); }
`;
const hasGcc = hasCommand('gcc');

describe('refineDecompilation on decompiled C', { skip: hasGcc ? false : 'gcc is not installed' }, () => {
  let dir: string;
  let unit: Decompilation;
  let server: ChatServer;
  let provider: LlmProvider;
  let answer = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-refine-'));
    writeFileSync(join(dir, 'p.c'), PROGRAM);
    execFileSync('gcc', ['-O1', '-fno-inline', 'p.c', '-o', 'p'], { cwd: dir });
    unit = await analyzeDecompilation(readFileSync(join(dir, 'p')), {}, ['sum']);
    server = await startChatServer(() => ({ body: chatAnswer(answer) }));
    provider = openLlmProvider({
      kind: 'chat-completions',
      url: server.url,
      apiKey: null,
      model: 'm',
      timeoutMs: 5000,
    })!;
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('each decompiled function answered with its own text is kept', async () => {
    const decompiled = unit.functions.filter((f) => f.text !== null);
    assert.deepEqual(decompiled.map((f) => f.name).sort(), ['sq', 'sum']);
    for (const f of decompiled) {
      answer = '```c\n' + f.text + '\n```';
      const r = await refineDecompilation(provider, { name: f.name, functionC: f.text!, unitSource: unit.source });
      assert.deepEqual(r, { refined: true, code: f.text }, f.name);
    }
  });

  test('a readable sum is kept; one that no longer compiles is not', async () => {
    const sum = unit.functions.find((f) => f.name === 'sum')!;
    const signature = sum.text!.slice(0, sum.text!.indexOf('{'));
    const params = [...signature.matchAll(/(\w+)\s*(?=[,)])/g)].map((m) => m[1]!);
    assert.equal(params.length, 2, signature);
    const [array, count] = params;
    const readable = `${signature}{
  const int32_t *values = (const int32_t *)${array};
  int32_t total = 0;
  for (int32_t i = 0; i < (int32_t)${count}; i++)
    total += sq(values[i]);
  return total;
}`;
    answer = readable;
    const input = { name: 'sum', functionC: sum.text!, unitSource: unit.source };
    assert.deepEqual(await refineDecompilation(provider, input), { refined: true, code: readable });
    answer = readable.replace('total += sq(values[i]);', 'total += sq(values[i], 2);');
    const broken = await refineDecompilation(provider, input);
    assert.equal(broken.refined, false);
    assert.equal(broken.code, sum.text);
    assert.match(
      broken.refined ? '' : broken.reason,
      /^the refined function does not compile: line 5 of the refined function: too many arguments to function 'sq'/,
    );
  });
});
