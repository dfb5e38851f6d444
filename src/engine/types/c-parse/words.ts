// Words a declaration may carry besides its type: qualifiers, storage classes, calling conventions, the
// linkage macros and SAL annotations of the Windows headers, GCC attributes. The type model has no calling
// convention, so a declaration only reports whether it said stdcall; SAL and linkage words are dropped.

export type Word =
  | { kind: 'qualifier'; qualifier: 'const' | 'volatile' | 'restrict' }
  | { kind: 'typedef' }
  /** Storage classes, linkage and pointer-width macros, `IN`/`OUT`/`OPTIONAL`: no effect on the type. */
  | { kind: 'ignored' }
  | { kind: 'convention'; stdcall: boolean }
  | { kind: 'noreturn' }
  /** A word followed by a parenthesised argument list (`_In_reads_(n)`, `__attribute__((…))`). */
  | { kind: 'annotation'; arguments: 'optional' | 'required' };

const WORDS = new Map<string, Word>();
const add = (word: Word, ...names: string[]) => names.forEach((n) => WORDS.set(n, word));

add({ kind: 'qualifier', qualifier: 'const' }, 'const', '__const', 'CONST');
add({ kind: 'qualifier', qualifier: 'volatile' }, 'volatile', '__volatile', '__volatile__');
add({ kind: 'qualifier', qualifier: 'restrict' }, 'restrict', '__restrict', '__restrict__', '_Restrict');
add({ kind: 'typedef' }, 'typedef');
add(
  { kind: 'ignored' },
  ...['extern', 'static', 'inline', '__inline', '__inline__', '__forceinline', 'register'],
  ...['IN', 'OUT', 'OPTIONAL', 'FAR', 'NEAR', '__ptr32', '__ptr64', '__unaligned', 'UNALIGNED'],
  ...['DECLSPEC_IMPORT', 'WINBASEAPI', 'WINADVAPI', 'WINUSERAPI', 'WINGDIAPI', 'NTSYSAPI', 'NTSYSCALLAPI'],
  ...['WINSOCK_API_LINKAGE', 'WINHTTPAPI', 'INTERNETAPI_', 'SHSTDAPI_', 'SHFOLDERAPI', 'WINCRYPT32API'],
  ...['_CRTIMP', '__extension__', '__THROW', '__wur'],
);
add(
  { kind: 'convention', stdcall: true },
  ...['__stdcall', '_stdcall', 'WINAPI', 'NTAPI', 'CALLBACK', 'APIENTRY', 'PASCAL', 'WSAAPI'],
  ...['STDAPICALLTYPE', 'STDMETHODCALLTYPE', 'NET_API_FUNCTION', 'SEC_ENTRY', 'WINAPI_INLINE'],
);
add({ kind: 'convention', stdcall: false }, '__cdecl', '_cdecl', 'CDECL', 'WINAPIV', '__CRTDECL');
add({ kind: 'noreturn' }, '_Noreturn', 'noreturn', 'DECLSPEC_NORETURN', '__noreturn');
add({ kind: 'annotation', arguments: 'required' }, '__attribute__', '__attribute', '__declspec', '__nonnull');

/** Conventions the type model cannot express: refused rather than silently read as cdecl. */
const UNSUPPORTED_CONVENTIONS = new Set(['__fastcall', '_fastcall', 'FASTCALL', '__thiscall', '__vectorcall']);

// SAL 2 (`_In_`, `_Out_writes_bytes_opt_(n)`, `_Success_(x)`, `_Ret_maybenull_`): `_` + capital … `_`.
// `_Bool` and `_Noreturn` do not end in `_`, and header type tags (`_SYSTEMTIME`) do not either.
const SAL2 = /^_[A-Z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_$/;
// SAL 1 (`__in`, `__out_opt`, `__in_bcount(n)`, `__deref_out`, `__reserved`).
const SAL1 = /^__(?:in|out|inout|deref|reserved|checkReturn|success|nullterminated|callback|format_string)(?:_\w+)?$/;

export function classifyWord(word: string): Word | undefined {
  const w = WORDS.get(word);
  if (w) return w;
  if (SAL2.test(word) || SAL1.test(word)) return { kind: 'annotation', arguments: 'optional' };
  return undefined;
}

export const isUnsupportedConvention = (word: string): boolean => UNSUPPORTED_CONVENTIONS.has(word);
