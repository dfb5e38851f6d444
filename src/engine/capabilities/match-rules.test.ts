import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiNames, numberKey, stringKey, valueKey } from './feature-key.js';
import { freezeReadable, type FeatureList, type ReadableFeatures } from '../../../test/helpers/capability-features.js';
import { bytesKey } from './feature-set.js';
import { matchRules } from './match-rules.js';
import { parseRule, RuleError } from './parse-rule.js';
import { compileRules } from './rule-set.js';

function rule(name: string, scope: string, features: string, extra = ''): string {
  return `rule:
  meta:
    name: ${name}
    namespace: test/${name.replace(/ /g, '-')}
    scopes:
      static: ${scope}
      dynamic: unsupported
${extra}
  features:
${features
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
`;
}

/** One function of one block of the given instructions (each a feature list), plus function features. */
function program(insns: FeatureList[], fn: FeatureList = [], file: FeatureList = []): ReadableFeatures {
  return {
    file,
    functions: [
      {
        address: 0x1000,
        features: fn,
        blocks: [
          {
            address: 0x1000,
            features: [],
            instructions: insns.map((f, i) => ({ address: 0x1000 + i * 4, features: f })),
          },
        ],
      },
    ],
  };
}

function matched(texts: string[], features: ReadableFeatures): string[] {
  const set = compileRules(texts.flatMap((t, i) => parseRule(t, `r${i}.yml`).rules));
  assert.deepEqual(set.problems, []);
  return [...matchRules(set, freezeReadable(features)).matches.keys()].filter((n) => set.reported.has(n)).sort();
}

const api = (name: string): [string, number] => [valueKey('api', name), 0x1000];
const num = (n: number, at = 0x1000): [string, number] => [numberKey('number', BigInt(n)), at];
const mnem = (m: string, at = 0x1000): [string, number] => [valueKey('mnemonic', m), at];
const str = (s: string): [string, number] => [stringKey(s), 0x1000];

const cases: { name: string; rule: string; scope?: string; features: ReadableFeatures; match: boolean }[] = [
  { name: 'api', rule: '- api: socket', features: program([[api('socket')]]), match: true },
  { name: 'api absent', rule: '- api: socket', features: program([[api('connect')]]), match: false },
  {
    name: 'api with module matches the normalised import',
    rule: '- api: KERNEL32.DLL.CreateFileA',
    features: program([
      apiNames('kernel32.dll', 'CreateFileA').map((n) => [valueKey('api', n), 0x1000] as [string, number]),
    ]),
    match: true,
  },
  {
    name: 'api without A/W suffix',
    rule: '- api: kernel32.CreateFile',
    features: program([
      apiNames('KERNEL32.dll', 'CreateFileW').map((n) => [valueKey('api', n), 0x1000] as [string, number]),
    ]),
    match: true,
  },
  {
    name: 'number hex = decimal, with description',
    rule: '- number: 0x10 = sixteen',
    features: program([[num(16)]]),
    match: true,
  },
  {
    name: 'api and mnemonic with descriptions',
    rule: '- and:\n  - api: socket = create it\n  - mnemonic: xor = zero the flags',
    features: program([[api('socket')], [mnem('xor')]]),
    match: true,
  },
  { name: 'negative number', rule: '- number: -1', features: program([[num(-1)]]), match: true },
  {
    name: 'and',
    rule: '- and:\n  - api: socket\n  - number: 2',
    features: program([[api('socket')], [num(2)]]),
    match: true,
  },
  {
    name: 'and, one missing',
    rule: '- and:\n  - api: socket\n  - number: 2',
    features: program([[api('socket')]]),
    match: false,
  },
  { name: 'or', rule: '- or:\n  - api: send\n  - api: sendto', features: program([[api('sendto')]]), match: true },
  {
    name: 'not',
    rule: '- and:\n  - api: send\n  - not:\n    - api: recv',
    features: program([[api('send')], [api('recv')]]),
    match: false,
  },
  {
    name: '2 or more',
    rule: '- 2 or more:\n  - api: a\n  - api: b\n  - api: c',
    features: program([[api('a')], [api('c')]]),
    match: true,
  },
  {
    name: '2 or more, one present',
    rule: '- 2 or more:\n  - api: a\n  - api: b',
    features: program([[api('a')]]),
    match: false,
  },
  {
    name: 'optional never blocks',
    rule: '- and:\n  - api: a\n  - optional:\n    - api: b',
    features: program([[api('a')]]),
    match: true,
  },
  {
    name: 'count of distinct addresses',
    rule: '- count(mnemonic(xor)): 3 or more',
    features: program([[mnem('xor', 1)], [mnem('xor', 2)], [mnem('xor', 3)]]),
    match: true,
  },
  {
    name: 'count below the bound',
    rule: '- count(mnemonic(xor)): 3 or more',
    features: program([[mnem('xor', 1)], [mnem('xor', 2)]]),
    match: false,
  },
  {
    name: 'count range',
    rule: '- count(number(7)): (1, 2)',
    features: program([[num(7, 1)], [num(7, 2)], [num(7, 3)]]),
    match: false,
  },
  { name: 'count of basic blocks', rule: '- count(basic blocks): 1', features: program([[api('x')]]), match: true },
  { name: 'exact string', rule: '- string: "/etc/passwd"', features: program([[str('/etc/passwd')]]), match: true },
  {
    name: 'exact string is exact',
    rule: '- string: "/etc/pass"',
    features: program([[str('/etc/passwd')]]),
    match: false,
  },
  { name: 'substring', rule: '- substring: "passwd"', features: program([[str('/etc/passwd')]]), match: true },
  {
    name: 'regex with flag',
    rule: '- string: /^HTTP\\/1\\.[01]$/i',
    features: program([[str('http/1.1')]]),
    match: true,
  },
  {
    name: 'bytes prefix',
    rule: '- bytes: 63 7c 77 7b = AES S-box',
    features: program([[[bytesKey(Uint8Array.of(0x63, 0x7c, 0x77, 0x7b, 0xf2)), 0x1000]]]),
    match: true,
  },
  {
    name: 'instruction scope needs both on one instruction',
    scope: 'instruction',
    rule: '- and:\n  - mnemonic: xor\n  - number: 0x5a',
    features: program([[mnem('xor')], [num(0x5a)]]),
    match: false,
  },
  {
    name: 'instruction scope, one instruction',
    scope: 'instruction',
    rule: '- and:\n  - mnemonic: xor\n  - number: 0x5a',
    features: program([[mnem('xor'), num(0x5a)]]),
    match: true,
  },
  {
    name: 'instruction subscope inside a function rule',
    rule: '- and:\n  - api: a\n  - instruction:\n    - mnemonic: xor\n    - number: 0x5a',
    features: program([[api('a')], [mnem('xor'), num(0x5a)]]),
    match: true,
  },
  {
    name: 'file scope sees file features',
    scope: 'file',
    rule: '- and:\n  - format: PE\n  - import: kernel32.VirtualAllocEx',
    features: program(
      [],
      [],
      [
        [valueKey('format', 'pe'), 0],
        [valueKey('import', 'kernel32.VirtualAllocEx'), 0],
      ],
    ),
    match: true,
  },
  {
    name: 'a description item in a combinator is not a feature',
    rule: '- and:\n  - description: both calls\n  - api: a\n  - api: b',
    features: program([[api('a')], [api('b')]]),
    match: true,
  },
  {
    name: 'a dynamic `call:` branch never matches statically',
    rule: '- and:\n  - api: a\n  - call:\n    - api: a',
    features: program([[api('a')]]),
    match: false,
  },
  {
    name: 'the static twin of a dynamic branch matches',
    rule: '- or:\n  - basic block:\n    - api: a\n  - call:\n    - api: a',
    features: program([[api('a')]]),
    match: true,
  },
  {
    name: "a block of the rule's own scope is a plain and",
    scope: 'basic block',
    rule: '- basic block:\n  - and:\n    - api: a\n    - api: b',
    features: program([[api('a')], [api('b')]]),
    match: true,
  },
  {
    name: 'a COM class (not extracted) never matches',
    rule: '- or:\n  - com/class: SystemDeviceEnum',
    features: program([[api('x')]]),
    match: false,
  },
  {
    name: 'a .NET feature never matches',
    rule: '- or:\n  - class: System.Net.Sockets',
    features: program([[api('x')]]),
    match: false,
  },
];

for (const c of cases) {
  test(`capabilities: ${c.name}`, () => {
    const got = matched([rule('r', c.scope ?? 'function', c.rule)], c.features);
    assert.deepEqual(got, c.match ? ['r'] : []);
  });
}

test('capabilities: match by rule name and by namespace, across scopes', () => {
  const xorInsn = rule('xor with constant', 'instruction', '- and:\n  - mnemonic: xor\n  - number: 0x5a');
  const byName = rule('uses xor', 'function', '- and:\n  - match: xor with constant\n  - api: a');
  const byNamespace = rule('file has xor', 'file', '- match: test/uses-xor');
  const features = program([[mnem('xor'), num(0x5a)], [api('a')]]);
  assert.deepEqual(matched([byNamespace, byName, xorInsn], features), [
    'file has xor',
    'uses xor',
    'xor with constant',
  ]);
});

test('capabilities: the index skips rules whose anchors are absent, with the same matches', () => {
  const texts = Array.from({ length: 50 }, (_, i) => rule(`api ${i}`, 'function', `- api: f${i}`));
  texts.push(rule('no f0', 'function', '- not:\n  - api: f0'));
  const set = compileRules(texts.flatMap((t) => parseRule(t, 'x').rules));
  const features = program([[api('f3')], [api('f7')]]);
  const r = matchRules(set, freezeReadable(features));
  assert.deepEqual([...r.matches.keys()].sort(), ['api 3', 'api 7', 'no f0']);
  assert.equal(r.naiveEvaluations, 51);
  assert.equal(r.evaluations, 3, 'f3, f7 and the unanchored `not` rule');
});

const broken: { name: string; text: string; message: RegExp }[] = [
  { name: 'not YAML', text: 'rule: [', message: /not YAML/ },
  { name: 'no name', text: 'rule:\n  meta: {}\n  features: []', message: /meta\.name/ },
  { name: 'unknown feature', text: rule('x', 'function', '- frobnicate: 1'), message: /unknown feature "frobnicate"/ },
  { name: 'bad number', text: rule('x', 'function', '- number: twelve'), message: /not an integer/ },
  { name: 'bad count', text: rule('x', 'function', '- count(api(a)): lots'), message: /count/ },
  { name: 'bad regex', text: rule('x', 'function', '- string: /(/'), message: /bad regex/ },
  { name: 'unknown scope', text: rule('x', 'galaxy', '- api: a'), message: /unknown scope/ },
  { name: 'two roots', text: rule('x', 'function', '- api: a\n- api: b'), message: /exactly one root/ },
  {
    name: 'wider subscope',
    text: rule('x', 'basic block', '- function:\n  - api: a'),
    message: /function block inside a basic block rule/,
  },
  {
    name: 'nested too deep',
    text: rule(
      'x',
      'function',
      Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- or:`).join('\n') + `\n${'  '.repeat(40)}- api: a`,
    ),
    message: /deeper than/,
  },
];

for (const b of broken) {
  test(`capabilities: a rule that fails to parse is an error naming its file: ${b.name}`, () => {
    assert.throws(
      () => parseRule(b.text, 'rules/x.yml'),
      (e: unknown) => e instanceof RuleError && e.message.startsWith('rules/x.yml') && b.message.test(e.message),
    );
  });
}

test('capabilities: unknown match targets and cycles are reported and those rules dropped', () => {
  const a = rule('a', 'function', '- match: b');
  const b = rule('b', 'function', '- match: a');
  const c = rule('c', 'function', '- match: nowhere');
  const d = rule('d', 'function', '- api: x');
  const set = compileRules([a, b, c, d].flatMap((t, i) => parseRule(t, `r${i}.yml`).rules));
  assert.ok(set.problems.some((p) => /cycle/.test(p.message)));
  assert.ok(set.problems.some((p) => /unknown rule or namespace "nowhere"/.test(p.message)));
  assert.deepEqual([...set.reported.keys()].sort(), ['c', 'd']);
});

test('capabilities: a rule with no static scope is skipped, not an error', () => {
  const text = rule('dyn', 'unsupported', '- api: a');
  assert.deepEqual(parseRule(text, 'x').rules, []);
});
