import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapabilityMatch } from '../../contracts/understanding.js';
import { parseAttack, tacticOrder } from './attack.js';
import { analysisVerdict, NO_TACTIC } from './verdict.js';

const match = (rule: string, namespace: string, attack: string[] = []): CapabilityMatch => ({
  rule,
  namespace,
  scope: 'function',
  attack,
  mbc: [],
  functions: [0x1000],
  addresses: [0x1000],
});
const verdict = (...matches: CapabilityMatch[]) =>
  analysisVerdict({ rules: matches.length, evaluations: 0, naiveEvaluations: 0, matches });

const C2 = 'Command and Control::Application Layer Protocol::Web Protocols [T1071.001]';

test('attack: tactic, technique and id from the rule text', () => {
  assert.deepEqual(parseAttack('Defense Evasion::Process Injection::Dynamic-link Library Injection [T1055.001]'), {
    tactic: 'Defense Evasion',
    technique: 'Process Injection: Dynamic-link Library Injection',
    id: 'T1055.001',
  });
  assert.deepEqual(parseAttack('Impact'), { tactic: 'Impact', technique: '', id: null });
  assert.ok(tacticOrder('Persistence') < tacticOrder('Command and Control'));
  assert.equal(tacticOrder('Not a tactic'), 14);
});

test('verdict: a tactic is one line of evidence however many rules show it', () => {
  const one = verdict(match('contain HTTP request line', 'communication/http', [C2]));
  const many = verdict(
    match('contain HTTP request line', 'communication/http', [C2]),
    match('contain HTTP User-Agent string', 'communication/http', [C2]),
    match('connect TCP socket', 'communication/socket/tcp', [
      'Command and Control::Non-Application Layer Protocol [T1095]',
    ]),
  );
  assert.equal(one.score, 0.3);
  assert.equal(many.score, 0.3);
  assert.deepEqual(many.evidence, [{ group: 'Command and Control', rule: 'connect TCP socket', weight: 0.3 }]);
});

test('verdict: tactics combine as independent evidence; rules without one are one more line', () => {
  const v = verdict(
    match('create thread in another process', 'process/injection', ['Defense Evasion::Process Injection [T1055]']),
    match('reference Run registry key', 'persistence/registry/run', ['Persistence::Registry Run Keys [T1547.001]']),
    match('create suspended process', 'process/execution'),
    match('allocate RWX memory', 'host-interaction/memory'),
  );
  // 1 − (1 − 0.9)(1 − 0.7)(1 − 0.3)
  assert.equal(v.score, 0.979);
  assert.equal(v.level, 'malicious');
  assert.equal(v.label, 'Likely malicious');
  assert.deepEqual(
    v.evidence.map((e) => [e.group, e.rule]),
    [
      ['Defense Evasion', 'create thread in another process'],
      ['Persistence', 'reference Run registry key'],
      [NO_TACTIC, 'create suspended process'],
    ],
  );
});

test('verdict: levels by score, and none without capabilities', () => {
  const discovery = match('get hostname', 'host-interaction/discovery', [
    'Discovery::System Information Discovery [T1082]',
  ]);
  const web = match('contain HTTP request line', 'communication/http', [C2]);
  const shadow = match('access /etc/shadow', 'host-interaction/file-system', [
    'Credential Access::OS Credential Dumping [T1003.008]',
  ]);
  assert.equal(verdict(discovery, web).level, 'low'); // 0.44
  assert.equal(verdict(discovery, web, shadow).level, 'suspicious'); // 0.776
  assert.deepEqual(verdict(), { score: 0, level: 'none', label: 'No capability found', evidence: [] });
});
