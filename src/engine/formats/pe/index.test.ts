import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BinaryImage } from '../image.js';
import { syntheticPe } from '../../../../test/helpers/engine/pe.js';
import type { SyntheticPe } from '../../../../test/helpers/engine/pe.js';
import { parsePe } from './index.js';

const builds = ([64, 32] as const).map((bits) => {
  const fixture = syntheticPe(bits);
  return { bits, fixture, image: parsePe(fixture.bytes) };
});

/** [what, check(image, fixture, bits)]: each row runs on the PE32+ and the PE32 build. */
const cases: [string, (img: BinaryImage, f: SyntheticPe, bits: 32 | 64) => void][] = [
  [
    'identity from the whole file',
    (img, f, bits) => {
      assert.equal(img.identity.format, 'pe');
      assert.equal(img.identity.architecture, bits === 64 ? 'x86_64' : 'x86');
      assert.equal(img.identity.baseAddress, f.base);
      assert.equal(img.identity.debug, true, 'DWARF section and CodeView count as debug info');
    },
  ],
  ['no diagnostics', (img) => assert.deepEqual(img.diagnostics, [])],
  [
    'sections, long name from the string table',
    (img, f) => {
      assert.deepEqual(
        img.sections.map((s) => s.name),
        ['.text', '.rdata', '.pdata', '.reloc', '.debug_info'],
      );
      assert.deepEqual(
        img.sections.map((s) => s.exec),
        [true, false, false, false, false],
      );
      assert.equal(img.sections[0]!.vaddr, f.base + 0x1000);
    },
  ],
  [
    'imports by name and ordinal, IAT slots, DLLs (incl. delay-load)',
    (img, f) => {
      assert.deepEqual(
        img.imports.map((i) => [i.library, i.name, i.slot]),
        [
          ['KERNEL32.dll', 'CreateProcessA', f.expect.iat.CreateProcessA],
          ['KERNEL32.dll', 'VirtualAllocEx', f.expect.iat.VirtualAllocEx],
          ['KERNEL32.dll', 'WriteProcessMemory', f.expect.iat.WriteProcessMemory],
          ['WS2_32.dll', 'ordinal_23', f.expect.iat.ordinal_23],
          ['WS2_32.dll', '__stack_chk_fail', f.expect.iat.__stack_chk_fail],
          ['USER32.dll', 'MessageBoxA', f.expect.iat.MessageBoxA],
        ],
      );
      assert.deepEqual(img.libraries, ['KERNEL32.dll', 'WS2_32.dll', 'USER32.dll']);
    },
  ],
  [
    'jmp-thunks found; a REX.W tail call is not a thunk on x86-64 (on i386 0x48 is dec eax)',
    (img, f, bits) => {
      const stubs = Object.fromEntries(img.imports.map((i) => [i.name, i.stubs]));
      assert.deepEqual(stubs.CreateProcessA, [f.expect.thunks.CreateProcessA]);
      assert.deepEqual(stubs.ordinal_23, [f.expect.thunks.ordinal_23]);
      assert.deepEqual(stubs.VirtualAllocEx, bits === 64 ? [] : [f.expect.tailCall]);
      assert.deepEqual(stubs.WriteProcessMemory, []);
    },
  ],
  [
    'exports: forwarder skipped, unnamed → ordinal_<n>, data exported but not an entry point',
    (img, f) => {
      assert.deepEqual(img.exports, f.expect.exports);
      const exported = img.entryPoints.filter((e) => e.kind === 'export').map((e) => e.vaddr);
      assert.deepEqual(exported, [f.base + 0x1010, f.base + 0x1020, f.base + 0x1040]);
    },
  ],
  [
    'entry point and TLS callback',
    (img, f) => {
      assert.deepEqual(img.entryPoints.slice(0, 2), [
        { vaddr: f.expect.entry, kind: 'entry' },
        { vaddr: f.expect.tlsCallback, kind: 'tls-callback' },
      ]);
    },
  ],
  [
    '.pdata ranges on x86-64, chained fragment included; none on i386',
    (img, f, bits) => {
      const want = [
        [0x1000, 0x1001],
        [0x1010, 0x1011],
        [0x1020, 0x1021],
        [0x1040, 0x1050],
      ].map(([s, e]) => ({ start: f.base + s!, end: f.base + e! }));
      assert.deepEqual(img.unwind, bits === 64 ? want : []);
    },
  ],
  [
    'relocated pointers only where the target is code',
    (img, f) => assert.deepEqual(img.pointers, [{ at: f.base + 0x2840, target: f.expect.tlsCallback }]),
  ],
  [
    'COFF symbols: functions, data, labels; section/file/absolute records skipped',
    (img, f) => {
      assert.deepEqual(
        img.symbols.map((s) => [s.name, s.vaddr - f.base, s.kind, s.binding, s.source]),
        [
          ['alpha', 0x1010, 'function', 'global', 'symtab'],
          ['a_very_long_function_name', 0x1020, 'function', 'local', 'symtab'],
          ['data_var', 0x2a00, 'object', 'global', 'symtab'],
          ['label', 0x1040, 'other', 'local', 'symtab'],
        ],
      );
    },
  ],
  [
    'security from DllCharacteristics and imports',
    (img, _f, bits) => {
      assert.deepEqual(img.security, {
        nx: true,
        pie: true,
        relro: null,
        canary: true,
        fortify: false,
        aslr: true,
        dep: true,
        cfg: true,
        seh: true,
        highEntropyVa: bits === 64,
      });
    },
  ],
  [
    'debug: CodeView RSDS and DWARF section',
    (img) => {
      assert.deepEqual(img.debug, {
        dwarf: true,
        dwarfSections: ['.debug_info'],
        buildId: null,
        pdbPath: 'C:\\build\\synth.pdb',
        pdbGuid: '12345678-9ABC-DEF0-0102-030405060708-3',
        uuid: null,
      });
    },
  ],
  [
    'signed; overlay after the string table, certificate table at the end excluded',
    (img, f) => {
      assert.equal(img.signed, true);
      assert.deepEqual(img.overlay, f.expect.overlay);
    },
  ],
];

for (const [what, check] of cases) {
  test(`parsePe: ${what}`, () => {
    for (const { bits, fixture, image } of builds) check(image, fixture, bits);
  });
}

test('parsePe: the same bytes give the same image (determinism)', () => {
  const f = syntheticPe(64);
  assert.deepEqual(parsePe(f.bytes), parsePe(f.bytes.slice()));
});
