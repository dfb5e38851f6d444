// The deterministic summary: what each sentence says from which fact, and constants picked from the C.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { functionSummary, notableConstants } from './summary.js';

test('summary: notable constants are distinct hex literals of at least 0x100, in order of appearance', () => {
  const c = 'x = 0x5f3759dfu + 0xau; y = (0xFFFFull & 4096) + 0x5f3759df; s = "0x1234";';
  assert.deepEqual(notableConstants(c), ['0x5f3759df', '0xffff']);
});

test('summary: callers, callees, library calls, strings, constants and capabilities, each when there are any', () => {
  const text = 'int32_t parse(void *a1) {\n  return puts("usage") + 0xdeadbeefu;\n}';
  const symbols = [
    { name: 'parse', kind: 'function' as const, address: 0x1000 },
    { name: 'puts', kind: 'external' as const, address: 0x2000 },
    { name: 'helper', kind: 'function' as const, address: 0x3000 },
    { name: 'usage', kind: 'string' as const, address: 0x4000 },
  ];
  assert.equal(
    functionSummary({
      name: 'parse',
      symbols,
      text,
      strings: ['usage', 'config.ini'],
      capabilities: ['parse command line arguments'],
      callers: ['main'],
      callees: ['helper', 'puts'],
    }),
    'parse is called by 1 function (main) and calls 2 functions (helper, puts). It uses 1 library function: ' +
      'puts. Its C refers to 1 function of the binary: helper. It refers to 2 strings: "usage", "config.ini". ' +
      'Notable constants: 0xdeadbeef. Capabilities matched in it: parse command line arguments.',
  );
  assert.equal(
    functionSummary({
      name: 'leaf',
      symbols: [],
      text: 'void leaf(void) {\n}',
      strings: [],
      capabilities: [],
      callers: [],
      callees: [],
    }),
    'leaf is called by no function of the binary and calls none.',
  );
});
