// A parser of C declarations: the subset library headers' prototypes use (base types in every spelling,
// <stdint.h> and POSIX names, typedefs, qualifiers, pointers, arrays, function pointers, struct, union and
// enum tags and definitions laid out for a data model, variadic and unnamed parameters, calling conventions,
// Windows SAL annotations). No preprocessor. Pure; imports only ../ctype.js.
import type { CType } from '../ctype.js';
import { Parser, type FunctionDeclaration } from './parser.js';
import type { DeclarationScope } from './scope.js';
import { tokenize, TokenStream } from './tokens.js';

export { CDeclarationError } from './tokens.js';
export { createScope, type DeclarationScope } from './scope.js';
export { DATA_MODELS, MODEL_SIZES, builtinTypes, type DataModel } from './data-model.js';
export { storageOf } from './layout.js';
export type { FunctionDeclaration } from './parser.js';

/**
 * The functions `text` declares. Its typedefs, definitions and enumeration constants are added to `scope`,
 * for later texts to use. Throws a CDeclarationError naming `source`, the line and column (the scope then
 * keeps what was read before the error).
 */
export function parseDeclarations(
  text: string,
  scope: DeclarationScope,
  source = 'declarations',
): FunctionDeclaration[] {
  const parser = new Parser(new TokenStream(tokenize(text, source), text, source), scope);
  parser.translationUnit();
  return parser.functions;
}

/** The type a type name spells (`const char *`, `void (*)(int)`, `struct stat`) in `scope`. */
export function parseTypeName(text: string, scope: DeclarationScope): CType {
  return new Parser(new TokenStream(tokenize(text, 'type name'), text, 'type name'), scope).typeName();
}
