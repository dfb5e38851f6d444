import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BinaryImage } from './formats/image.js';
import { detectLanguage, type SourceLanguage } from './language.js';

const image = (parts: { sections?: string[]; symbols?: string[]; imports?: string[]; libraries?: string[] }) =>
  ({
    sections: (parts.sections ?? []).map((name) => ({ name })),
    symbols: (parts.symbols ?? []).map((name) => ({ name })),
    imports: (parts.imports ?? []).map((name) => ({ name })),
    libraries: parts.libraries ?? [],
  }) as unknown as BinaryImage;

const cases: [string, Parameters<typeof image>[0], SourceLanguage][] = [
  ['plain C', { symbols: ['main', 'printf'], libraries: ['libc.so.6'] }, 'c'],
  ['Go runtime tables', { sections: ['.text', '.gopclntab'] }, 'go'],
  ['legacy Rust mangling', { symbols: ['_ZN4core3fmt5write17h0123456789abcdefE'] }, 'rust'],
  ['Rust v0 mangling', { symbols: ['_RNvCs1234_7mycrate4main'] }, 'rust'],
  ['Rust v0 mangling, Mach-O underscore', { symbols: ['__RNvCs1234_7mycrate4main'] }, 'rust'],
  [
    "mingw's runtime symbols are not Rust",
    { symbols: ['__RUNTIME_PSEUDO_RELOC_LIST__', '__RUNTIME_PSEUDO_RELOC_LIST_END__', 'main'] },
    'c',
  ],
  ['Itanium C++ names', { symbols: ['_ZN3foo3barEv'] }, 'c++'],
  ['MSVC C++ names', { imports: ['??2@YAPEAX_K@Z'] }, 'c++'],
  ['stripped, but links libstdc++', { libraries: ['libstdc++.so.6', 'libc.so.6'] }, 'c++'],
  ['Objective-C runtime', { imports: ['_objc_msgSend'] }, 'objc'],
  ['Swift runtime', { imports: ['swift_retain'] }, 'swift'],
];
for (const [name, parts, want] of cases)
  test(`detectLanguage: ${name} → ${want}`, () => assert.equal(detectLanguage(image(parts)), want));
