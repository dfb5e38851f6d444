// Tokens of the C declaration subset, and the stream the parser reads them from. The text is ours (the
// prototype database) or a test's, so anything outside the subset is an error that names where it is.

export interface Token {
  kind: 'ident' | 'number' | 'punct' | 'eof';
  text: string;
  /** Integer literals only. */
  value?: number;
  offset: number;
  line: number;
  column: number;
}

/** A declaration the parser cannot read: where (source, line, column), why, and the declaration's text. */
export class CDeclarationError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly column: number,
    /** What is wrong, without the position (the message leads with it). */
    readonly reason: string,
    /** The declaration being read, whitespace collapsed, up to the error and a little past it. */
    readonly declaration: string,
  ) {
    super(`${source}:${line}:${column}: ${reason} in \`${declaration}\``);
    this.name = 'CDeclarationError';
  }
}

// Longest first, so `...` is not read as three dots and `<<` not as two less-thans.
const PUNCTUATORS = ['...', '<<', '>>', ...'*()[]{},;=:+-~!/%&|^<>?'];

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const NUMBER = /(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*|i64|ui64)/y;

export function tokenize(text: string, source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const fail = (reason: string): never => {
    const snippet = text.slice(i, i + 40).replace(/\s+/g, ' ');
    throw new CDeclarationError(source, line, i - lineStart + 1, reason, snippet);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      lineStart = ++i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail('unterminated comment');
      for (let j = i; j < end; j++)
        if (text[j] === '\n') {
          line++;
          lineStart = j + 1;
        }
      i = end + 2;
      continue;
    }
    const at = { offset: i, line, column: i - lineStart + 1 };
    IDENT.lastIndex = i;
    NUMBER.lastIndex = i;
    const ident = IDENT.exec(text);
    const number = ident ? null : NUMBER.exec(text);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], ...at });
      i += ident[0].length;
    } else if (number) {
      const digits = number[1]!;
      // Octal only with a leading zero and more digits; BigInt keeps 64-bit masks exact up to 2^53.
      const value = /^0[0-7]+$/.test(digits) ? parseInt(digits, 8) : Number(BigInt(digits));
      tokens.push({ kind: 'number', text: number[0], value, ...at });
      i += number[0].length;
    } else if (c === '#') {
      fail('preprocessor directives are not supported');
    } else {
      const p = PUNCTUATORS.find((x) => text.startsWith(x, i));
      if (!p) fail(`unexpected character '${c}'`);
      tokens.push({ kind: 'punct', text: p!, ...at });
      i += p!.length;
    }
  }
  tokens.push({ kind: 'eof', text: '<end of input>', offset: text.length, line, column: i - lineStart + 1 });
  return tokens;
}

/** The parser's cursor over the tokens, with errors that quote the declaration being read. */
export class TokenStream {
  private pos = 0;
  /** Offset in the text where the declaration being read began. */
  declarationStart = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly text: string,
    readonly source: string,
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  /** Whether the next token is the punctuator or word `text`. */
  at(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind !== 'eof' && t.kind !== 'number' && t.text === text;
  }

  accept(text: string): boolean {
    if (!this.at(text)) return false;
    this.next();
    return true;
  }

  expect(text: string, context: string): Token {
    if (!this.at(text)) this.fail(`expected '${text}' ${context}, found '${this.peek().text}'`);
    return this.next();
  }

  fail(reason: string, at: Token = this.peek()): never {
    const end = Math.min(this.text.length, Math.max(at.offset + 20, this.declarationStart + 60));
    let declaration = this.text.slice(this.declarationStart, end).replace(/\s+/g, ' ').trim();
    if (end < this.text.length) declaration += '…';
    throw new CDeclarationError(this.source, at.line, at.column, reason, declaration);
  }
}
