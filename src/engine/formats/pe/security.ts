// Mitigations a PE declares: DllCharacteristics bits, plus what the code links against (/GS's
// __security_check_cookie, mingw's libssp __stack_chk_fail and __*_chk fortify wrappers) and the load
// config's security cookie, which MSVC sets for /GS even when the check routine has no visible name.
import type { ImportInfo, SecurityFeatures, SymbolInfo } from '../image.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

const HIGH_ENTROPY_VA = 0x0020;
const DYNAMIC_BASE = 0x0040;
const NX_COMPAT = 0x0100;
const NO_SEH = 0x0400;
const GUARD_CF = 0x4000;
const CANARY_NAMES = new Set(['__security_check_cookie', '__stack_chk_fail', '__stack_chk_guard']);
/** libssp fortify wrappers: __memcpy_chk, __sprintf_chk … */
const FORTIFY_NAME = /^__\w+_chk$/;

export function readSecurity(
  ctx: PeContext,
  h: PeHeaders,
  map: RvaMap,
  imports: ImportInfo[],
  symbols: SymbolInfo[],
): SecurityFeatures {
  const flags = h.dllCharacteristics;
  const has = (bit: number): boolean => (flags & bit) !== 0;
  // Import names are undecorated; i386 COFF symbol names carry the C underscore (___stack_chk_fail).
  const undecorate = (n: string): string => (h.is64 ? n : n.replace(/^_/, ''));
  const names = [...imports.map((i) => i.name), ...symbols.map((s) => undecorate(s.name))];
  const canary = names.some((n) => CANARY_NAMES.has(n)) || loadConfigCookie(ctx, h, map);
  return {
    nx: has(NX_COMPAT),
    pie: has(DYNAMIC_BASE),
    relro: null,
    canary,
    fortify: names.some((n) => FORTIFY_NAME.test(n)),
    aslr: has(DYNAMIC_BASE),
    dep: has(NX_COMPAT),
    cfg: has(GUARD_CF),
    seh: !has(NO_SEH),
    // The 64-bit address-space bit means nothing to a PE32 loader, so a PE32 never has it in effect.
    highEntropyVa: h.is64 && has(HIGH_ENTROPY_VA),
  };
}

/** IMAGE_LOAD_CONFIG_DIRECTORY.SecurityCookie (offset 0x3c in PE32, 0x58 in PE32+), when the record is that long. */
function loadConfigCookie(ctx: PeContext, h: PeHeaders, map: RvaMap): boolean {
  const dir = h.dirs[DIR.loadConfig]!;
  if (dir.rva === 0) return false;
  const field = h.is64 ? 0x58 : 0x3c;
  const width = h.is64 ? 8 : 4;
  const at = map.offset(dir.rva, field + width);
  if (at < 0) return false;
  // The record's own Size field says which fields exist; older records end before SecurityCookie.
  if (ctx.v.u32(at) < field + width) return false;
  return ctx.v.u32(at + field) !== 0 || (h.is64 && ctx.v.u32(at + field + 4) !== 0);
}
