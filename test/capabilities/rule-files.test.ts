// The rule loader: directories read recursively, broken files reported by path and skipped, extra
// directories after the shipped ones, and the setting that names them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { loadCapabilityRules, loadRuleDirectories } from '../../src/jobs/rule-files.js';

const root = mkdtempSync(path.join(tmpdir(), 'binlens-rules-'));
after(() => rmSync(root, { recursive: true, force: true }));

function rule(name: string, feature: string): string {
  return `rule:
  meta:
    name: ${name}
    namespace: extra/${name.replace(/ /g, '-')}
    scopes:
      static: function
      dynamic: unsupported
  features:
    - ${feature}
`;
}

function write(dir: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

test('rule files: a directory with a broken file reports that file and still loads the rest', async () => {
  const dir = write(path.join(root, 'broken'), {
    'a/good-one.yml': rule('good one', 'api: socket'),
    'a/b/good-two.yaml': rule('good two', 'api: connect'),
    'a/not-yaml.yml': 'rule: [',
    'a/bad-feature.yml': rule('bad', 'frobnicate: 3'),
    'README.md': 'not a rule, not read',
    '.github/workflows/ci.yml': 'on: push',
  });
  const loaded = await loadRuleDirectories([dir]);
  assert.equal(loaded.files, 4);
  assert.deepEqual([...loaded.rules.reported.keys()].sort(), ['good one', 'good two']);
  assert.deepEqual(
    loaded.problems.map((p) => path.relative(dir, p.source)),
    ['a/bad-feature.yml', 'a/not-yaml.yml'],
  );
  assert.match(loaded.problems[0]!.message, /unknown feature "frobnicate"/);
  assert.match(loaded.problems[1]!.message, /^not YAML/);
});

test('rule files: a missing directory is a problem, not a failure', async () => {
  const missing = path.join(root, 'nowhere');
  const loaded = await loadRuleDirectories([missing, write(path.join(root, 'one'), { 'x.yml': rule('x', 'api: a') })]);
  assert.equal(loaded.problems.length, 1);
  assert.equal(loaded.problems[0]!.source, missing);
  assert.deepEqual([...loaded.rules.reported.keys()], ['x']);
});

test('rule files: extra directories load after the shipped rules, which win a name clash', async () => {
  const extra = write(path.join(root, 'extra'), {
    'mine.yml': rule('my own rule', 'api: frobnicate'),
    'clash.yml': rule('create socket', 'api: nothing'),
  });
  const loaded = await loadCapabilityRules([extra]);
  assert.ok(loaded.rules.reported.has('my own rule'));
  assert.notEqual(loaded.rules.reported.get('create socket')!.source, path.join(extra, 'clash.yml'));
  assert.deepEqual(
    loaded.problems.map((p) => [p.source, /defined twice/.test(p.message)]),
    [[path.join(extra, 'clash.yml'), true]],
  );
});

test('rule files: BINLENS_RULES_DIRS names extra directories, path-delimiter separated', () => {
  assert.deepEqual(loadConfig({}).rulesDirs, []);
  const dirs = loadConfig({ BINLENS_RULES_DIRS: ['/srv/rules', 'relative', ''].join(path.delimiter) }).rulesDirs;
  assert.deepEqual(dirs, ['/srv/rules', path.resolve('relative')]);
});
