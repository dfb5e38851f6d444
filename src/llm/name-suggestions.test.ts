// Name suggestions through a loopback chat-completions server: the strict JSON answer is parsed, and only
// names that keep the code meaning what it did come back; the rest come back as rejected, with why.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  chatAnswer,
  loopbackProvider,
  startChatServer,
  type ChatServer,
} from '../../test/helpers/chat-completions-server.js';
import { llmFailure } from '../../test/helpers/llm-failure.js';
import { suggestNames } from './name-suggestions.js';
import type { LlmProvider } from './provider.js';

const FUNCTION_C = `int32_t fn_401136(void * a1, int32_t a2) {
  uint64_t rax_1 = 0, rcx_2 = 0;
  struct v128 xmm0_0 = {0};
  rcx_2 = (uint64_t)strlen((const char *)a1);
  xmm0_0.lo = rcx_2;
  if (rcx_2 > (uint64_t)a2) goto L1_40;
  rax_1 = xmm0_0.lo + 1ull; /* len_plus_one */
L1_40:;
  return (int32_t)rax_1;
}`;

let server: ChatServer;
let answer = '';
let provider: LlmProvider;
before(async () => {
  server = await startChatServer(() => ({ body: chatAnswer(answer) }));
  provider = loopbackProvider(server);
});
after(() => server.close());

const ask = (json: unknown) => {
  answer = typeof json === 'string' ? json : JSON.stringify(json);
  return suggestNames(provider, FUNCTION_C);
};

describe('suggestNames', () => {
  test('valid suggestions come back; the question quotes the function', async () => {
    const s = await ask({ function_name: 'bounded_length', variables: { a1: 'text', a2: 'limit', rax_1: 'result' } });
    assert.deepEqual(s, {
      functionName: 'bounded_length',
      variables: [
        { name: 'a1', suggestion: 'text' },
        { name: 'a2', suggestion: 'limit' },
        { name: 'rax_1', suggestion: 'result' },
      ],
      rejected: [],
    });
    const question = server.requests.at(-1)!.body.messages!;
    assert.ok(question[1]!.content.includes(FUNCTION_C));
  });

  test('the JSON may come in a code fence; a null function name and missing keys mean none', async () => {
    answer = 'Sure:\n```json\n{"function_name": null}\n```';
    assert.deepEqual(await suggestNames(provider, FUNCTION_C), { functionName: null, variables: [], rejected: [] });
  });

  const rejections: Array<[name: string | null, suggestion: string, reason: string]> = [
    [null, 'int', 'a C keyword'],
    ['a1', 'text buffer', 'not a C identifier'],
    ['a2', '2nd', 'not a C identifier'],
    ['rcx_2', '__len', 'reserved for the implementation (_X, __x)'],
    ['rax_1', 'size_t', 'spelled as a type (…_t names are reserved for types)'],
    ['xmm0_0', 'true', 'a macro of the standard headers'],
    ['a1', 'bl_text', "in the decompiler's own bl_ namespace"],
    ['a1', 'x'.repeat(65), 'longer than 64 characters'],
    ['strlen', 'string_length', 'not a variable of the function'],
    ['lo', 'low', 'not a variable of the function'],
    ['v128', 'vector', 'not a variable of the function'],
    ['L1_40', 'done', 'not a variable of the function'],
    ['len_plus_one', 'n', 'not a variable of the function'],
    ['a2', 'rcx_2', 'already used in the function'],
  ];
  for (const [name, suggestion, reason] of rejections)
    test(`${name ?? 'the function'} → ${JSON.stringify(suggestion).slice(0, 20)}: rejected as ${reason}`, async () => {
      const s = await ask(name === null ? { function_name: suggestion } : { variables: { [name]: suggestion } });
      assert.deepEqual(s.rejected, [{ name, suggestion, reason }]);
      assert.deepEqual(s.variables, []);
      assert.equal(s.functionName, null);
    });

  test('two variables suggested the same name: the first keeps it; the function’s new name is taken too', async () => {
    const s = await ask({ function_name: 'check', variables: { a1: 'value', a2: 'value', rax_1: 'check' } });
    assert.deepEqual(s.variables, [{ name: 'a1', suggestion: 'value' }]);
    assert.deepEqual(s.rejected, [
      { name: 'a2', suggestion: 'value', reason: 'suggested for another name too' },
      { name: 'rax_1', suggestion: 'check', reason: 'suggested for another name too' },
    ]);
  });

  const malformed: Array<[what: string, answer: unknown, message: RegExp]> = [
    ['prose', 'The function computes a length.', /the answer is not JSON/],
    ['an array', '["a1", "text"]', /the answer is not an object/],
    ['an unknown key', { function_name: 'f', comment: 'x' }, /unexpected keys comment/],
    ['a numeric function name', { function_name: 7 }, /function_name is neither a string nor null/],
    ['variables as a list', { variables: ['a1'] }, /variables is not an object/],
    ['a non-string name', { variables: { a1: 3 } }, /a variable name is not a string/],
  ];
  for (const [what, reply, message] of malformed)
    test(`an answer that is ${what} is a malformed-answer error`, async () => {
      const err = await llmFailure(ask(reply));
      assert.equal(err.failure, 'malformed-answer');
      assert.match(err.message, message);
    });
});
