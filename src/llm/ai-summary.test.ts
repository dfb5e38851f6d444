// The AI summary through a loopback chat-completions server: what the question carries and what comes back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  chatAnswer,
  loopbackProvider,
  startChatServer,
  type ChatServer,
} from '../../test/helpers/chat-completions-server.js';
import { llmFailure } from '../../test/helpers/llm-failure.js';
import { aiSummary } from './ai-summary.js';
import type { LlmProvider } from './provider.js';

const FUNCTION_C = 'int32_t f(void * a1) {\n  return (int32_t)strlen((const char *)a1);\n}';

let server: ChatServer;
let answer = '';
let provider: LlmProvider;
before(async () => {
  server = await startChatServer(() => ({ body: chatAnswer(answer) }));
  provider = loopbackProvider(server);
});
after(() => server.close());

describe('aiSummary', () => {
  test('asks with the function and the analysis facts, answers the model’s text trimmed', async () => {
    answer = '\n  Returns the length of the string it is given.  \n';
    const facts = ['calls strlen', 'called by main'];
    const text = await aiSummary(provider, FUNCTION_C, { functionName: 'f', facts });
    assert.equal(text, 'Returns the length of the string it is given.');
    const req = server.requests.at(-1)!.body;
    assert.equal(req.max_tokens, 320);
    const user = req.messages![1]!.content;
    assert.ok(user.startsWith('Function f.'));
    assert.ok(user.includes('- calls strlen\n- called by main'));
    assert.ok(user.includes('```c\n' + FUNCTION_C + '\n```'));
  });

  test('a function longer than a question quotes is cut at a line end, saying how much is left out', async () => {
    answer = 'A long function.';
    const long = Array.from({ length: 2000 }, (_, i) => `  x_${i} = x_${i} + 1;`).join('\n');
    await aiSummary(provider, long, { functionName: 'g' });
    const user = server.requests.at(-1)!.body.messages![1]!.content;
    assert.ok(user.length < 16_500, `${user.length}`);
    assert.match(user, /\n\/\* … \d+ more lines not shown \*\/\n```$/);
    assert.ok(!user.includes('What the analysis found'));
  });

  test('an empty answer is a malformed-answer error', async () => {
    answer = '   ';
    const err = await llmFailure(aiSummary(provider, FUNCTION_C, { functionName: 'f' }));
    assert.equal(err.failure, 'malformed-answer');
    assert.match(err.message, /summary of f: the model answered nothing/);
  });
});
