import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aiRefinementLine } from './logging.js';

test('aiRefinementLine: off, or on with the model asked and the time-out, never the key', () => {
  assert.equal(aiRefinementLine(null), 'AI refinement: off (set BINLENS_LLM_URL or BINLENS_LLM_MODEL to turn it on)');
  const remote = aiRefinementLine({
    kind: 'chat-completions',
    url: 'http://127.0.0.1:8000/v1',
    apiKey: 'sk-secret',
    model: 'coder',
    timeoutMs: 120000,
  });
  assert.equal(
    remote,
    'AI refinement: on (http://127.0.0.1:8000/v1, model coder, with a key; at most 120000 ms a model call)',
  );
  assert.ok(!remote.includes('sk-secret'));
  assert.equal(
    aiRefinementLine({ kind: 'gguf', modelPath: '/models/coder.gguf', threads: 2, timeoutMs: 60000 }),
    'AI refinement: on (/models/coder.gguf on 2 CPU threads; at most 60000 ms a model call)',
  );
});
