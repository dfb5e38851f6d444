import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RESULT_DOCUMENT_VERSION, readResultDocument } from './result-document.js';

test('result document: unversioned documents read as version 1; a newer version is refused with what to do', () => {
  assert.equal(readResultDocument(undefined), undefined);
  assert.equal(readResultDocument(null), undefined);
  const old = { functionCount: 3, identity: { format: 'elf' } };
  assert.deepEqual(readResultDocument(old), { ...old, version: RESULT_DOCUMENT_VERSION });
  assert.throws(() => readResultDocument({ ...old, version: RESULT_DOCUMENT_VERSION + 1 }), /requeue the analysis/);
});
