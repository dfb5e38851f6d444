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

/** [name, rule features, the features it runs on, whether it matches, the rule's scope (function)] */
const cases: [string, string, ReadableFeatures, boolean, string?][] = [
  ['api', '- api: socket', program([[api('socket')]]), true],
  ['api absent', '- api: socket', program([[api('connect')]]), false],
  [
    'api with module matches the normalised import',
    '- api: KERNEL32.DLL.CreateFileA',
    program([apiNames('kernel32.dll', 'CreateFileA').map((n) => [valueKey('api', n), 0x1000] as [string, number])]),
    true,
  ],
  [
    'api without A/W suffix',
    '- api: kernel32.CreateFile',
    program([apiNames('KERNEL32.dll', 'CreateFileW').map((n) => [valueKey('api', n), 0x1000] as [string, number])]),
    true,
  ],
  ['number hex = decimal, with description', '- number: 0x10 = sixteen', program([[num(16)]]), true],
  [
    'api and mnemonic with descriptions',
    '- and:\n  - api: socket = create it\n  - mnemonic: xor = zero the flags',
    program([[api('socket')], [mnem('xor')]]),
    true,
  ],
  ['negative number', '- number: -1', program([[num(-1)]]), true],
  ['and', '- and:\n  - api: socket\n  - number: 2', program([[api('socket')], [num(2)]]), true],
  ['and, one missing', '- and:\n  - api: socket\n  - number: 2', program([[api('socket')]]), false],
  ['or', '- or:\n  - api: send\n  - api: sendto', program([[api('sendto')]]), true],
  ['not', '- and:\n  - api: send\n  - not:\n    - api: recv', program([[api('send')], [api('recv')]]), false],
  ['2 or more', '- 2 or more:\n  - api: a\n  - api: b\n  - api: c', program([[api('a')], [api('c')]]), true],
  ['2 or more, one present', '- 2 or more:\n  - api: a\n  - api: b', program([[api('a')]]), false],
  ['optional never blocks', '- and:\n  - api: a\n  - optional:\n    - api: b', program([[api('a')]]), true],
  [
    'count of distinct addresses',
    '- count(mnemonic(xor)): 3 or more',
    program([[mnem('xor', 1)], [mnem('xor', 2)], [mnem('xor', 3)]]),
    true,
  ],
  ['count below the bound', '- count(mnemonic(xor)): 3 or more', program([[mnem('xor', 1)], [mnem('xor', 2)]]), false],
  ['count range', '- count(number(7)): (1, 2)', program([[num(7, 1)], [num(7, 2)], [num(7, 3)]]), false],
  ['count of basic blocks', '- count(basic blocks): 1', program([[api('x')]]), true],
  ['exact string', '- string: "/etc/passwd"', program([[str('/etc/passwd')]]), true],
  ['exact string is exact', '- string: "/etc/pass"', program([[str('/etc/passwd')]]), false],
  ['substring', '- substring: "passwd"', program([[str('/etc/passwd')]]), true],
  ['regex with flag', '- string: /^HTTP\\/1\\.[01]$/i', program([[str('http/1.1')]]), true],
  [
    'bytes prefix',
    '- bytes: 63 7c 77 7b = AES S-box',
    program([[[bytesKey(Uint8Array.of(0x63, 0x7c, 0x77, 0x7b, 0xf2)), 0x1000]]]),
    true,
  ],
  [
    'instruction scope needs both on one instruction',
    '- and:\n  - mnemonic: xor\n  - number: 0x5a',
    program([[mnem('xor')], [num(0x5a)]]),
    false,
    'instruction',
  ],
  [
    'instruction scope, one instruction',
    '- and:\n  - mnemonic: xor\n  - number: 0x5a',
    program([[mnem('xor'), num(0x5a)]]),
    true,
    'instruction',
  ],
  [
    'instruction subscope inside a function rule',
    '- and:\n  - api: a\n  - instruction:\n    - mnemonic: xor\n    - number: 0x5a',
    program([[api('a')], [mnem('xor'), num(0x5a)]]),
    true,
  ],
  [
    'file scope sees file features',
    '- and:\n  - format: PE\n  - import: kernel32.VirtualAllocEx',
    program(
      [],
      [],
      [
        [valueKey('format', 'pe'), 0],
        [valueKey('import', 'kernel32.VirtualAllocEx'), 0],
      ],
    ),
    true,
    'file',
  ],
  [
    'a description item in a combinator is not a feature',
    '- and:\n  - description: both calls\n  - api: a\n  - api: b',
    program([[api('a')], [api('b')]]),
    true,
  ],
  [
    'a dynamic `call:` branch never matches statically',
    '- and:\n  - api: a\n  - call:\n    - api: a',
    program([[api('a')]]),
    false,
  ],
  [
    'the static twin of a dynamic branch matches',
    '- or:\n  - basic block:\n    - api: a\n  - call:\n    - api: a',
    program([[api('a')]]),
    true,
  ],
  [
    "a block of the rule's own scope is a plain and",
    '- basic block:\n  - and:\n    - api: a\n    - api: b',
    program([[api('a')], [api('b')]]),
    true,
    'basic block',
  ],
  ['a COM class (not extracted) never matches', '- or:\n  - com/class: SystemDeviceEnum', program([[api('x')]]), false],
  ['a .NET feature never matches', '- or:\n  - class: System.Net.Sockets', program([[api('x')]]), false],
];

for (const [name, features, program, match, scope = 'function'] of cases) {
  test(`capabilities: ${name}`, () =>
    assert.deepEqual(matched([rule('r', scope, features)], program), match ? ['r'] : []));
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
