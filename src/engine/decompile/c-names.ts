// C spellings the decompiler writes: the exact-width types every value has (unsigned by default, signed
// where an operation reads it so), constants of a width, and the 16-byte register struct.
export class Unsupported extends Error {}

/** C's keywords and the standard names the output writes (`bool`, `NULL`): never a variable's or a placeholder's. */
export const C_KEYWORDS: ReadonlySet<string> = new Set(
  (
    'auto break case char const continue default do double else enum extern float for goto if inline int long ' +
    'register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while ' +
    '_Alignas _Alignof _Atomic _Bool _Complex _Generic _Noreturn _Static_assert _Thread_local bool true false NULL'
  ).split(' '),
);

/** Names the output gives things of its own (parameters, locals, saved flags, the switch value, helpers). */
export const RESERVED = /^(a\d+|t\d*|local_\w+|f[abc]_\d+|bl_\w+|reg_\w+)$/;

/** Widths of integer values C has a type for. */
const WIDTHS = new Set([1, 2, 4, 8]);

/**
 * The unsigned type of a `w`-byte value (`struct v128` for a 16-byte vector register; an x87 register's
 * 10 bytes are a long double, the only thing they hold).
 */
export function uType(w: number): string {
  if (w === 16) return 'struct v128';
  if (w === 10) return 'long double';
  if (!WIDTHS.has(w)) throw new Unsupported(`a ${w}-byte value`);
  return `uint${w * 8}_t`;
}

export function sType(w: number): string {
  if (!WIDTHS.has(w)) throw new Unsupported(`a signed ${w}-byte value`);
  return `int${w * 8}_t`;
}

/** A constant of width `w`, as an expression of type uType(w). */
export function constant(v: bigint, w: number): string {
  if (w === 10) throw new Unsupported('an x87 constant as bits');
  if (w === 16) {
    const u = BigInt.asUintN(128, v);
    return `((struct v128){${constant(u & 0xffffffffffffffffn, 8)}, ${constant(u >> 64n, 8)}})`;
  }
  const u = BigInt.asUintN(w * 8, v);
  const text = u < 10n ? u.toString() : `0x${u.toString(16)}`;
  if (w === 8) return `${text}ull`;
  if (w === 4) return `${text}u`;
  return `((${uType(w)})${text})`;
}

/**
 * `text` as an operand of a cast or operator: parenthesised unless it is a name, a member (`p->len`) or
 * parenthesised already.
 */
export const operand = (text: string): string =>
  /^[A-Za-z_]\w*((->|\.)[A-Za-z_]\w*)*$/.test(text) || enclosed(text) ? text : `(${text})`;

/**
 * `text`, a value of the `w`-byte unsigned type, as the signed type. A cast to that unsigned type in front
 * says nothing the signed cast does not (`(int32_t)(uint32_t)x` is `(int32_t)x` for any integer x).
 */
export function signedAs(text: string, w: number): string {
  const u = `(${uType(w)})`;
  const inner = text.startsWith(u) ? text.slice(u.length) : '';
  return `(${sType(w)})${inner && operand(inner) === inner ? inner : operand(text)}`;
}

/** Whether `text` is one parenthesised expression: its first parenthesis closes at its end. */
function enclosed(text: string): boolean {
  if (!text.startsWith('(')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i === text.length - 1;
  }
  return false;
}

/** The mask of a `w`-byte value's bits. */
export const mask = (w: number): bigint => (1n << BigInt(w * 8)) - 1n;
