// How many arguments a printf- or scanf-style format string asks for after it, so a call to a variadic
// library function passes those and not every register the convention has.

/** Conversions that take an integer or pointer argument in printf (a float one is passed apart). */
const INTEGER = new Set([...'diouxXcspn']);
const FLOAT = new Set([...'fFeEgGaA']);

/**
 * The integer/pointer arguments `format` consumes; null when it takes a floating-point argument (passed in
 * vector registers the output does not count yet) or is not a format this can read. `scan`: scanf's
 * conventions (every conversion takes a pointer; `%*…` assigns nothing).
 */
export function formatArguments(format: string, scan: boolean): number | null {
  let count = 0;
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    const m = /^%(\*)?([-+ #0'I]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|L|q|j|z|Z|t)?(.)/.exec(format.slice(i));
    if (!m) return null;
    i += m[0].length - 1;
    const [, suppress, , width, precision, , conv] = m;
    if (conv === '%') continue;
    if (scan) {
      if (conv === '[') {
        // A scanset runs to its closing bracket (a leading ] is a member).
        const close = format.indexOf(']', i + 2);
        if (close < 0) return null;
        i = close;
      } else if (!INTEGER.has(conv!) && !FLOAT.has(conv!)) return null;
      if (!suppress) count++;
      continue;
    }
    if (suppress || FLOAT.has(conv!) || !INTEGER.has(conv!)) return null;
    count += (width === '*' ? 1 : 0) + (precision === '*' ? 1 : 0) + 1;
  }
  return count;
}
