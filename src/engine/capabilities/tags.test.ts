import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapabilityMatch } from '../../contracts/understanding.js';
import { capabilityWeight, functionTags } from './tags.js';

const match = (
  rule: string,
  namespace: string,
  functions: number[],
  scope: CapabilityMatch['scope'] = 'function',
): CapabilityMatch => ({
  rule,
  namespace,
  scope,
  attack: [],
  mbc: [],
  functions,
  addresses: functions,
});

test('tags: weights follow what a capability usually means in malware', () => {
  assert.equal(capabilityWeight('host-interaction/process/inject', 'inject thread'), 0.9);
  assert.equal(capabilityWeight('anti-analysis/anti-debugging', 'check for debugger'), 0.6);
  assert.equal(capabilityWeight('host-interaction/file-system/read', 'read file'), 0.05);
  assert.equal(capabilityWeight('process/execution', 'create process on Windows'), 0.3);
  assert.ok(
    capabilityWeight('persistence/registry', 'set run key') >
      capabilityWeight('host-interaction/registry', 'query registry value'),
  );
});

test('tags: a function combines its capabilities as independent evidence; the file gets file-scope ones', () => {
  const tags = functionTags({
    rules: 3,
    evaluations: 0,
    naiveEvaluations: 0,
    matches: [
      match('read file', 'host-interaction/file-system/read', [0x1000, 0x2000]),
      match('inject thread', 'host-interaction/process/inject', [0x2000]),
      match('contains PE', 'executable/pe', [], 'file'),
    ],
  });
  assert.deepEqual(tags, [
    { vaddr: 0x2000, tags: ['inject thread', 'read file'], score: 0.905 },
    { vaddr: null, tags: ['contains PE'], score: 0.1 },
    { vaddr: 0x1000, tags: ['read file'], score: 0.05 },
  ]);
});
