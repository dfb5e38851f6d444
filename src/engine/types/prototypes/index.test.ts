import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { createScope, parseDeclarations } from '../c-parse/index.js';
import { formatPrototype, resolve, sizeOf, tableKey, type CType } from '../ctype.js';
import { libraryName } from './module.js';
import {
  buildPrototypeDatabase,
  libraryPrototypes,
  modulesFor,
  PLATFORMS,
  PLATFORM_DATA_MODELS,
  type PrototypeDatabase,
} from './index.js';

const every = PLATFORMS.flatMap((platform) => PLATFORM_DATA_MODELS[platform].map((model) => ({ platform, model })));

test('every module parses on every data model of every platform it applies to', () => {
  for (const { platform, model } of every) {
    const scope = createScope(model);
    for (const m of modulesFor(platform)) {
      const text = typeof m.declarations === 'string' ? m.declarations : m.declarations(model);
      assert.doesNotThrow(() => parseDeclarations(text, scope, m.name), `${m.name} on ${platform}/${model}`);
    }
  }
});

test('no name is declared twice on a platform, and every function module declares functions', () => {
  for (const { platform, model } of every) {
    const db = buildPrototypeDatabase(platform, model);
    const names = db.prototypes.map((p) => p.name);
    assert.equal(new Set(names).size, names.length, `${platform}/${model}`);
    const libraries = new Set(db.prototypes.map((p) => p.library));
    for (const m of modulesFor(platform))
      if (!m.name.endsWith('-types')) assert.ok(libraries.has(libraryName(m, platform)), `${m.name} on ${platform}`);
  }
});

/** Calls `visit` on `t` and every type inside it; `byValue` is false behind a pointer. */
function walk(t: CType, visit: (t: CType, byValue: boolean) => void, byValue = true, depth = 0): void {
  if (depth > 40) return;
  visit(t, byValue);
  switch (t.kind) {
    case 'pointer':
      return walk(t.to, visit, false, depth + 1);
    case 'array':
      return walk(t.of, visit, byValue, depth + 1);
    case 'const':
    case 'volatile':
    case 'typedef':
      return walk(t.to, visit, byValue, depth + 1);
    case 'function':
      walk(t.proto.returns, visit, true, depth + 1);
      for (const p of t.proto.params) walk(p.type, visit, true, depth + 1);
  }
}

function checkReferences(db: PrototypeDatabase): string[] {
  const problems: string[] = [];
  const visit = (where: string) => (t: CType, byValue: boolean) => {
    if (t.kind === 'typedef' && db.typedefs.get(t.name) !== t) problems.push(`${where}: typedef ${t.name} undefined`);
    if ((t.kind === 'struct' || t.kind === 'union') && byValue && sizeOf(t, db.types) === null)
      problems.push(`${where}: ${tableKey(t)} used by value but incomplete`);
  };
  for (const p of db.prototypes) {
    const proto: CType = { kind: 'function', proto: p.prototype };
    // A function's own void return and parameters are by value; `void` itself is not a structure.
    walk(proto, visit(p.name));
  }
  for (const def of db.types.values())
    if (def.kind !== 'enum') for (const m of def.members) walk(m.type, visit(`${tableKey(def)}.${m.name}`));
  return problems;
}

test('every typedef a prototype or structure names is defined, and structures passed by value are complete', () => {
  for (const { platform, model } of every)
    assert.deepEqual(checkReferences(libraryPrototypes(platform, model)), [], `${platform}/${model}`);
});

const spelled = (db: PrototypeDatabase, name: string) => {
  const p = db.find(name);
  assert.ok(p, `${name} on ${db.platform}/${db.dataModel}`);
  return formatPrototype(p.name, p.prototype);
};

test('strlen is size_t strlen(const char *), with size_t 8 bytes on LP64 and 4 on ILP32', () => {
  for (const [platform, model, size] of [
    ['linux', 'LP64', 8],
    ['linux', 'ILP32', 4],
    ['windows', 'LLP64', 8],
    ['windows', 'ILP32', 4],
    ['macos', 'LP64', 8],
  ] as const) {
    const db = libraryPrototypes(platform, model);
    assert.equal(spelled(db, 'strlen'), 'size_t strlen(const char *s)');
    const strlen = db.find('strlen')!;
    assert.equal(sizeOf(strlen.prototype.returns, db.types), size, `${platform}/${model}`);
    assert.equal(sizeOf(strlen.prototype.params[0]!.type, db.types), size);
  }
});

test('Win32 spot checks: CreateFileA, WriteProcessMemory, GetProcAddress, WSAStartup, the Nt/Zw twins', () => {
  for (const model of ['LLP64', 'ILP32'] as const) {
    const db = libraryPrototypes('windows', model);
    const createFile = db.find('CreateFileA')!;
    assert.equal(createFile.prototype.params.length, 7);
    const ret = createFile.prototype.returns;
    assert.ok(ret.kind === 'typedef' && ret.name === 'HANDLE', 'CreateFileA returns HANDLE');
    assert.ok(createFile.stdcall);
    assert.equal(createFile.library, 'kernel32.dll');
    const wpm = db.find('WriteProcessMemory')!;
    assert.equal(wpm.prototype.params.length, 5);
    assert.ok(wpm.stdcall);
    assert.equal(
      spelled(db, 'WriteProcessMemory'),
      'BOOL WriteProcessMemory(HANDLE hProcess, LPVOID lpBaseAddress, LPCVOID lpBuffer, SIZE_T nSize, SIZE_T *lpNumberOfBytesWritten)',
    );
    assert.equal(spelled(db, 'GetProcAddress'), 'FARPROC GetProcAddress(HMODULE hModule, LPCSTR lpProcName)');
    assert.equal(sizeOf(wpm.prototype.params[3]!.type, db.types), model === 'LLP64' ? 8 : 4, 'SIZE_T');
    assert.equal(sizeOf(db.find('GetTickCount')!.prototype.returns, db.types), 4, 'DWORD');
    assert.equal(db.find('WSAStartup')!.library, 'ws2_32.dll');
    assert.equal(sizeOf({ kind: 'struct', tag: 'WSAData' }, db.types), model === 'LLP64' ? 408 : 400);
    assert.equal(spelled(db, 'ZwAllocateVirtualMemory'), spelled(db, 'NtAllocateVirtualMemory').replace('Nt', 'Zw'));
    assert.equal(db.find('wsprintfA')!.stdcall, false, 'WINAPIV is cdecl');
    assert.equal(db.find('CreateFileW')!.prototype.params[0]!.type.kind, 'typedef');
    assert.equal(
      sizeOf(resolve(db.find('CreateFileW')!.prototype.params[0]!.type), db.types),
      model === 'LLP64' ? 8 : 4,
    );
  }
});

test('A and W variants: Windows has both wherever it has either', () => {
  const names = new Set(libraryPrototypes('windows', 'LLP64').prototypes.map((p) => p.name));
  // Wide-only or ANSI-only functions, and wide twins of names without a suffix (Process32First).
  const alone = new Set([
    'CreateProcessWithLogonW',
    'CreateProcessWithTokenW',
    'CommandLineToArgvW',
    'GetHostNameW',
    'Process32FirstW',
    'Process32NextW',
    'Module32FirstW',
    'Module32NextW',
    'GetAddrInfoW',
    'GetNameInfoW',
    'FreeAddrInfoW',
    'InetPtonW',
    'InetNtopW',
  ]);
  const unpaired = [...names].filter((n) => {
    const m = /^([A-Z].*[a-z0-9])([AW])$/.exec(n);
    return m && !alone.has(n) && !names.has(m[1] + (m[2] === 'A' ? 'W' : 'A'));
  });
  assert.deepEqual(unpaired, []);
});

test('C library spot checks: printf variadic, no-return functions, fortify entries of their own', () => {
  const linux = libraryPrototypes('linux', 'LP64');
  assert.ok(linux.find('printf')!.prototype.variadic);
  assert.equal(spelled(linux, '__printf_chk'), 'int __printf_chk(int flag, const char *format, ...)');
  assert.equal(
    spelled(linux, '__memcpy_chk'),
    'void *__memcpy_chk(void *dest, const void *src, size_t len, size_t destlen)',
  );
  for (const name of [
    'exit',
    '_exit',
    'abort',
    '__assert_fail',
    '__stack_chk_fail',
    'longjmp',
    'pthread_exit',
    'err',
    'errx',
    '__cxa_throw',
    '__libc_start_main',
    '_ZSt20__throw_length_errorPKc',
    '__longjmp_chk',
  ])
    assert.equal(linux.find(name)!.noReturn, true, `${name} does not return`);
  for (const name of ['printf', 'malloc', 'atexit', 'signal', 'pthread_create', 'warn'])
    assert.equal(linux.find(name)!.noReturn, undefined, `${name} returns`);
  const windows = libraryPrototypes('windows', 'ILP32');
  for (const name of [
    'ExitProcess',
    'ExitThread',
    'FreeLibraryAndExitThread',
    'RtlExitUserProcess',
    '_exit',
    'exit',
    '_CxxThrowException',
    '_assert',
    '_endthreadex',
  ])
    assert.equal(windows.find(name)!.noReturn, true, `${name} does not return`);
  const mac = libraryPrototypes('macos', 'LP64');
  assert.equal(mac.find('__assert_rtn')!.noReturn, true);
  assert.equal(mac.find('objc_msgSend')!.library, 'libobjc.A.dylib');
  assert.equal(linux.find('_Znwm')!.library, 'libstdc++.so.6');
  assert.ok(libraryPrototypes('linux', 'ILP32').find('_Znwj'));
  assert.ok(libraryPrototypes('windows', 'LLP64').find('_Znwy'));
});

test('symbols resolve through decorations, import prefixes, versions and Mach-O underscores', () => {
  const cases: [string, string, string, string][] = [
    ['windows', 'ILP32', '_printf', 'printf'],
    ['windows', 'LLP64', '__imp_printf', 'printf'],
    ['windows', 'ILP32', '__imp__printf', 'printf'],
    ['windows', 'ILP32', '_CreateFileA@28', 'CreateFileA'],
    ['windows', 'ILP32', '__imp__CreateFileA@28', 'CreateFileA'],
    ['windows', 'ILP32', '__snprintf', '_snprintf'],
    ['windows', 'ILP32', '_snprintf', '_snprintf'],
    ['linux', 'LP64', 'printf@GLIBC_2.2.5', 'printf'],
    ['linux', 'LP64', 'memcpy@@GLIBC_2.14', 'memcpy'],
    ['linux', 'LP64', '_exit', '_exit'],
    ['linux', 'LP64', '__cxa_finalize@GLIBC_2.2.5', '__cxa_finalize'],
    ['macos', 'LP64', '_printf', 'printf'],
    ['macos', 'LP64', '___error', '__error'],
    ['macos', 'LP64', '__exit', '_exit'],
    ['macos', 'LP64', '_stat$INODE64', 'stat'],
    ['macos', 'LP64', '_write$NOCANCEL$UNIX2003', 'write'],
  ];
  for (const [platform, model, symbol, name] of cases)
    assert.equal(
      libraryPrototypes(platform as 'linux', model as 'LP64').find(symbol)?.name,
      name,
      `${symbol} on ${platform}`,
    );
  assert.equal(libraryPrototypes('linux', 'LP64').find('_printf'), null, 'ELF symbols carry no underscore');
  assert.equal(libraryPrototypes('windows', 'LLP64').find('no_such_function'), null);
});

test('the database is parsed once per platform and data model', () => {
  assert.equal(libraryPrototypes('linux', 'LP64'), libraryPrototypes('linux', 'LP64'));
  assert.notEqual(libraryPrototypes('linux', 'LP64'), libraryPrototypes('linux', 'ILP32'));
});

test('parsing the whole Windows database takes well under 100 ms', () => {
  buildPrototypeDatabase('windows', 'LLP64'); // compile the parser's code first, as a long-lived worker would have
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    count = buildPrototypeDatabase('windows', 'LLP64').prototypes.length;
    times.push(performance.now() - t);
  }
  const median = times.sort((a, b) => a - b)[2]!;
  console.log(`windows/LLP64: ${count} prototypes parsed in ${median.toFixed(1)} ms (median of 5)`);
  assert.ok(median < 100, `${median} ms`);
});
