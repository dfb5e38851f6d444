import assert from 'node:assert/strict';
import { test } from 'node:test';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.js';

test('analysis limits: embedded defaults when the environment sets none', () => {
  assert.deepEqual(loadConfig({}).analysisLimits, {
    timeoutMs: 600_000,
    maxMemoryMb: 4096,
    maxFunctions: 300_000,
    maxStrings: 600_000,
    maxXrefs: 5_000_000,
  });
});

test('analysis limits: each variable sets its limit', () => {
  const limits = loadConfig({
    BINLENS_ANALYSIS_TIMEOUT_MS: '90000',
    BINLENS_ANALYSIS_MAX_MEMORY_MB: '1024',
    BINLENS_ANALYSIS_MAX_FUNCTIONS: '1000',
    BINLENS_ANALYSIS_MAX_STRINGS: '2000',
    BINLENS_ANALYSIS_MAX_XREFS: '3000',
  }).analysisLimits;
  assert.deepEqual(limits, {
    timeoutMs: 90_000,
    maxMemoryMb: 1024,
    maxFunctions: 1000,
    maxStrings: 2000,
    maxXrefs: 3000,
  });
});

test('analysis limits: a bad value is refused with a message naming the variable and the accepted range', () => {
  const cases: [name: string, value: string, range: string][] = [
    ['BINLENS_ANALYSIS_TIMEOUT_MS', 'ten', '1000..2147483647'],
    ['BINLENS_ANALYSIS_TIMEOUT_MS', '999', '1000..2147483647'],
    // Past setTimeout's longest delay the limit would fire at once.
    ['BINLENS_ANALYSIS_TIMEOUT_MS', '2147483648', '1000..2147483647'],
    ['BINLENS_ANALYSIS_MAX_MEMORY_MB', '63', '64..1048576'],
    ['BINLENS_ANALYSIS_MAX_MEMORY_MB', '4096.5', '64..1048576'],
    ['BINLENS_ANALYSIS_MAX_FUNCTIONS', '0', '1..4294967295'],
    ['BINLENS_ANALYSIS_MAX_STRINGS', '-1', '1..4294967295'],
    ['BINLENS_ANALYSIS_MAX_XREFS', '5M', '1..4294967295'],
  ];
  for (const [name, value, range] of cases)
    assert.throws(
      () => loadConfig({ [name]: value }),
      (err: unknown) =>
        err instanceof ConfigError && err.message === `${name} must be an integer in ${range}, got "${value}"`,
      `${name}=${value}`,
    );
});

test('language model: off unless BINLENS_LLM_URL or BINLENS_LLM_MODEL is set', () => {
  assert.equal(loadConfig({}).llm, null);
  assert.equal(loadConfig({ BINLENS_LLM_URL: '', BINLENS_LLM_MODEL: '' }).llm, null);
});

test('language model: a chat-completions URL with its model name, key and time-out', () => {
  assert.deepEqual(
    loadConfig({
      BINLENS_LLM_URL: 'http://127.0.0.1:8000/v1/',
      BINLENS_LLM_KEY: 'sk-test',
      BINLENS_LLM_MODEL_NAME: 'qwen2.5-coder-7b',
      BINLENS_LLM_TIMEOUT_MS: '30000',
    }).llm,
    {
      kind: 'chat-completions',
      url: 'http://127.0.0.1:8000/v1',
      apiKey: 'sk-test',
      model: 'qwen2.5-coder-7b',
      timeoutMs: 30_000,
    },
  );
  const keyless = loadConfig({ BINLENS_LLM_URL: 'https://llm.example/v1', BINLENS_LLM_MODEL_NAME: 'm' }).llm;
  assert.deepEqual(keyless, {
    kind: 'chat-completions',
    url: 'https://llm.example/v1',
    apiKey: null,
    model: 'm',
    timeoutMs: 120_000,
  });
});

test('language model: a GGUF file, its path made absolute, on one thread per core unless told', () => {
  assert.deepEqual(loadConfig({ BINLENS_LLM_MODEL: 'models/coder.gguf' }).llm, {
    kind: 'gguf',
    modelPath: resolve('models/coder.gguf'),
    threads: availableParallelism(),
    timeoutMs: 120_000,
  });
  assert.deepEqual(loadConfig({ BINLENS_LLM_MODEL: '/m.gguf', BINLENS_LLM_THREADS: '3' }).llm, {
    kind: 'gguf',
    modelPath: '/m.gguf',
    threads: 3,
    timeoutMs: 120_000,
  });
});

test('language model: contradictory or incomplete settings are refused with a message naming the variables', () => {
  const cases: [env: Record<string, string>, message: string][] = [
    [
      { BINLENS_LLM_URL: 'http://h/v1', BINLENS_LLM_MODEL_NAME: 'm', BINLENS_LLM_MODEL: '/m.gguf' },
      'set BINLENS_LLM_URL or BINLENS_LLM_MODEL, not both',
    ],
    [
      { BINLENS_LLM_URL: 'http://h/v1' },
      'BINLENS_LLM_MODEL_NAME must name the model to ask when BINLENS_LLM_URL is set',
    ],
    [{ BINLENS_LLM_KEY: 'k' }, 'BINLENS_LLM_KEY is set but BINLENS_LLM_URL is not'],
    [{ BINLENS_LLM_MODEL_NAME: 'm' }, 'BINLENS_LLM_MODEL_NAME is set but BINLENS_LLM_URL is not'],
    [
      { BINLENS_LLM_MODEL: '/m.gguf', BINLENS_LLM_KEY: 'k' },
      'BINLENS_LLM_KEY and BINLENS_LLM_MODEL_NAME go with BINLENS_LLM_URL, not with BINLENS_LLM_MODEL',
    ],
    [
      { BINLENS_LLM_URL: 'http://h/v1', BINLENS_LLM_MODEL_NAME: 'm', BINLENS_LLM_THREADS: '2' },
      'BINLENS_LLM_THREADS goes with BINLENS_LLM_MODEL',
    ],
    [
      { BINLENS_LLM_MODEL: '/m.gguf', BINLENS_LLM_THREADS: '0' },
      'BINLENS_LLM_THREADS must be an integer in 1..1024, got "0"',
    ],
    [{ BINLENS_LLM_MODEL: '/m.bin' }, 'BINLENS_LLM_MODEL must be the path of a .gguf model file, got "/m.bin"'],
    [
      { BINLENS_LLM_URL: 'localhost:8000', BINLENS_LLM_MODEL_NAME: 'm' },
      'BINLENS_LLM_URL must be an http(s) URL, got "localhost:8000"',
    ],
    [
      { BINLENS_LLM_URL: 'not a url', BINLENS_LLM_MODEL_NAME: 'm' },
      'BINLENS_LLM_URL must be an http(s) URL such as http://127.0.0.1:8000/v1, got "not a url"',
    ],
    [
      { BINLENS_LLM_URL: 'https://u:p@h/v1', BINLENS_LLM_MODEL_NAME: 'm' },
      'BINLENS_LLM_URL may not hold credentials: put the key in BINLENS_LLM_KEY',
    ],
    [
      { BINLENS_LLM_URL: 'http://h/v1?x=1', BINLENS_LLM_MODEL_NAME: 'm' },
      "BINLENS_LLM_URL is the API's base URL (…/v1), without a query or fragment",
    ],
    [
      { BINLENS_LLM_MODEL: '/m.gguf', BINLENS_LLM_TIMEOUT_MS: '10' },
      'BINLENS_LLM_TIMEOUT_MS must be an integer in 1000..2147483647, got "10"',
    ],
  ];
  for (const [env, message] of cases)
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.message === message,
      JSON.stringify(env),
    );
});
