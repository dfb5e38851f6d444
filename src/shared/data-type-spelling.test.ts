import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  declareFunction,
  entryDependency,
  hexKey,
  normaliseSpelling,
  spellingKind,
  typesOfRecord,
  type DataTypeKind,
} from './data-type-spelling.js';
import type { FunctionTypesRecord } from './type-records.js';

test('spellings: one text per type, and the kind it names', () => {
  const spelled = {
    '  unsigned   char ': 'unsigned char',
    'char*': 'char *',
    'char**': 'char **',
    'struct  stream': 'struct stream',
  };
  for (const [given, text] of Object.entries(spelled)) assert.equal(normaliseSpelling(given), text, given);
  const kinds: Partial<Record<DataTypeKind, string[]>> = {
    BASE: ['int32_t', 'unsigned char', 'const char'],
    POINTER: ['char *', 'char **', 'char *const', 'int (*)(int)'],
    ARRAY: ['int32_t[4]'],
    STRUCT: ['struct stream', 'const struct stream'],
    UNION: ['union value'],
    ENUM: ['enum color'],
    FUNCTION_DEFINITION: ['int (int, char *)'],
    UNKNOWN: ['HANDLE'],
  };
  for (const [kind, names] of Object.entries(kinds))
    for (const name of names) assert.equal(spellingKind(normaliseSpelling(name)), kind, name);
  assert.equal(spellingKind('HANDLE', new Set(['HANDLE'])), 'TYPEDEF');
  assert.deepEqual([hexKey(0), hexKey(16), hexKey(-24)], ['0x0', '0x10', '-0x18']);
});

const record = (over: Partial<FunctionTypesRecord>): FunctionTypesRecord => ({
  vaddr: 0x1000,
  size: 8,
  name: 'f',
  declaration: 'void f(void)',
  returnType: 'void',
  args: [],
  variadic: false,
  convention: 'sysv',
  stackVars: [],
  deps: [],
  source: 'recovered',
  ...over,
});

test('a record uses its spelled types, what they point to or hold, and its dependencies with definitions', () => {
  const r = record({
    returnType: 'struct stream *',
    args: [{ name: 'a1', type: 'char **', size: 8, offset: 0 }],
    stackVars: [{ name: 'var_18', type: 'int32_t[4]', size: 16, offset: -0x18 }],
    deps: [
      {
        kind: 'struct',
        name: 'stream',
        size: 16,
        members: [
          { name: 'fd', type: 'int32_t', size: 4, offset: 0 },
          { name: 'mode', type: 'mode_t', size: 4, offset: 4 },
        ],
      },
      { kind: 'typedef', name: 'mode_t', type: 'uint32_t' },
      { kind: 'enum', name: 'color', members: { RED: 0, GREEN: 1 } },
    ],
  });
  const entries = new Map(typesOfRecord(r).map((e) => [e.name, e]));
  assert.deepEqual([...entries.keys()].sort(), [
    'char',
    'char *',
    'char **',
    'enum color',
    'int32_t',
    'int32_t[4]',
    'mode_t',
    'struct stream',
    'struct stream *',
    'uint32_t',
  ]);
  assert.deepEqual(entries.get('struct stream'), {
    name: 'struct stream',
    kind: 'STRUCT',
    size: 16,
    definition: {
      members: {
        '0x0': { name: 'fd', type: 'int32_t', size: 4, offset: 0 },
        '0x4': { name: 'mode', type: 'mode_t', size: 4, offset: 4 },
      },
    },
  });
  assert.deepEqual(entries.get('mode_t'), {
    name: 'mode_t',
    kind: 'TYPEDEF',
    size: 4,
    definition: { type: 'uint32_t' },
  });
  assert.deepEqual(entries.get('char **'), {
    name: 'char **',
    kind: 'POINTER',
    size: 8,
    definition: { type: 'char *' },
  });
  assert.deepEqual(entries.get('int32_t[4]')!.definition, { type: 'int32_t', count: 4 });
  assert.deepEqual(entries.get('char')!.size, 1);
  // A union's members share offset 0: keyed by name after the first.
  const u = typesOfRecord(
    record({
      deps: [
        {
          kind: 'union',
          name: 'value',
          size: 8,
          members: [
            { name: 'i', type: 'int64_t', size: 8, offset: 0 },
            { name: 'd', type: 'double', size: 8, offset: 0 },
          ],
        },
      ],
    }),
  ).find((e) => e.name === 'union value')!;
  assert.deepEqual(Object.keys(u.definition!.members!), ['0x0', 'd']);
  // And back: the entry as the dependency record it came from.
  assert.deepEqual(entryDependency(u), {
    kind: 'union',
    name: 'value',
    size: 8,
    members: [
      { name: 'i', type: 'int64_t', size: 8, offset: 0 },
      { name: 'd', type: 'double', size: 8, offset: 0 },
    ],
  });
  assert.deepEqual(entryDependency(entries.get('enum color')!), {
    kind: 'enum',
    name: 'color',
    members: { RED: 0, GREEN: 1 },
  });
  assert.equal(entryDependency(entries.get('char *')!), null);
});

test('declarations from parts, in C', () => {
  const p = (type: string, name: string) => ({ name, type, size: 8, offset: 0 });
  assert.equal(declareFunction('void', 'f', [], false), 'void f(void)');
  assert.equal(
    declareFunction('char *', 'g', [p('int32_t', 'n'), p('struct stream *', 's')], false),
    'char *g(int32_t n, struct stream *s)',
  );
  assert.equal(declareFunction('int', 'printf', [p('char *', 'fmt')], true), 'int printf(char *fmt, ...)');
  assert.equal(declareFunction('void', 'on', [p('int (*)(int)', 'cb')], false), 'void on(int (*cb)(int))');
});
