import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeholderForm } from '../engine/index.js';
import { proseWithPlaceholders, renamedVariables, spelledOut } from './placeholder-text.js';

const C = 'int32_t f(int32_t a1) {\n  int32_t rax = g(a1);\n  return rax + rax;\n}';
const form = placeholderForm(C, [
  { kind: 'function', name: 'f', address: 0x1000 },
  { kind: 'function', name: 'g', address: 0x1100 },
]);

test('spelledOut: every token by its map gives the text back; a token no map has gives null', () => {
  assert.equal(spelledOut(form.text, form.mapping), C);
  assert.equal(spelledOut(`${form.text} /* <VAR_99> */`, form.mapping), null);
});

test('renamedVariables: a rename in unmatched_vars renames every use, nothing else', () => {
  const mapping = renamedVariables(form.mapping, [{ name: 'rax', suggestion: 'doubled' }]);
  assert.equal(
    spelledOut(form.text, mapping),
    'int32_t f(int32_t a1) {\n  int32_t doubled = g(a1);\n  return doubled + doubled;\n}',
  );
  assert.deepEqual(mapping.inverse_function_map, form.mapping.inverse_function_map);
});

test('proseWithPlaceholders: whole words of mapped names become their tokens and spell back', () => {
  const prose = 'f passes a1 to g and returns twice rax; fg and gx are not names.';
  const raw = proseWithPlaceholders(prose, form.mapping);
  assert.ok(!/\bg\b|\ba1\b|\brax\b/.test(raw), raw);
  assert.match(raw, /fg and gx are not names/);
  assert.equal(spelledOut(raw, form.mapping), prose);
  // Prose that already holds a token-shaped text would not spell itself back: left as it is.
  assert.equal(proseWithPlaceholders('see <VAR_0>', form.mapping), 'see <VAR_0>');
});
