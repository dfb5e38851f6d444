// Source language of a binary, from what linking leaves behind: runtime sections, mangling schemes and
// the runtime libraries it imports. Stripped binaries keep their dynamic symbols and imports, so the
// common cases survive `strip`; a static, stripped C++ program reads as C.
import type { BinaryImage } from './formats/image.js';

export type SourceLanguage = 'go' | 'rust' | 'swift' | 'objc' | 'c++' | 'c';

const GO_SECTIONS = new Set(['.gopclntab', '.go.buildinfo', '.note.go.buildid', '__gopclntab', '__go_buildinfo']);
/**
 * Legacy Rust mangling ends each name in a 17-character hash segment `17h<16 hex>E`; v0 names are `_R`, an
 * optional encoding version, then a path, which starts with one of B C I M N X Y (so mingw's
 * `__RUNTIME_PSEUDO_RELOC_LIST__` is not one).
 */
const RUST_SYMBOL = /^_?_R\d*[BCIMNXY]|17h[0-9a-f]{16}E$/;
const CXX_LIBRARY = /^(libstdc\+\+|libc\+\+|msvcp\d|vcruntime\d)/i;

export function detectLanguage(image: BinaryImage): SourceLanguage {
  if (image.sections.some((s) => GO_SECTIONS.has(s.name))) return 'go';
  const names = [...image.symbols.map((s) => s.name), ...image.imports.map((i) => i.name)];
  if (names.some((n) => RUST_SYMBOL.test(n) || n === 'rust_panic' || n === '__rust_alloc')) return 'rust';
  if (names.some((n) => n.startsWith('$s') || n.startsWith('_$s') || n.startsWith('swift_'))) return 'swift';
  if (names.some((n) => n === 'objc_msgSend' || n === '_objc_msgSend')) return 'objc';
  const cxxName = (n: string) => n.startsWith('_Z') || n.startsWith('__Z') || n.startsWith('?');
  if (names.some(cxxName) || image.libraries.some((l) => CXX_LIBRARY.test(l))) return 'c++';
  return 'c';
}
