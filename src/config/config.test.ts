import assert from 'node:assert/strict';
import { test } from 'node:test';
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
