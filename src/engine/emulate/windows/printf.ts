// C's printf formatting as msvcrt does it (the guest's printf family runs here, not in guest code): flags,
// width and precision (also from arguments), Windows' length modifiers (l is 32-bit, I64 and ll 64-bit,
// I and z pointer-sized), and three-digit exponents. %n writes nothing: a format string is not a way in.

/** The variable arguments of one call, one at a time: `bytes` is its size (a 32-bit program passes 8-byte ones in two slots). */
export interface VarArgs {
  next(bytes: 4 | 8): bigint;
}

const SPEC = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|I64|I32|I|z|j|t|w)?([diouxXcsSCpfFeEgGaAn%])/g;
/** Longest string a conversion produces (a hostile width or precision asks for gigabytes). */
const MAX_FIELD = 4096;

/** `format` with its conversions filled from `args`; strings are read through `str` (UTF-16 when `wide`). */
export function formatC(
  format: string,
  args: VarArgs,
  str: (address: bigint, wide: boolean) => string | null,
  pointerBits: 32 | 64,
): string {
  const pointer = pointerBits === 64 ? 8 : 4;
  return format.replace(
    SPEC,
    (_all, flags: string, width?: string, precision?: string, size?: string, conv?: string) => {
      if (conv === '%') return '%';
      let w = width === '*' ? Number(BigInt.asIntN(32, args.next(4))) : Number(width ?? 0);
      let left = flags.includes('-');
      if (w < 0) {
        left = true;
        w = -w;
      }
      const p =
        precision === undefined
          ? null
          : precision === '*'
            ? Number(BigInt.asIntN(32, args.next(4)))
            : Number(precision || 0);
      const prec = p !== null && p < 0 ? null : p;
      let body: string;
      let sign = '';
      let numeric = false;
      switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
          const bits =
            size === 'hh'
              ? 8
              : size === 'h'
                ? 16
                : size === 'll' || size === 'I64' || size === 'j'
                  ? 64
                  : size === 'I' || size === 'z' || size === 't'
                    ? pointerBits
                    : 32;
          const raw = args.next(bits > 32 ? 8 : 4);
          const v = conv === 'd' || conv === 'i' ? BigInt.asIntN(bits, raw) : BigInt.asUintN(bits, raw);
          const magnitude = v < 0n ? -v : v;
          body = magnitude.toString(conv === 'o' ? 8 : conv === 'u' || conv === 'd' || conv === 'i' ? 10 : 16);
          if (conv === 'X') body = body.toUpperCase();
          if (prec !== null) body = prec === 0 && magnitude === 0n ? '' : body.padStart(Math.min(prec, MAX_FIELD), '0');
          sign =
            v < 0n
              ? '-'
              : flags.includes('+') && (conv === 'd' || conv === 'i')
                ? '+'
                : flags.includes(' ') && (conv === 'd' || conv === 'i')
                  ? ' '
                  : '';
          if (flags.includes('#') && magnitude !== 0n)
            sign += conv === 'x' ? '0x' : conv === 'X' ? '0X' : conv === 'o' ? '0' : '';
          numeric = prec === null;
          break;
        }
        case 'c':
        case 'C':
          body = String.fromCharCode(
            Number(args.next(4) & (size === 'l' || size === 'w' || conv === 'C' ? 0xffffn : 0xffn)),
          );
          break;
        case 's':
        case 'S': {
          const at = args.next(pointer);
          const text =
            str(pointerBits === 32 ? BigInt.asUintN(32, at) : at, size === 'l' || size === 'w' || conv === 'S') ??
            '(null)';
          body = prec === null ? text : text.slice(0, prec);
          break;
        }
        case 'p':
          body = BigInt.asUintN(pointerBits, args.next(pointer))
            .toString(16)
            .toUpperCase()
            .padStart(pointerBits / 4, '0');
          break;
        case 'n':
          args.next(pointer);
          return '';
        default: {
          const v = new DataView(new BigUint64Array([args.next(8)]).buffer).getFloat64(0, true);
          body = formatFloat(Math.abs(v), conv!, prec ?? 6, flags.includes('#'));
          sign = v < 0 || Object.is(v, -0) ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
          numeric = Number.isFinite(v);
        }
      }
      const pad = Math.min(w, MAX_FIELD) - sign.length - body.length;
      if (pad <= 0) return sign + body;
      if (left) return sign + body + ' '.repeat(pad);
      if (numeric && flags.includes('0')) return sign + '0'.repeat(pad) + body;
      return ' '.repeat(pad) + sign + body;
    },
  );
}

/** A non-negative double by %f, %e, %g or %a, as msvcrt writes them (exponents of at least three digits). */
function formatFloat(v: number, conv: string, precision: number, alternate: boolean): string {
  const upper = conv === conv.toUpperCase();
  if (!Number.isFinite(v)) return upper ? (Number.isNaN(v) ? 'NAN' : 'INF') : Number.isNaN(v) ? 'nan' : 'inf';
  const prec = Math.min(precision, 100);
  const exponential = (digits: number) => {
    const [m, e] = v.toExponential(digits).split('e') as [string, string];
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(3, '0')}`;
  };
  let out: string;
  switch (conv.toLowerCase()) {
    case 'f':
      out = v < 1e21 ? v.toFixed(prec) : BigInt(Math.round(v)).toString() + (prec ? `.${'0'.repeat(prec)}` : '');
      break;
    case 'e':
      out = exponential(prec);
      break;
    case 'a':
      out = `0x${v.toString(16)}p+0`;
      break;
    default: {
      const p = prec === 0 ? 1 : prec;
      const exp = v === 0 ? 0 : Math.floor(Math.log10(v));
      out = exp < -4 || exp >= p ? exponential(p - 1) : v.toFixed(Math.max(0, p - 1 - exp));
      if (!alternate) {
        // %g drops the fraction's trailing zeros, and the point with them.
        const [mantissa, exponent] = out.split('e') as [string, string | undefined];
        const kept = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
        out = exponent === undefined ? kept : `${kept}e${exponent}`;
      }
    }
  }
  if (alternate && !out.includes('.')) out = out.replace(/(?=e|$)/, '.');
  return upper ? out.toUpperCase() : out;
}
