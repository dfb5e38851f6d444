// Integer constant expressions of array bounds and enumerator values: literals, enumeration constants,
// parentheses, unary - + ~ !, and the binary arithmetic, shift and bitwise operators by C precedence.
// Bitwise operators work on 64-bit integers (BigInt) so masks such as 0x80000000 stay positive.
import type { TokenStream } from './tokens.js';

const PRECEDENCE: Record<string, number> = {
  '|': 1,
  '^': 2,
  '&': 3,
  '<<': 4,
  '>>': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};

const bitwise = (a: number, b: number, op: (x: bigint, y: bigint) => bigint) =>
  Number(BigInt.asIntN(64, op(BigInt(a), BigInt(b))));

function apply(op: string, a: number, b: number, fail: (reason: string) => never): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
    case '%':
      if (b === 0) fail('division by zero');
      return op === '/' ? Math.trunc(a / b) : a % b;
    case '<<':
      return bitwise(a, b, (x, y) => x << y);
    case '>>':
      return bitwise(a, b, (x, y) => x >> y);
    case '&':
      return bitwise(a, b, (x, y) => x & y);
    case '|':
      return bitwise(a, b, (x, y) => x | y);
    default:
      return bitwise(a, b, (x, y) => x ^ y);
  }
}

export function constantExpression(ts: TokenStream, constants: ReadonlyMap<string, number>, minPrecedence = 1): number {
  let left = primary(ts, constants);
  for (;;) {
    const op = ts.peek();
    const p = op.kind === 'punct' ? PRECEDENCE[op.text] : undefined;
    if (p === undefined || p < minPrecedence) return left;
    ts.next();
    const right = constantExpression(ts, constants, p + 1);
    left = apply(op.text, left, right, (reason) => ts.fail(reason, op));
  }
}

function primary(ts: TokenStream, constants: ReadonlyMap<string, number>): number {
  const t = ts.next();
  if (t.kind === 'number') return t.value!;
  if (t.kind === 'ident') {
    const v = constants.get(t.text);
    if (v === undefined) ts.fail(`'${t.text}' is not a known constant`, t);
    return v;
  }
  switch (t.text) {
    case '(': {
      const v = constantExpression(ts, constants);
      ts.expect(')', 'to close a parenthesised expression');
      return v;
    }
    case '-':
      return -primary(ts, constants);
    case '+':
      return primary(ts, constants);
    case '~':
      return Number(~BigInt(primary(ts, constants)));
    case '!':
      return primary(ts, constants) === 0 ? 1 : 0;
    default:
      return ts.fail(`expected a constant, found '${t.text}'`, t);
  }
}
