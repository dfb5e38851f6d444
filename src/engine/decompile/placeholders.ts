// A decompiled function's C in the reference service's placeholder form: every name a client may want to
// link or rename — functions of the binary and library functions, string literals, locals and parameters,
// labels, data, structure tags, other functions the text calls — is replaced by a token such as
// `<DISASM_FUNCTION_0>` or `<VAR_3>`, and the mapping says what each token stands for. Substituting every
// token by its mapped spelling gives the C back byte for byte. Token spellings and the field that carries them
// follow the reference's clients (docs/decisions.md, "AI decompilation").
import type { FunctionMapping } from '../../contracts/index.js';
import { significant, tokenize, type CToken } from './c-tokens.js';
import { C_KEYWORDS } from './c-names.js';
import type { DecompiledSymbol } from './program.js';

/** The reference's FunctionMappingFull: each map keyed by the placeholder token it resolves. */
export type FunctionMappingFull = FunctionMapping;
type Values = FunctionMapping['unmatched_vars'];

export interface PlaceholderForm {
  /** The C with placeholder tokens. */
  text: string;
  mapping: FunctionMappingFull;
}

/** Words that begin or qualify a type in a declaration. */
const TYPE_WORDS = new Set(
  'void char short int long float double signed unsigned _Bool bool const volatile static register extern inline'.split(
    ' ',
  ),
);
const TAG_KEYWORDS = new Set(['struct', 'union', 'enum']);
const isTypeName = (s: string) => TYPE_WORDS.has(s) || /^[A-Za-z_]\w*_t$/.test(s);

type Category = 'function' | 'string' | 'unmatchedString' | 'unmatchedFunction' | 'var' | 'label' | 'global' | 'type';

const PREFIX: Record<Category, string> = {
  function: 'DISASM_FUNCTION',
  string: 'DISASM_STRING',
  unmatchedString: 'UNMATCHED_STRING',
  unmatchedFunction: 'UNMATCHED_FUNCTION',
  var: 'VAR',
  label: 'GO_TO_LABEL',
  global: 'GLOBAL_VARIABLE',
  type: 'CUSTOM_TYPE',
};

/**
 * The placeholder form of one function's C `text`, given the symbols the decompiler recorded for it: names
 * of recorded functions, library functions and data, literals of recorded strings (with their addresses);
 * declared locals and parameters, labels, structure tags, other called names and other literals unmatched.
 */
export function placeholderForm(text: string, symbols: readonly DecompiledSymbol[]): PlaceholderForm {
  const tokens = tokenize(text);
  const sig = tokens.map((t, i) => i).filter((i) => significant(tokens[i]!));
  const at = (k: number): CToken | undefined => (k >= 0 && k < sig.length ? tokens[sig[k]!] : undefined);
  const { declared, labels } = declarations(tokens, sig);
  const named = new Map(symbols.filter((s) => s.kind !== 'string').map((s) => [s.name, s]));
  const literals = new Map(symbols.filter((s) => s.kind === 'string').map((s) => [s.name, s]));

  const mapping = emptyMapping();
  const tokenOf = new Map<string, string>();
  const counts = new Map<Category, number>();
  /** The token standing for `key` in `category`, made on first use (numbered in order of appearance). */
  const placeholder = (category: Category, key: string, add: (token: string) => void): string => {
    const id = `${category}:${key}`;
    let token = tokenOf.get(id);
    if (token === undefined) {
      const n = counts.get(category) ?? 0;
      counts.set(category, n + 1);
      token = `<${PREFIX[category]}_${n}>`;
      tokenOf.set(id, token);
      add(token);
    }
    return token;
  };

  const out = tokens.map((t) => t.text);
  sig.forEach((ti, k) => {
    const t = tokens[ti]!;
    if (t.kind === 'string') {
      const closed = t.text.length > 1 && t.text.endsWith('"');
      const body = t.text.slice(1, closed ? -1 : undefined);
      const s = literals.get(body);
      const token = s
        ? placeholder('string', body, (p) => (mapping.inverse_string_map[p] = { string: body, addr: s.address }))
        : placeholder('unmatchedString', body, (p) => (mapping.unmatched_strings[p] = { value: body }));
      out[ti] = `"${token}${closed ? '"' : ''}`;
      return;
    }
    if (t.kind !== 'ident' || C_KEYWORDS.has(t.text) || isTypeName(t.text)) return;
    const name = t.text;
    const value = (m: Values) => (p: string) => (m[p] = { value: name });
    const prev = at(k - 1)?.text;
    if (prev !== undefined && TAG_KEYWORDS.has(prev))
      out[ti] = placeholder('type', name, value(mapping.unmatched_custom_types));
    else if (labels.has(name) && (prev === 'goto' || at(k + 1)?.text === ':'))
      out[ti] = placeholder('label', name, value(mapping.unmatched_go_to_labels));
    else if (named.has(name)) {
      const s = named.get(name)!;
      out[ti] =
        s.kind === 'global'
          ? placeholder('global', name, value(mapping.unmatched_global_vars))
          : placeholder('function', name, (p) => {
              mapping.inverse_function_map[p] = { name, addr: s.address, is_external: s.kind === 'external' };
            });
    } else if (declared.has(name)) out[ti] = placeholder('var', name, value(mapping.unmatched_vars));
    else if (at(k + 1)?.text === '(')
      out[ti] = placeholder('unmatchedFunction', name, value(mapping.unmatched_functions));
  });
  return { text: out.join(''), mapping };
}

/**
 * Names the text declares (parameters, locals: an identifier after a type, or after a comma in a declaration
 * list) and the labels it defines (`name:` where a statement starts).
 */
function declarations(tokens: CToken[], sig: number[]): { declared: Set<string>; labels: Set<string> } {
  const declared = new Set<string>();
  const labels = new Set<string>();
  const text = (k: number) => (k >= 0 && k < sig.length ? tokens[sig[k]!]!.text : undefined);
  const isType = (k: number) => {
    const s = text(k);
    return s !== undefined && (isTypeName(s) || TAG_KEYWORDS.has(text(k - 1) ?? ''));
  };
  let depth = 0;
  /** Depth of the declaration list being read (its commas introduce declarators), or null. */
  let list: number | null = null;
  let afterComma = false;
  for (let k = 0; k < sig.length; k++) {
    const t = tokens[sig[k]!]!;
    const s = t.text;
    if (s === '(' || s === '[' || s === '{') depth++;
    else if (s === ')' || s === ']' || s === '}') {
      depth--;
      if (list !== null && depth < list) list = null;
    } else if (s === ';' && depth === list) list = null;
    if (s === ',' && depth === list) {
      afterComma = true;
      continue;
    }
    if (t.kind !== 'ident' || C_KEYWORDS.has(s) || isTypeName(s)) {
      if (s !== '*') afterComma = false;
      continue;
    }
    if (TAG_KEYWORDS.has(text(k - 1) ?? '')) continue;
    const prevStart = ['{', '}', ';', ':', undefined].includes(text(k - 1));
    if (prevStart && text(k + 1) === ':' && text(k + 2) !== ':') labels.add(s);
    let j = k - 1;
    while (text(j) === '*' || text(j) === 'const' || text(j) === 'restrict') j--;
    const declarator = (isType(j) || afterComma) && text(k + 1) !== '(';
    afterComma = false;
    if (!declarator) continue;
    declared.add(s);
    if (list === null) list = depth;
  }
  return { declared, labels };
}

function emptyMapping(): FunctionMappingFull {
  return {
    inverse_string_map: {},
    inverse_function_map: {},
    unmatched_functions: {},
    unmatched_custom_types: {},
    unmatched_strings: {},
    unmatched_vars: {},
    unmatched_go_to_labels: {},
    unmatched_custom_function_pointers: {},
    unmatched_variadic_lists: {},
    unmatched_enums: {},
    unmatched_global_vars: {},
    fields: {},
    unmatched_external_vars: {},
  };
}
