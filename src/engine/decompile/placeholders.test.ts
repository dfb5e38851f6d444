// Placeholder form on the decompiler's real output (a small program built with gcc here) and on a string
// literal: every token resolves through the mapping, and substituting them all gives the C back exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { hasCommand } from '../../../test/helpers/commands.js';
import { decompile, placeholderForm, type FunctionMappingFull } from './index.js';
import { tokenize } from './c-tokens.js';

const PROGRAM = `#include <stdio.h>
#include <string.h>
static int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__attribute__((noinline)) int helper(int x) { return table[x & 7] * 3; }
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < argc; i++) s += helper(i) + (int)strlen(argv[i]);
  if (s > 10) puts("big"); else puts("small");
  return s;
}
`;

const hasGcc = hasCommand('gcc');

/** Every map's token → spelling; a token in two maps fails. */
function spellings(m: FunctionMappingFull): Map<string, string> {
  const out = new Map<string, string>();
  const add = (token: string, value: string) => {
    assert.ok(!out.has(token), `${token} is in one map only`);
    out.set(token, value);
  };
  for (const [t, v] of Object.entries(m.inverse_function_map)) add(t, v.name);
  for (const [t, v] of Object.entries(m.inverse_string_map)) add(t, v.string);
  for (const [key, map] of Object.entries(m))
    if (key.startsWith('unmatched_'))
      for (const [t, v] of Object.entries(map as Record<string, { value: string }>)) add(t, v.value);
  return out;
}

function resolve(text: string, m: FunctionMappingFull): string {
  const names = spellings(m);
  return text.replace(/<[A-Z_]+_\d+>/g, (token) => {
    const v = names.get(token);
    assert.notEqual(v, undefined, `${token} resolves through the mapping`);
    return v!;
  });
}

test('c-tokens: tokens joined are the input', () => {
  const c = 'int f(int a) {\n  /* x */ return a ? "s\\"q" : \'c\'; // end\n}\n#x\n"open';
  assert.equal(
    tokenize(c)
      .map((t) => t.text)
      .join(''),
    c,
  );
});

test('placeholders: a recorded string literal maps to its address, another literal is unmatched', () => {
  const c = 'int32_t f(void) {\n  puts("hi\\n");\n  return puts("other");\n}';
  const form = placeholderForm(c, [
    { name: 'f', kind: 'function', address: 0x1000 },
    { name: 'puts', kind: 'external', address: 0x2000 },
    { name: 'hi\\n', kind: 'string', address: 0x3000 },
  ]);
  assert.equal(
    form.text,
    'int32_t <DISASM_FUNCTION_0>(void) {\n  <DISASM_FUNCTION_1>("<DISASM_STRING_0>");\n  return <DISASM_FUNCTION_1>("<UNMATCHED_STRING_0>");\n}',
  );
  assert.deepEqual(form.mapping.inverse_string_map, { '<DISASM_STRING_0>': { string: 'hi\\n', addr: 0x3000 } });
  assert.deepEqual(form.mapping.inverse_function_map['<DISASM_FUNCTION_1>'], {
    name: 'puts',
    addr: 0x2000,
    is_external: true,
  });
  assert.equal(resolve(form.text, form.mapping), c);
});

test('placeholders: labels and gotos, declaration lists, loops, structure tags, a ternary and a call through a helper', () => {
  const c = [
    'void g(int32_t a1, struct v128 *a2) {',
    '  uint64_t x = 0, y = (uint64_t)(a1), z[4];',
    '  struct v128 v = {0};',
    '  for (int32_t i = 0; i < 4; i++) z[i] = a1 ? x : y;',
    '  if (x) goto L1_10;',
    '  y = bl_rotl(x, 3);',
    'L1_10:;',
    '  return;',
    '}',
  ].join('\n');
  const form = placeholderForm(c, [{ name: 'g', kind: 'function', address: 0x10 }]);
  assert.equal(
    form.text,
    [
      'void <DISASM_FUNCTION_0>(int32_t <VAR_0>, struct <CUSTOM_TYPE_0> *<VAR_1>) {',
      '  uint64_t <VAR_2> = 0, <VAR_3> = (uint64_t)(<VAR_0>), <VAR_4>[4];',
      '  struct <CUSTOM_TYPE_0> <VAR_5> = {0};',
      '  for (int32_t <VAR_6> = 0; <VAR_6> < 4; <VAR_6>++) <VAR_4>[<VAR_6>] = <VAR_0> ? <VAR_2> : <VAR_3>;',
      '  if (<VAR_2>) goto <GO_TO_LABEL_0>;',
      '  <VAR_3> = <UNMATCHED_FUNCTION_0>(<VAR_2>, 3);',
      '<GO_TO_LABEL_0>:;',
      '  return;',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(form.mapping.unmatched_go_to_labels, { '<GO_TO_LABEL_0>': { value: 'L1_10' } });
  assert.equal(resolve(form.text, form.mapping), c);
});

for (const level of ['O0', 'O1'])
  test(`placeholders: gcc -${level} output of a small program resolves through its mapping to the C exactly`, async (t) => {
    if (!hasGcc) return t.skip('gcc absent');
    const dir = mkdtempSync(join(tmpdir(), 'binlens-placeholders-test-'));
    try {
      writeFileSync(join(dir, 'p.c'), PROGRAM);
      execFileSync('gcc', [`-${level}`, '-o', 'p', 'p.c'], { cwd: dir, stdio: 'ignore' });
      const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'p')), {});
      const main = image.symbols.find((s) => s.name === 'main')!.vaddr;
      const helper = image.symbols.find((s) => s.name === 'helper')!.vaddr;
      const out = decompile(image, graph, decoders, [graph.functions.findIndex((f) => f.start === main)]);
      const fMain = out.functions.find((f) => f.address === main)!;
      assert.ok(fMain.text, fMain.error);
      const form = placeholderForm(fMain.text, fMain.symbols);
      assert.equal(resolve(form.text, form.mapping), fMain.text);
      const fns = Object.values(form.mapping.inverse_function_map);
      assert.deepEqual(
        fns.find((f) => f.name === 'main'),
        { name: 'main', addr: main, is_external: false },
        'the function itself',
      );
      assert.deepEqual(
        fns.find((f) => f.name === 'helper'),
        { name: 'helper', addr: helper, is_external: false },
      );
      for (const lib of ['puts', 'strlen']) assert.equal(fns.find((f) => f.name === lib)?.is_external, true, lib);
      assert.ok(Object.keys(form.mapping.unmatched_vars).length > 0, 'parameters and locals are variables');
      assert.ok(!/\ba1\b/.test(form.text), 'no parameter name is left');
      assert.ok(/<DISASM_FUNCTION_\d+>\(/.test(form.text));
      const fHelper = out.functions.find((f) => f.address === helper)!;
      const h = placeholderForm(fHelper.text!, fHelper.symbols);
      assert.equal(resolve(h.text, h.mapping), fHelper.text);
      assert.ok(
        Object.values(h.mapping.unmatched_global_vars).some((v) => v.value === 'table'),
        'the table is read as the global its symbol names',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
