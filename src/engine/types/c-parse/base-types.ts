// The arithmetic base types from their keywords in any order and spelling (`unsigned long long int`,
// `long unsigned`, `signed`, `__int64`), named with their canonical C spelling.
import type { CType, IntSize } from '../ctype.js';
import { MODEL_SIZES, type DataModel } from './data-model.js';

export const BASE_KEYWORDS = new Set([
  'void',
  'char',
  'short',
  'int',
  'long',
  'signed',
  '__signed',
  '__signed__',
  'unsigned',
  'float',
  'double',
  '_Bool',
  'bool',
  '__int8',
  '__int16',
  '__int32',
  '__int64',
  '__int128',
]);

/** How many times each base keyword was written (only `long` may appear twice). */
export type KeywordCounts = Map<string, number>;

const MSVC_WIDTHS: Record<string, IntSize> = { __int8: 1, __int16: 2, __int32: 4, __int64: 8, __int128: 16 };

/** The type the keywords spell, or a reason why they spell none. */
export function baseType(counts: KeywordCounts, model: DataModel): CType | string {
  const n = (k: string) => counts.get(k) ?? 0;
  const signedness = n('signed') + n('__signed') + n('__signed__');
  const unsigned = n('unsigned') > 0;
  if (signedness + n('unsigned') > 1) return 'signedness given twice';
  for (const [k, c] of counts) if (c > 1 && !(k === 'long' && c === 2)) return `'${k}' given ${c} times`;
  const rest = [...counts.keys()].filter((k) => !['signed', '__signed', '__signed__', 'unsigned'].includes(k));
  const sign = unsigned ? 'unsigned ' : '';
  const int = (size: IntSize, name: string, spelled = sign + name): CType => ({
    kind: 'int',
    size,
    signed: !unsigned,
    name: spelled,
  });
  const is = (...words: string[]) => rest.length === words.length && words.every((w) => rest.includes(w));
  const { long, longDouble } = MODEL_SIZES[model];
  const integer = signedness > 0 || unsigned;

  if (is()) return integer ? int(4, 'int') : 'no type given';
  // Plain char is signed on x86 (both ABIs); `signed char` keeps its spelling as a distinct type.
  if (is('char')) return int(1, 'char', unsigned ? 'unsigned char' : signedness ? 'signed char' : 'char');
  if (is('short') || is('short', 'int')) return int(2, 'short');
  if (is('int')) return int(4, 'int');
  if (is('long') || is('long', 'int')) return n('long') === 2 ? int(8, 'long long') : int(long, 'long');
  const msvc = rest.length === 1 ? MSVC_WIDTHS[rest[0]!] : undefined;
  // `__int64` spells int64_t: the fixed-width name is the standard spelling of the same type.
  if (msvc) return { kind: 'int', size: msvc, signed: !unsigned };
  if (integer) return `'${rest.join(' ')}' cannot be signed or unsigned`;
  if (is('void')) return { kind: 'void' };
  if (is('float')) return { kind: 'float', size: 4 };
  if (is('double')) return { kind: 'float', size: 8 };
  if (is('long', 'double') && n('long') === 1) return { kind: 'float', size: longDouble };
  if (is('_Bool') || is('bool')) return { kind: 'bool', size: 1 };
  return `'${rest.join(' ')}' is not a type`;
}
