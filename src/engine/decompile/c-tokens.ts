// A small C tokenizer for the decompiler's own output: identifiers, numbers, string and character literals,
// punctuators, and the space and comments between them. Lossless — the tokens' texts joined are the input —
// so a pass can rewrite some tokens and leave every other byte as it was (placeholders.ts).

export type CTokenKind = 'ident' | 'number' | 'string' | 'char' | 'punct' | 'space' | 'comment' | 'directive';

export interface CToken {
  kind: CTokenKind;
  text: string;
}

const PATTERNS: [CTokenKind, RegExp][] = [
  ['space', /\s+/y],
  ['comment', /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y],
  ['directive', /#[^\n]*/y],
  ['ident', /[A-Za-z_][A-Za-z0-9_]*/y],
  // Hex, decimal and floating constants with their suffixes (0xffu, 1.5e-3f, 8ull).
  ['number', /(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUlLfF]*/y],
  // An unterminated literal runs to the end of its line: the text stays whole either way.
  ['string', /"(?:[^"\\\n]|\\.)*(?:"|$)/my],
  ['char', /'(?:[^'\\\n]|\\.)*(?:'|$)/my],
  ['punct', /->|\+\+|--|<<=?|>>=?|[<>=!]=|&&|\|\||[-+*/%&|^]=|[^\s]/y],
];

export function tokenize(c: string): CToken[] {
  const out: CToken[] = [];
  let at = 0;
  while (at < c.length) {
    for (const [kind, re] of PATTERNS) {
      re.lastIndex = at;
      const m = re.exec(c);
      if (!m || m[0].length === 0) continue;
      out.push({ kind, text: m[0] });
      at += m[0].length;
      break;
    }
  }
  return out;
}

/** Tokens that carry meaning (not space, comments or preprocessor lines). */
export const significant = (t: CToken): boolean => t.kind !== 'space' && t.kind !== 'comment' && t.kind !== 'directive';
