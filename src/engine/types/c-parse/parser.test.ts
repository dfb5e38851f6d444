import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPrototype, formatType, resolve, sizeOf, type CType } from '../ctype.js';
import {
  CDeclarationError,
  createScope,
  parseDeclarations,
  parseTypeName,
  type DataModel,
  type DeclarationScope,
} from './index.js';

const WIN_TYPEDEFS = `
typedef unsigned long DWORD;
typedef void *HANDLE, *LPVOID;
typedef const char *LPCSTR;
typedef int BOOL;
typedef struct _SECURITY_ATTRIBUTES *LPSECURITY_ATTRIBUTES;
`;

function scopeWith(model: DataModel, text = ''): DeclarationScope {
  const scope = createScope(model);
  parseDeclarations(text, scope, 'setup');
  return scope;
}

const typeIn = (text: string, model: DataModel = 'LP64') => parseTypeName(text, createScope(model));

/** The one function `text` declares. */
function declare(text: string, scope = createScope('LP64')) {
  const fns = parseDeclarations(text, scope, 'test');
  assert.equal(fns.length, 1, `one function in ${text}`);
  return fns[0]!;
}

test('base types: every spelling, named as C spells them, sized by the data model', () => {
  const cases: [string, DataModel, string, number][] = [
    ['unsigned long long int', 'LP64', 'unsigned long long', 8],
    ['long long unsigned', 'ILP32', 'unsigned long long', 8],
    ['long unsigned int', 'LP64', 'unsigned long', 8],
    ['unsigned long', 'LLP64', 'unsigned long', 4],
    ['long', 'ILP32', 'long', 4],
    ['signed char', 'LP64', 'signed char', 1],
    ['char', 'LP64', 'char', 1],
    ['unsigned char', 'LP64', 'unsigned char', 1],
    ['unsigned', 'LP64', 'unsigned int', 4],
    ['signed', 'LP64', 'int', 4],
    ['short int', 'LP64', 'short', 2],
    ['unsigned short', 'LP64', 'unsigned short', 2],
    ['_Bool', 'LP64', 'bool', 1],
    ['bool', 'LP64', 'bool', 1],
    ['float', 'LP64', 'float', 4],
    ['double', 'LP64', 'double', 8],
    ['long double', 'LP64', 'long double', 16],
    ['long double', 'LLP64', 'double', 8],
    ['__int64', 'LLP64', 'int64_t', 8],
    ['unsigned __int64', 'ILP32', 'uint64_t', 8],
    ['void *', 'ILP32', 'void *', 4],
    ['void *', 'LLP64', 'void *', 8],
  ];
  for (const [text, model, spelled, size] of cases) {
    const t = typeIn(text, model);
    assert.equal(formatType(t), spelled, `${text} on ${model}`);
    assert.equal(sizeOf(t, new Map()), size, `sizeof(${text}) on ${model}`);
  }
});

test('<stdint.h>, <stddef.h> and <sys/types.h> names follow the data model', () => {
  const cases: [string, DataModel, number][] = [
    ['size_t', 'LP64', 8],
    ['size_t', 'ILP32', 4],
    ['size_t', 'LLP64', 8],
    ['ssize_t', 'ILP32', 4],
    ['intptr_t', 'LLP64', 8],
    ['uintptr_t', 'ILP32', 4],
    ['ptrdiff_t', 'LP64', 8],
    ['off_t', 'LP64', 8],
    ['off_t', 'ILP32', 4],
    ['pid_t', 'LP64', 4],
    ['time_t', 'ILP32', 4],
    ['uint8_t', 'LP64', 1],
    ['int64_t', 'ILP32', 8],
    ['wchar_t', 'LP64', 4],
    ['wchar_t', 'LLP64', 2],
  ];
  for (const [name, model, size] of cases) {
    const t = typeIn(name, model);
    assert.equal(formatType(t), name, `${name} keeps its name`);
    assert.equal(sizeOf(t, new Map()), size, `sizeof(${name}) on ${model}`);
  }
  const u = resolve(typeIn('size_t'));
  assert.ok(u.kind === 'int' && !u.signed, 'size_t is unsigned');
});

test('qualifiers: const before or after the base type, const pointers, restrict and volatile', () => {
  const cases: [string, string][] = [
    ['const char *', 'const char *'],
    ['char const *', 'const char *'],
    ['char *const', 'char *const'],
    ['const char *const *', 'const char *const *'],
    ['char *restrict', 'char *'],
    ['volatile int *', 'volatile int *'],
    ['const volatile int', 'const volatile int'],
  ];
  for (const [text, want] of cases) assert.equal(formatType(typeIn(text)), want, text);
  const t = typeIn('char const *');
  assert.ok(t.kind === 'pointer' && t.to.kind === 'const', 'the pointee is const, not the pointer');
});

test('arrays and function pointers, including declarators nested in declarators', () => {
  const cases: [string, string][] = [
    ['int [3][4]', 'int [3][4]'],
    ['int (*)[3]', 'int (*)[3]'],
    ['void (*)(int)', 'void (*)(int)'],
    ['int (*(*)(int))[3]', 'int (*(*)(int))[3]'],
    ['void (*[2])(void)', 'void (*[2])(void)'],
    ['char *(*)(const char *, ...)', 'char *(*)(const char *, ...)'],
  ];
  for (const [text, want] of cases) assert.equal(formatType(typeIn(text)), want, text);
  const a = typeIn('int [3][4]');
  assert.ok(a.kind === 'array' && a.count === 3 && a.of.kind === 'array' && a.of.count === 4);
  assert.equal(sizeOf(a, new Map()), 48);
});

test('prototypes: named and unnamed parameters, (void), (), variadic, adjusted arrays and functions', () => {
  const cases: [string, string, number, boolean][] = [
    ['size_t strlen(const char *s);', 'size_t strlen(const char *s)', 1, false],
    ['int printf(const char *restrict format, ...);', 'int printf(const char *format, ...)', 1, true],
    ['int rand(void);', 'int rand(void)', 0, false],
    ['int legacy();', 'int legacy(void)', 0, false],
    ['int f(int, char *);', 'int f(int, char *)', 2, false],
    ['int main(int argc, char *argv[]);', 'int main(int argc, char **argv)', 2, false],
    ['int pipe(int fds[2]);', 'int pipe(int *fds)', 1, false],
    ['int g(int cb(int));', 'int g(int (*cb)(int))', 1, false],
    ['void (*signal(int sig, void (*func)(int)))(int);', 'void (*signal(int sig, void (*func)(int)))(int)', 2, false],
    ['int execv(const char *p, char *const argv[restrict]);', 'int execv(const char *p, char *const *argv)', 2, false],
  ];
  for (const [text, want, count, variadic] of cases) {
    const f = declare(text);
    assert.equal(formatPrototype(f.name, f.prototype), want, text);
    assert.equal(f.prototype.params.length, count, `${text}: parameters`);
    assert.equal(f.prototype.variadic, variadic, `${text}: variadic`);
  }
  const sig = declare('void (*signal(int sig, void (*func)(int)))(int);');
  const ret = sig.prototype.returns;
  assert.ok(ret.kind === 'pointer' && ret.to.kind === 'function', 'signal returns a function pointer');
});

test('struct, union and enum tags: opaque unless defined, enums are 4 bytes', () => {
  const scope = createScope('LP64');
  const f = declare('int f(struct opaque *o, union u *p, enum e mode);', scope);
  assert.equal(formatPrototype(f.name, f.prototype), 'int f(struct opaque *o, union u *p, enum e mode)');
  assert.equal(sizeOf(f.prototype.params[2]!.type, scope.types), 4);
  assert.equal(scope.types.size, 0, 'nothing is defined by naming a tag');
});

test('typedefs: from a table given to the parser, chained, redefined identically, kept as names', () => {
  const scope = scopeWith('LLP64', WIN_TYPEDEFS + 'typedef DWORD *LPDWORD;');
  parseDeclarations('typedef unsigned long DWORD;', scope, 'again');
  const f = declare('BOOL ReadFile(HANDLE h, LPVOID buf, DWORD n, LPDWORD read, LPVOID ov);', scope);
  assert.equal(
    formatPrototype(f.name, f.prototype),
    'BOOL ReadFile(HANDLE h, LPVOID buf, DWORD n, LPDWORD read, LPVOID ov)',
  );
  const n = f.prototype.params[2]!.type;
  assert.equal(n.kind, 'typedef');
  assert.equal(sizeOf(n, scope.types), 4, 'DWORD is 4 bytes on LLP64');
  const read = resolve(f.prototype.params[3]!.type);
  assert.ok(read.kind === 'pointer' && read.to.kind === 'typedef' && read.to.name === 'DWORD');
  assert.equal(scope.typedefs.get('DWORD'), n, 'every use shares the scope’s typedef');
  // A typedef may shadow a built-in name (msvcrt's 16-bit wint_t).
  parseDeclarations('typedef unsigned short wint_t;', scope, 'override');
  assert.equal(sizeOf(parseTypeName('wint_t', scope), scope.types), 2);
});

test('calling conventions: stdcall recorded from WINAPI, NTAPI, __stdcall; cdecl and function-pointer conventions not', () => {
  const scope = scopeWith('ILP32', WIN_TYPEDEFS);
  const cases: [string, boolean][] = [
    ['HANDLE WINAPI CreateMutexA(LPVOID a, BOOL owner, LPCSTR name);', true],
    ['DWORD __stdcall GetTickCount(void);', true],
    ['long NTAPI NtClose(HANDLE h);', true],
    ['struct hostent *WSAAPI gethostbyname(const char *name);', true],
    ['int __cdecl _snprintf(char *b, size_t n, const char *f, ...);', false],
    ['int WINAPIV wsprintfA(char *out, LPCSTR fmt, ...);', false],
    ['int qsort_cb(int (WINAPI *cb)(int));', false],
  ];
  for (const [text, stdcall] of cases) assert.equal(declare(text, scope).stdcall, stdcall, text);
  const t = parseTypeName('DWORD (WINAPI *)(LPVOID)', scope);
  assert.equal(formatType(t), 'DWORD (*)(LPVOID)');
});

test('SAL annotations, linkage macros and attributes are read and dropped', () => {
  const scope = scopeWith('LLP64', WIN_TYPEDEFS);
  const f = declare(
    `WINBASEAPI _Success_(return != 0) BOOL WINAPI WriteProcessMemory(_In_ HANDLE hProcess, _In_ LPVOID lpBaseAddress,
       _In_reads_bytes_(nSize) LPCVOID lpBuffer, _In_ SIZE_T nSize, _Out_opt_ SIZE_T *lpNumberOfBytesWritten);`
      .replace('LPCVOID', 'const void *')
      .replace(/SIZE_T/g, 'size_t'),
    scope,
  );
  assert.equal(f.prototype.params.length, 5);
  assert.equal(f.prototype.params[2]!.name, 'lpBuffer');
  assert.equal(formatType(f.prototype.params[2]!.type), 'const void *');
  assert.ok(f.stdcall);
  const old = declare(
    'DWORD WINAPI GetModuleFileNameA(__in_opt HANDLE h, __out_ecount(n) char *f, __in DWORD n);',
    scope,
  );
  assert.equal(formatPrototype(old.name, old.prototype), 'DWORD GetModuleFileNameA(HANDLE h, char *f, DWORD n)');
  const opt = declare('BOOL F(IN HANDLE h, OUT LPVOID p OPTIONAL, CONST char *s);', scope);
  assert.equal(formatPrototype(opt.name, opt.prototype), 'BOOL F(HANDLE h, LPVOID p, const char *s)');
});

test('no-return: _Noreturn, __attribute__((noreturn)), __declspec(noreturn), DECLSPEC_NORETURN', () => {
  const cases: [string, boolean][] = [
    ['_Noreturn void exit(int status);', true],
    ['void abort(void) __attribute__((__noreturn__));', true],
    ['__declspec(noreturn) void fail(void);', true],
    ['DECLSPEC_NORETURN void WINAPI ExitThread(unsigned long code);', true],
    ['void __attribute__((format(printf, 1, 2))) logf(const char *f, ...);', false],
    ['int atexit(void (*function)(void));', false],
  ];
  for (const [text, noReturn] of cases) assert.equal(declare(text).noReturn, noReturn, text);
});

test('enumeration constants: values, expressions, and use as array bounds', () => {
  const scope = createScope('LP64');
  parseDeclarations(
    'enum { MAX_PATH = 260, HALF = MAX_PATH / 2, MASK = 0x80000000 | 1, SHIFT = 1 << 4, NEXT, NEG = -1 };',
    scope,
  );
  assert.deepEqual(
    ['MAX_PATH', 'HALF', 'MASK', 'SHIFT', 'NEXT', 'NEG'].map((n) => scope.constants.get(n)),
    [260, 130, 0x80000001, 16, 17, -1],
  );
  assert.equal(scope.types.size, 0, 'an untagged enum with no declarator defines only its constants');
  const f = declare('int f(char name[MAX_PATH + 1]);', scope);
  assert.equal(formatType(f.prototype.params[0]!.type), 'char *');
  assert.equal(sizeOf(parseTypeName('char [MAX_PATH]', scope), scope.types), 260);
  parseDeclarations('typedef enum _MODE { A, B } MODE;', scope);
  const def = scope.types.get('enum _MODE');
  assert.ok(def?.kind === 'enum' && def.enumerators.length === 2);
});

test('errors name the source, line, column and declaration', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['int f(int);\nLPCSTR g(void);', 'unknown type name', 2, 1, /LPCSTR g\(void\)/],
    ['int f(int x)\nint g(void);', "expected ';'", 2, 1, /int f\(int x\)/],
    ['struct s { int a : 3; };', 'bit-fields are not supported', 1, 18, /struct s/],
    ['int f(void) { return 0; }', 'function bodies are not supported', 1, 13, /int f/],
    ['struct s { int a; char a; };', "duplicate member 'a'", 1, 24, /struct s/],
    ['typedef int T;\ntypedef long T;', 'typedef T is already defined as int', 2, 14, /typedef long T/],
    ['int __fastcall f(int a);', 'calling convention __fastcall', 1, 5, /__fastcall/],
    ['#include <stdio.h>', 'preprocessor', 1, 1, /include/],
    ['int f(void); /* open', 'unterminated comment', 1, 14, /open/],
    ['struct node { struct node next; };', 'incomplete', 1, 27, /struct node/],
    ['void x[3];', 'an array of void', 1, 7, /void x/],
    ['int f(int, void);', 'cannot be void', 1, 12, /int f/],
    ['int (*f(void))[3](void);', 'an array of function', 1, 15, /int \(\*f/],
    ['int f(void)(void);', 'a function returning a function', 1, 6, /int f/],
    ['unsigned float x;', 'cannot be signed or unsigned', 1, 1, /unsigned float/],
    ['int f(int a[N]);', "'N' is not a known constant", 1, 13, /int f/],
  ];
  for (const [text, reason, line, column, declaration] of cases) {
    assert.throws(
      () => parseDeclarations(text, createScope('LP64'), 'mod'),
      (e: unknown) => {
        assert.ok(e instanceof CDeclarationError, `${text}: a CDeclarationError`);
        assert.match(e.reason, new RegExp(reason), text);
        assert.equal(e.source, 'mod');
        assert.deepEqual([e.line, e.column], [line, column], `${text}: position of '${reason}'`);
        assert.match(e.declaration, declaration, `${text}: quotes the declaration`);
        assert.match(e.message, new RegExp(`^mod:${line}:${column}: `));
        return true;
      },
    );
  }
});

test('a function declared through a typedef of a function type is a function', () => {
  const scope = createScope('LP64');
  const fns = parseDeclarations('typedef int handler_fn(int code); handler_fn on_signal;', scope);
  assert.equal(fns.length, 1);
  assert.equal(formatPrototype(fns[0]!.name, fns[0]!.prototype), 'int on_signal(int code)');
});

test('objects are read and not returned', () => {
  const fns = parseDeclarations('extern int errno; extern char **environ; int f(void);', createScope('LP64'));
  assert.deepEqual(
    fns.map((f) => f.name),
    ['f'],
  );
});

test('parseTypeName rejects trailing text and names', () => {
  assert.throws(() => typeIn('int x'), /unexpected name 'x'/);
  assert.throws(() => typeIn('int )'), /unexpected '\)'/);
});

const kinds = (t: CType) => {
  const out: string[] = [];
  for (let c: CType | undefined = t; c; c = 'to' in c ? c.to : c.kind === 'array' ? c.of : undefined) out.push(c.kind);
  return out.join(' → ');
};

test('declarator types are built inside-out', () => {
  assert.equal(kinds(typeIn('const char *const *')), 'pointer → const → pointer → const → int');
  assert.equal(kinds(typeIn('int *[3]')), 'array → pointer → int');
  assert.equal(kinds(typeIn('int (*)[3]')), 'pointer → array → int');
});
