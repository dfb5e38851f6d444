import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardedDemangler } from '../engine/names/index.js';
import { loadDemangler } from './demangler.js';

test('demangler: the host loads it, the engine guards it; without one names stay as they are', async () => {
  const demangle = guardedDemangler(await loadDemangler());
  assert.equal(demangle('_ZN3foo3barEv'), 'foo::bar()');
  assert.equal(demangle('__ZN3foo3barEv'), 'foo::bar()'); // Mach-O's extra underscore
  assert.equal(demangle('_RNvCs1234_7mycrate3foo').includes('mycrate::foo'), true);
  assert.equal(demangle('main'), 'main', 'not mangled: untouched');
  assert.equal(demangle('_Z' + 'x'.repeat(5000)), '_Z' + 'x'.repeat(5000), 'too long: untouched');
  const throwing = guardedDemangler(() => {
    throw new Error('unreadable');
  });
  assert.equal(throwing('_ZN3fooE'), '_ZN3fooE', 'a failure leaves the name');
  assert.equal(guardedDemangler(null)('_ZN3foo3barEv'), '_ZN3foo3barEv');
});
