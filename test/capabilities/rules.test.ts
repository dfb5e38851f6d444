// The shipped rule set: every rule compiles, lives in the folder its namespace names, and has examples in
// test/fixtures/capabilities/<rule-file-stem>.json that it matches, and near misses it must not match.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { matchRules, parseRule, type RuleSet } from '../../src/engine/capabilities/index.js';
import { freezeReadable, type ReadableFeatures } from '../helpers/capability-features.js';
import { listRuleFiles, loadCapabilityRules, shippedRulesDir } from '../../src/jobs/rule-files.js';

const FIXTURES = path.resolve('test', 'fixtures', 'capabilities');

interface Example {
  rule: string;
  match: ReadableFeatures[];
  miss: ReadableFeatures[];
}

const matches = (set: RuleSet, features: ReadableFeatures, name: string): boolean =>
  matchRules(set, freezeReadable(features)).matches.has(name);

const loaded = await loadCapabilityRules([]);
const files = await listRuleFiles(shippedRulesDir());

test('rules: the shipped rule set loads with no problems, at least 80 rules', () => {
  assert.deepEqual(loaded.problems, []);
  assert.equal(loaded.files, files.length);
  assert.ok(loaded.rules.reported.size >= 80, `${loaded.rules.reported.size} reported rules`);
});

test('rules: every capability bench:capabilities expects of a sample is a reported rule', () => {
  const expected = JSON.parse(readFileSync(path.resolve('tools', 'bench', 'capabilities-expected.json'), 'utf8')) as {
    samples: Record<string, Record<string, string[]>>;
  };
  const names = Object.values(expected.samples).flatMap((lists) => Object.values(lists).flat());
  assert.ok(names.length > 0);
  assert.deepEqual(
    names.filter((n) => !loaded.rules.reported.has(n)),
    [],
  );
});

test('rules: rule file names are unique (fixtures are named by them)', () => {
  const stems = files.map((f) => path.basename(f, path.extname(f)));
  assert.equal(new Set(stems).size, stems.length);
});

for (const file of files) {
  const stem = path.basename(file, path.extname(file));
  const relative = path.relative(shippedRulesDir(), file);
  test(`rules: ${relative}`, () => {
    const parsed = parseRule(readFileSync(file, 'utf8'), file);
    assert.deepEqual(parsed.unsupported, []);
    const rule = parsed.rules.at(-1)!;
    assert.equal(rule.namespace, path.dirname(relative).split(path.sep).join('/'), 'namespace = folder');
    const fixture = path.join(FIXTURES, `${stem}.json`);
    assert.ok(existsSync(fixture), `no example ${fixture}`);
    const example = JSON.parse(readFileSync(fixture, 'utf8')) as Example;
    assert.equal(example.rule, rule.name);
    assert.ok(example.match.length > 0, 'at least one example');
    example.match.forEach((x, i) => assert.ok(matches(loaded.rules, x, rule.name), `example ${i} must match`));
    example.miss.forEach((x, i) => assert.ok(!matches(loaded.rules, x, rule.name), `near miss ${i} must not match`));
  });
}
