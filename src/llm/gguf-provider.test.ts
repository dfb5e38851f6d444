// The GGUF provider through node-llama-cpp's prebuilt CPU binary on a llama-architecture model the test
// writes itself (test/helpers/tiny-llama-gguf.ts), and the uses on top of it. Skips with the reason when
// the optional dependency is not installed or has no binary for this machine.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { llmFailure } from '../../test/helpers/llm-failure.js';
import { TINY_LLAMA_WORD, tinyLlamaGguf } from '../../test/helpers/tiny-llama-gguf.js';
import type { GgufModelSettings } from '../shared/llm-settings.js';
import { aiSummary } from './ai-summary.js';
import { suggestNames } from './name-suggestions.js';
import { openLlmProvider } from './open-provider.js';
import type { ChatMessage } from './provider.js';

/** Why node-llama-cpp cannot run here, or null when it can: imported and its prebuilt binary loaded. */
async function whyNoLlama(): Promise<string | null> {
  const name = 'node-llama-cpp';
  let lib: { getLlama(o: object): Promise<{ dispose(): Promise<void> }> };
  try {
    lib = (await import(name)) as typeof lib;
  } catch (err) {
    return `node-llama-cpp (an optional dependency) is not installed: ${(err as Error).message}`;
  }
  try {
    const llama = await lib.getLlama({ gpu: false, build: 'never', skipDownload: true, progressLogs: false });
    await llama.dispose();
    return null;
  } catch (err) {
    return `node-llama-cpp has no usable prebuilt binary here: ${(err as Error).message}`;
  }
}

const skip = (await whyNoLlama()) ?? false;
const dir = mkdtempSync(join(tmpdir(), 'binlens-gguf-'));
const modelPath = join(dir, 'tiny.gguf');
writeFileSync(modelPath, tinyLlamaGguf());
after(() => rmSync(dir, { recursive: true, force: true }));

const settings = (over: Partial<GgufModelSettings> = {}): GgufModelSettings => ({
  kind: 'gguf',
  modelPath,
  // The tiny model's arithmetic is nothing; more threads only wait on each other (0.3 ms a token on one
  // thread, 84 ms on two of this busy 2-core VM).
  threads: 1,
  timeoutMs: 60_000,
  ...over,
});
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Answer briefly.' },
  { role: 'user', content: 'int f(void) { return 1; }\n' },
];

describe('GGUF provider (node-llama-cpp, CPU)', { skip }, () => {
  const provider = openLlmProvider(settings())!;
  after(() => provider.close());

  test('the written model loads and greedy decoding generates exactly the tokens asked for', async () => {
    assert.equal(provider.description, `GGUF model ${modelPath}`);
    assert.equal(await provider.complete(MESSAGES, { maxTokens: 3 }), TINY_LLAMA_WORD.repeat(3));
    // A longer conversation (an earlier exchange as history) and a second call on the loaded model.
    const longer: ChatMessage[] = [
      ...MESSAGES,
      { role: 'assistant', content: 'It returns one.' },
      { role: 'user', content: 'And g?' },
    ];
    assert.equal(await provider.complete(longer, { maxTokens: 5 }), TINY_LLAMA_WORD.repeat(5));
  });

  test('calls run one at a time and each gets its own answer', async () => {
    const answers = await Promise.all([2, 4, 1].map((maxTokens) => provider.complete(MESSAGES, { maxTokens })));
    assert.deepEqual(
      answers,
      [2, 4, 1].map((n) => TINY_LLAMA_WORD.repeat(n)),
    );
  });

  test('a call past its time-out ends in a time-out, and the provider still answers after', async () => {
    const err = await llmFailure(provider.complete(MESSAGES, { maxTokens: 4000, timeoutMs: 1 }));
    assert.equal(err.failure, 'timeout');
    assert.equal(await provider.complete(MESSAGES, { maxTokens: 1 }), TINY_LLAMA_WORD);
  });

  test('the uses run on it: a summary is its text; names not in the strict JSON are a malformed answer', async () => {
    const summary = await aiSummary(provider, 'int f(void) { return 1; }', { functionName: 'f', facts: ['returns 1'] });
    assert.ok(summary.startsWith(TINY_LLAMA_WORD.repeat(4)), summary);
    const err = await llmFailure(suggestNames(provider, 'int f(int a1) { return a1; }'));
    assert.equal(err.failure, 'malformed-answer');
    assert.match(err.message, /name suggestions: the answer is not JSON: "hihi/);
  });

  test('a missing file and a file that is not GGUF are model-load errors naming the path', async () => {
    const missing = openLlmProvider(settings({ modelPath: join(dir, 'absent.gguf') }))!;
    const gone = await llmFailure(missing.complete(MESSAGES, { maxTokens: 1 }));
    assert.equal(gone.failure, 'model-load');
    assert.equal(gone.permanent, true);
    assert.match(gone.message, /BINLENS_LLM_MODEL: cannot read .*absent\.gguf: ENOENT/);

    const notGguf = join(dir, 'not.gguf');
    writeFileSync(notGguf, 'PK\x03\x04 an archive');
    const wrong = await llmFailure(
      openLlmProvider(settings({ modelPath: notGguf }))!.complete(MESSAGES, { maxTokens: 1 }),
    );
    assert.equal(wrong.failure, 'model-load');
    assert.match(wrong.message, /not\.gguf is not a GGUF file/);
  });

  test('a GGUF file llama.cpp cannot use is a model-load error, and nothing is left loaded', async () => {
    const truncated = join(dir, 'truncated.gguf');
    writeFileSync(truncated, tinyLlamaGguf().subarray(0, 4000));
    const broken = openLlmProvider(settings({ modelPath: truncated }))!;
    const err = await llmFailure(broken.complete(MESSAGES, { maxTokens: 1 }));
    assert.equal(err.failure, 'model-load');
    assert.match(err.message, /llama\.cpp cannot load .*truncated\.gguf/);
    await broken.close();
  });
});
