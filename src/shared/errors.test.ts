import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { errors } from './errors.js';

test('docs/errors.md lists every registered error with its status and wire code', () => {
  const doc = readFileSync('docs/errors.md', 'utf8');
  const rows = [...doc.matchAll(/^\| (\w+) \| (\d{3}) \| (`[^`]+`|\(empty `errors`\)) \|/gm)].map((m) => ({
    key: m[1],
    status: Number(m[2]),
    wireCode: m[3]!.startsWith('`') ? m[3]!.slice(1, -1) : null,
  }));
  const registry = Object.entries(errors.specs).map(([key, s]) => ({ key, status: s.status, wireCode: s.wireCode }));
  assert.deepEqual(rows, registry);
});

test('factories build AppErrors carrying the registry entry', () => {
  const e = errors.analysisNotFound(42);
  assert.equal(e.status, 404);
  assert.equal(e.wireCode, '404');
  assert.equal(e.message, 'Analysis with ID 42 could not be found');
});
