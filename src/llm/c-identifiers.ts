// Just enough C lexing to check a suggested name: which identifiers a function uses, and which of them
// are variables (not types, fields, labels or called functions).

const C11_KEYWORDS = new Set(
  (
    'auto break case char const continue default do double else enum extern float for goto if inline int ' +
    'long register restrict return short signed sizeof static struct switch typedef union unsigned void ' +
    'volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert ' +
    '_Thread_local'
  ).split(' '),
);
/** Macros of the standard headers decompiled units include, which a variable of that name would break. */
const HEADER_MACROS = new Set(['bool', 'true', 'false', 'NULL', 'EOF', 'errno', 'assert', 'alignas', 'alignof']);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An identifier in code; \b keeps number suffixes (4ull, 0x1f) out. */
const WORD = /\b[A-Za-z_][A-Za-z0-9_]*/g;
/** Long enough for any descriptive name; longer answers are not names. */
const MAX_NAME_LENGTH = 64;

/** Why `name` cannot be a new name in a decompiled unit, or null when it can. */
export function unusableName(name: string): string | null {
  if (!IDENTIFIER.test(name)) return 'not a C identifier';
  if (name.length > MAX_NAME_LENGTH) return `longer than ${MAX_NAME_LENGTH} characters`;
  if (C11_KEYWORDS.has(name)) return 'a C keyword';
  if (HEADER_MACROS.has(name)) return 'a macro of the standard headers';
  if (/^_[A-Z_]/.test(name)) return 'reserved for the implementation (_X, __x)';
  if (name.endsWith('_t')) return 'spelled as a type (…_t names are reserved for types)';
  if (name.startsWith('bl_')) return "in the decompiler's own bl_ namespace";
  return null;
}

/** The code without comments, string and character literals (each replaced by a space). */
const codeOnly = (c: string) => c.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, ' ');

/** Every identifier and keyword the code spells, outside comments and literals. */
export function identifiersIn(c: string): Set<string> {
  return new Set(codeOnly(c).match(WORD) ?? []);
}

/**
 * The identifiers the code uses as variables: not keywords or types, not after `.`/`->` (fields), after
 * struct/union/enum (tags), goto or case, not before `(` (called functions), not a label at a line's start.
 */
export function variablesIn(c: string): Set<string> {
  const code = codeOnly(c);
  const out = new Set<string>();
  for (const m of code.matchAll(WORD)) {
    const name = m[0];
    if (C11_KEYWORDS.has(name) || HEADER_MACROS.has(name) || name.endsWith('_t')) continue;
    const line = code.slice(code.lastIndexOf('\n', m.index - 1) + 1, m.index);
    const after = code.slice(m.index + name.length, m.index + name.length + 16);
    if (/(\.|->)\s*$|\b(struct|union|enum|goto|case)\s+$/.test(line) || /^\s*\(/.test(after)) continue;
    if (/^\s*$/.test(line) && /^\s*:(?!:)/.test(after)) continue;
    out.add(name);
  }
  return out;
}
