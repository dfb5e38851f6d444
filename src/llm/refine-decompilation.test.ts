// Refinement end to end: the question goes to a loopback chat-completions server, whose answer is put in
// place of the deterministic definition and checked with gcc; a version that compiles is kept, anything
// else falls back to the deterministic text with the reason. Skips without gcc.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  chatAnswer,
  loopbackProvider,
  startChatServer,
  type ChatServer,
  type Reply,
} from '../../test/helpers/chat-completions-server.js';
import { hasCommand } from '../../test/helpers/commands.js';
import type { LlmProvider } from './provider.js';
import { refineDecompilation, type RefinedDecompilation } from './refine-decompilation.js';

const hasGcc = hasCommand('gcc');

/** sum as the decompiler writes it: registers as variables, the loop as gotos. */
const SUM = `int32_t sum(void * a1, int32_t a2) {
  uint64_t rdx_2 = 0, rcx_2 = 0, rsi_2 = 0;
  rcx_2 = (uint64_t)(0u);
  if ((uint8_t)((int32_t)(a2) <= 0)) {
    goto L3_1152;
  }
  rdx_2 = (uint64_t)(uintptr_t)a1;
  rsi_2 = (rdx_2 + ((uint64_t)(int64_t)(a2) * 4ull));
L2_1142:;
  rcx_2 = (uint64_t)((uint32_t)(rcx_2) + (uint32_t)(*(uint32_t *)(uintptr_t)(rdx_2)));
  rdx_2 = (rdx_2 + 4ull);
  if ((uint8_t)(rdx_2 != rsi_2)) {
    goto L2_1142;
  }
L3_1152:;
  return (int32_t)(uint32_t)(rcx_2);
}`;

const UNIT = `#include <stdint.h>

#include <stdio.h>

int32_t sum(void * a1, int32_t a2);
int32_t main(int32_t a1, void * a2);

${SUM}

int32_t main(int32_t a1, void * a2) {
  _Alignas(16) uint8_t bl_frame[64];
  *(uint32_t *)(bl_frame + 0) = (uint32_t)a1;
  *(uint32_t *)(bl_frame + 4) = 2u;
  printf("%d\\n", (int)sum(bl_frame, 2));
  return 0;
}
`;

const READABLE = `int32_t sum(void * a1, int32_t a2) {
  const uint32_t *values = a1;
  uint32_t total = 0;
  for (int32_t i = 0; i < a2; i++) {
    total += values[i];
  }
  return (int32_t)total;
}`;

let server: ChatServer;
let next: Reply;
let provider: LlmProvider;
before(async () => {
  server = await startChatServer(() => next);
  provider = loopbackProvider(server);
});
after(() => server.close());

const refine = (answer: string, unitSource = UNIT) => {
  next = { body: chatAnswer(answer) };
  return refineDecompilation(provider, { name: 'sum', functionC: SUM, unitSource });
};
const fallback = (r: RefinedDecompilation): string => {
  assert.equal(r.refined, false);
  assert.equal(r.code, SUM);
  return r.refined ? '' : r.reason;
};

describe('refineDecompilation', { skip: hasGcc ? false : 'gcc is not installed' }, () => {
  test('a version that compiles in the unit is kept, and the question carries the deterministic text', async () => {
    const r = await refine('Here it is:\n```c\n' + READABLE + '\n```\nIt sums the array.');
    assert.deepEqual(r, { refined: true, code: READABLE });
    const question = server.requests.at(-1)!.body.messages!;
    assert.deepEqual(
      question.map((m) => m.role),
      ['system', 'user'],
    );
    assert.ok(question[1]!.content.includes(SUM));
    assert.ok(server.requests.at(-1)!.body.max_tokens! >= SUM.length / 4);
  });

  const rejected: Array<[name: string, answer: string, reason: RegExp]> = [
    [
      'an undeclared variable',
      READABLE.replace('total += values[i]', 'totl += values[i]'),
      /^the refined function does not compile: line 5 of the refined function: 'totl' undeclared/,
    ],
    [
      'a changed prototype',
      READABLE.replace('int32_t sum(void * a1', 'int64_t sum(void * a1'),
      /^the refined function does not compile: line 1 of the refined function: conflicting types for 'sum'/,
    ],
    [
      'a call to a function the unit does not declare',
      READABLE.replace('total += values[i]', 'total += rotl32(values[i], 1)'),
      /^the refined function calls rotl32, which the unit does not declare$/,
    ],
    [
      'an #include (gcc would read and quote any file)',
      '#include "/etc/passwd"\n' + READABLE,
      /^the refined function has preprocessor directives$/,
    ],
    [
      'a directive behind a comment',
      '/* x */ #define uint32_t int\n' + READABLE,
      /^the refined function has preprocessor directives$/,
    ],
    ['a digraph directive', '%:include <stdio.h>\n' + READABLE, /^the refined function has preprocessor directives$/],
    ['another function', READABLE.replaceAll('sum', 'total_of'), /^the answer is not a definition of sum$/],
    ['prose only', 'I cannot improve this function.', /^the answer is not a definition of sum$/],
    ['nothing', '', /^the model answered no code$/],
  ];
  for (const [name, answer, reason] of rejected)
    test(`${name}: the deterministic text, with why`, async () => {
      assert.match(fallback(await refine(answer)), reason);
    });

  test('errors the deterministic unit already has elsewhere do not count against the refinement', async () => {
    const broken = UNIT.replace('return 0;\n}', 'return undefined_in_main;\n}');
    assert.deepEqual(await refine(READABLE, broken), { refined: true, code: READABLE });
    // …but new ones do: a prototype change breaks the forward declaration, not only the function.
    const changed = READABLE.replace('int32_t a2)', 'int64_t a2)');
    assert.match(fallback(await refine(changed, broken)), /conflicting types for 'sum'/);
  });

  test('the model failing leaves the deterministic text, with the model’s error', async () => {
    next = { status: 503, body: { error: { message: 'loading model' } } };
    const r = await refineDecompilation(provider, { name: 'sum', functionC: SUM, unitSource: UNIT });
    assert.match(fallback(r), /^the model gave no answer: .*answered 503: "loading model"$/);
  });

  test('a function not in the unit exactly once, or too long, is not sent to the model', async () => {
    const asked = server.requests.length;
    const notThere = await refineDecompilation(provider, { name: 'sum', functionC: SUM, unitSource: 'int x;' });
    assert.match(fallback(notThere), /not in the unit exactly once/);
    const twice = await refineDecompilation(provider, { name: 'sum', functionC: SUM, unitSource: UNIT + SUM });
    assert.match(fallback(twice), /not in the unit exactly once/);
    const long = SUM.replace('{\n', '{\n' + '  ;\n'.repeat(4000));
    const tooLong = await refineDecompilation(provider, { name: 'sum', functionC: long, unitSource: long });
    assert.equal(tooLong.refined, false);
    assert.match(tooLong.refined ? '' : tooLong.reason, /is longer than a refinement takes \(12000\)/);
    assert.equal(server.requests.length, asked);
  });

  test('gcc past its time limit, or absent, leaves the deterministic text', async () => {
    next = { body: chatAnswer(READABLE) };
    const slow = await refineDecompilation(
      provider,
      { name: 'sum', functionC: SUM, unitSource: UNIT },
      { compileTimeoutMs: 1 },
    );
    assert.match(fallback(slow), /^the refined function could not be checked: gcc took longer than 1 ms$/);
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const r = await refineDecompilation(provider, { name: 'sum', functionC: SUM, unitSource: UNIT });
      assert.match(fallback(r), /could not be checked: gcc is not installed/);
    } finally {
      process.env.PATH = path;
    }
  });
});
