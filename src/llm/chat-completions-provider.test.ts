// The chat-completions client against a loopback OpenAI-compatible server: what it sends, and each way an
// answer can fail (slow, cancelled, error status, broken or oversized body, nothing listening, a redirect),
// each as one request: the client never retries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  chatAnswer,
  startChatServer,
  type ChatServer,
  type Reply,
} from '../../test/helpers/chat-completions-server.js';
import { llmFailure } from '../../test/helpers/llm-failure.js';
import type { ChatCompletionsSettings } from '../shared/llm-settings.js';
import type { LlmFailure } from './llm-error.js';
import { openLlmProvider } from './open-provider.js';
import type { ChatMessage } from './provider.js';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Answer briefly.' },
  { role: 'user', content: 'int f(void) { return 1; }' },
];

let server: ChatServer;
let next: Reply;
before(async () => {
  server = await startChatServer(() => next);
});
after(() => server.close());

const settings = (over: Partial<ChatCompletionsSettings> = {}): ChatCompletionsSettings => ({
  kind: 'chat-completions',
  url: server.url,
  apiKey: 'sk-loopback',
  model: 'coder-7b',
  timeoutMs: 10_000,
  ...over,
});

describe('chat-completions provider', () => {
  test('posts the conversation to <url>/chat/completions with the key, model and token limit', async () => {
    next = { body: chatAnswer('It returns 1.') };
    const before = server.requests.length;
    const provider = openLlmProvider(settings())!;
    assert.equal(provider.description, `chat completions at ${server.url} (model coder-7b)`);
    assert.equal(await provider.complete(MESSAGES, { maxTokens: 64 }), 'It returns 1.');
    const [req] = server.requests.slice(before);
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, '/v1/chat/completions');
    assert.equal(req!.headers.authorization, 'Bearer sk-loopback');
    assert.equal(req!.headers['content-type'], 'application/json');
    assert.deepEqual(req!.body, { model: 'coder-7b', messages: MESSAGES, max_tokens: 64, temperature: 0 });
  });

  test('without a key no Authorization header is sent', async () => {
    next = { body: chatAnswer('ok') };
    await openLlmProvider(settings({ apiKey: null }))!.complete(MESSAGES, { maxTokens: 8 });
    assert.equal(server.requests.at(-1)!.headers.authorization, undefined);
  });

  test('a slow answer ends in a time-out when the call’s time runs out, not when the server answers', async () => {
    next = { body: chatAnswer('late'), delayMs: 5000 };
    const started = Date.now();
    const err = await llmFailure(openLlmProvider(settings())!.complete(MESSAGES, { maxTokens: 8, timeoutMs: 200 }));
    const took = Date.now() - started;
    assert.equal(err.failure, 'timeout');
    assert.equal(err.permanent, false);
    assert.match(err.message, /no complete answer within 200 ms/);
    assert.ok(took >= 190 && took < 2000, `took ${took} ms`);
  });

  test('the configured time-out applies when the call sets none', async () => {
    next = { body: chatAnswer('late'), delayMs: 5000 };
    const err = await llmFailure(openLlmProvider(settings({ timeoutMs: 150 }))!.complete(MESSAGES, { maxTokens: 8 }));
    assert.equal(err.failure, 'timeout');
    assert.match(err.message, /within 150 ms/);
  });

  test('the caller’s signal cancels the call', async () => {
    next = { body: chatAnswer('late'), delayMs: 5000 };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await llmFailure(
      openLlmProvider(settings())!.complete(MESSAGES, { maxTokens: 8, signal: controller.signal }),
    );
    assert.equal(err.failure, 'aborted');
  });

  const failures: Array<{ name: string; reply: Reply; failure: LlmFailure; permanent: boolean; message: RegExp }> = [
    {
      name: '500 with an OpenAI-style error',
      reply: { status: 500, body: { error: { message: 'model overloaded', type: 'server_error' } } },
      failure: 'http-status',
      permanent: false,
      message: /\/v1\/chat\/completions answered 500: "model overloaded"$/,
    },
    {
      name: '401 with a plain-text body',
      reply: { status: 401, body: 'invalid api key', headers: { 'content-type': 'text/plain' } },
      failure: 'http-status',
      permanent: true,
      message: /answered 401: "invalid api key"$/,
    },
    {
      name: '429 with an empty body',
      reply: { status: 429, body: '' },
      failure: 'http-status',
      permanent: false,
      message: /answered 429: an empty body$/,
    },
    {
      name: '200 with a body that is not JSON',
      reply: { body: '{"choices": [' },
      failure: 'malformed-answer',
      permanent: false,
      message: /answered 2xx with a body that is not JSON: "\{\\"choices\\": \["$/,
    },
    {
      name: '200 with JSON but no message text',
      reply: { body: { choices: [{ message: { role: 'assistant', content: null } }] } },
      failure: 'malformed-answer',
      permanent: false,
      message: /without a text in choices\[0\]\.message\.content/,
    },
    {
      name: '200 with more than 4 MiB',
      reply: { body: chatAnswer('x'.repeat(5 << 20)) },
      failure: 'malformed-answer',
      permanent: false,
      message: /answered more than 4194304 bytes/,
    },
    {
      name: 'a redirect (the key is not sent on to another host)',
      reply: { status: 307, body: '', headers: { location: 'http://127.0.0.2:9/v1/chat/completions' } },
      failure: 'unreachable',
      permanent: false,
      message: /could not be reached: unexpected redirect/,
    },
  ];
  for (const c of failures)
    test(`${c.name}: ${c.failure}, one request`, async () => {
      next = c.reply;
      const before = server.requests.length;
      const err = await llmFailure(openLlmProvider(settings())!.complete(MESSAGES, { maxTokens: 8 }));
      assert.equal(err.failure, c.failure);
      assert.equal(err.permanent, c.permanent);
      assert.match(err.message, c.message);
      assert.equal(server.requests.length - before, 1);
    });

  test('nothing listening: unreachable, with the cause', async () => {
    const gone = await startChatServer(() => next);
    await gone.close();
    const err = await llmFailure(openLlmProvider(settings({ url: gone.url }))!.complete(MESSAGES, { maxTokens: 8 }));
    assert.equal(err.failure, 'unreachable');
    assert.match(err.message, /could not be reached: .*ECONNREFUSED/);
  });
});
