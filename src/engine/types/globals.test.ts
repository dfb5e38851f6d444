// Globals from the constant addresses a function's loads and stores use, on hand-assembled x86-64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureImage, type FixtureSpec } from '../../../test/helpers/engine/cfg.js';
import { signaturesOf } from '../../../test/helpers/engine/ir.js';
import { GlobalNames } from './globals.js';

test('globals: RIP-relative accesses name the object symbol holding them, or g_<address> typed by width', async () => {
  const spec: FixtureSpec = {
    arch: 'x86_64',
    sections: [
      {
        name: '.text',
        vaddr: 0x1000,
        exec: true,
        bytes: [
          ...[0x8b, 0x05, 0xfa, 0x0f, 0x00, 0x00], // mov eax, [rip+0xffa]        (0x2000: counter)
          ...[0xc6, 0x05, 0x03, 0x10, 0x00, 0x00, 0x01], // mov byte [rip+0x1003], 1 (0x2010: no symbol)
          ...[0x03, 0x05, 0x15, 0x10, 0x00, 0x00], // add eax, [rip+0x1015]       (0x2028: inside table)
          ...[0xff, 0x15, 0xe7, 0x0f, 0x00, 0x00], // call [rip+0xfe7]           (0x2000 again, a call target)
          ...[0xc3], // ret
        ],
      },
      { name: '.data', vaddr: 0x2000, exec: false, bytes: new Array(0x40).fill(0) },
    ],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
    symbols: [
      { name: 'counter', vaddr: 0x2000, size: 4, kind: 'object', binding: 'global', source: 'symtab' },
      { name: 'table', vaddr: 0x2020, size: 32, kind: 'object', binding: 'global', source: 'symtab' },
    ],
  };
  const sig = (await signaturesOf(spec)).get(0x1000)!;
  assert.deepEqual(sig.globals, [
    { address: 0x2000, size: 4 },
    { address: 0x2010, size: 1 },
    { address: 0x2028, size: 4 },
  ]);
  assert.deepEqual(
    new GlobalNames(fixtureImage(spec), null, 8)
      .dependencies(sig.globals)
      .map((g) => g.kind === 'global' && [g.name, g.type, g.size, g.vaddr]),
    [
      ['counter', 'int32_t', 4, 0x2000],
      ['g_2010', 'int8_t', 1, 0x2010],
      ['table', 'uint8_t [32]', 32, 0x2020],
    ],
  );
});
