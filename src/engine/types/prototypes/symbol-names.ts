// From a symbol as a binary names it to the C name the database keys by. The exact name is always tried
// first, so a real `_exit` or `_snprintf` is never mistaken for a decorated `exit` or `snprintf`.
import type { Platform } from './module.js';

// ELF symbol versions (`printf@GLIBC_2.2.5`, `@@` for the default): a letter or underscore after the `@`,
// where stdcall's `@12` has digits.
const ELF_VERSION = /^([^@]+)@@?[A-Za-z_][\w.]*$/;
// i386 COFF: `_name@12` (stdcall), `@name@8` (fastcall), `name@12` (some import libraries), `_name` (cdecl).
const STDCALL = /^_?(.+)@\d+$/;
const FASTCALL = /^@(.+)@\d+$/;

/** The names to look `symbol` up under, most literal first. */
export function candidateNames(symbol: string, platform: Platform): string[] {
  let s = ELF_VERSION.exec(symbol)?.[1] ?? symbol;
  const out = [s];
  if (platform === 'macos') {
    // `_stat$INODE64`, `_write$NOCANCEL$UNIX2003`: variant suffixes of one C function.
    const dollar = s.indexOf('$');
    if (dollar > 0) out.push((s = s.slice(0, dollar)));
    if (s.startsWith('_')) out.push(s.slice(1));
  } else if (platform === 'windows') {
    if (s.startsWith('__imp_')) out.push((s = s.slice('__imp_'.length)));
    const decorated = FASTCALL.exec(s) ?? STDCALL.exec(s);
    if (decorated) out.push((s = decorated[1]!));
    else if (s.startsWith('_')) out.push(s.slice(1));
  }
  return out;
}
