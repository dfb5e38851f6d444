import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TypeDefinition } from '../ctype.js';
import { createScope, parseDeclarations, storageOf, type DataModel } from './index.js';

function define(text: string, model: DataModel) {
  const scope = createScope(model);
  parseDeclarations(text, scope, 'layout');
  return scope;
}

const record = (def: TypeDefinition | undefined) => {
  assert.ok(def && def.kind !== 'enum', 'a structure or union');
  return { size: def.size, offsets: Object.fromEntries(def.members.map((m) => [m.name, m.offset])) };
};

const MIXED = 'struct s { char c; int i; long l; char *p; double d; short h; long double x; };';

test('natural alignment: each member at a multiple of its alignment, the size rounded to the largest', () => {
  const cases: [DataModel, Record<string, number>, number][] = [
    ['LP64', { c: 0, i: 4, l: 8, p: 16, d: 24, h: 32, x: 48 }, 64],
    ['LLP64', { c: 0, i: 4, l: 8, p: 16, d: 24, h: 32, x: 40 }, 48],
    // long double: i386's 10 bytes stored in 12 at alignment 4.
    ['ILP32', { c: 0, i: 4, l: 8, p: 12, d: 16, h: 24, x: 28 }, 40],
  ];
  for (const [model, offsets, size] of cases)
    assert.deepEqual(record(define(MIXED, model).types.get('struct s')), { size, offsets }, model);
});

test('Windows structures laid out for Win32 and Win64', () => {
  const text = `
typedef unsigned long DWORD;
typedef unsigned short WORD;
typedef void *HANDLE;
typedef char *LPSTR;
typedef unsigned char *LPBYTE;
typedef struct _STARTUPINFOA {
  DWORD cb; LPSTR lpReserved; LPSTR lpDesktop; LPSTR lpTitle; DWORD dwX; DWORD dwY; DWORD dwXSize;
  DWORD dwYSize; DWORD dwXCountChars; DWORD dwYCountChars; DWORD dwFillAttribute; DWORD dwFlags;
  WORD wShowWindow; WORD cbReserved2; LPBYTE lpReserved2; HANDLE hStdInput; HANDLE hStdOutput; HANDLE hStdError;
} STARTUPINFOA;
typedef struct _SYSTEMTIME { WORD wYear, wMonth, wDayOfWeek, wDay, wHour, wMinute, wSecond, wMilliseconds; } SYSTEMTIME;`;
  const w64 = record(define(text, 'LLP64').types.get('struct _STARTUPINFOA'));
  assert.equal(w64.size, 104);
  assert.deepEqual(
    [w64.offsets.lpReserved, w64.offsets.wShowWindow, w64.offsets.lpReserved2, w64.offsets.hStdError],
    [8, 64, 72, 96],
  );
  const w32 = record(define(text, 'ILP32').types.get('struct _STARTUPINFOA'));
  assert.equal(w32.size, 68);
  assert.deepEqual(
    [w32.offsets.lpReserved, w32.offsets.wShowWindow, w32.offsets.lpReserved2, w32.offsets.hStdError],
    [4, 48, 52, 64],
  );
  assert.equal(record(define(text, 'ILP32').types.get('struct _SYSTEMTIME')).size, 16);
});

test('unions take their largest member; nested and anonymous members are laid out in place', () => {
  const scope = define(
    `typedef struct _OVERLAPPED {
       unsigned long *Internal;
       unsigned long *InternalHigh;
       union { struct { unsigned int Offset; unsigned int OffsetHigh; }; void *Pointer; };
       void *hEvent;
     } OVERLAPPED;
     union u { char c; double d; int a[3]; };
     struct outer { char tag; struct inner { short s; long long q; } in; char tail; };`,
    'ILP32',
  );
  const ov = record(scope.types.get('struct _OVERLAPPED'));
  assert.deepEqual(ov, { size: 20, offsets: { Internal: 0, InternalHigh: 4, '': 8, hEvent: 16 } });
  const anon = scope.types.get('union _OVERLAPPED::anonymous2');
  assert.ok(anon && anon.kind === 'union' && anon.size === 8, 'the anonymous union is named after its place');
  assert.ok(scope.types.has('struct _OVERLAPPED::anonymous2::anonymous0'));
  assert.deepEqual(record(scope.types.get('union u')), { size: 16, offsets: { c: 0, d: 0, a: 0 } });
  assert.deepEqual(record(scope.types.get('struct outer')), { size: 32, offsets: { tag: 0, in: 8, tail: 24 } });
  assert.deepEqual(record(scope.types.get('struct inner')), { size: 16, offsets: { s: 0, q: 8 } });
});

test('a typedef of an untagged structure gives it the typedef’s name', () => {
  const scope = define('typedef struct { int x; char *name; } ITEM, *PITEM;', 'LP64');
  assert.deepEqual(record(scope.types.get('struct ITEM')), { size: 16, offsets: { x: 0, name: 8 } });
});

test('flexible array members take alignment but no space; self-reference works through pointers', () => {
  const scope = define(
    'struct msg { unsigned short len; long data[]; }; struct node { struct node *next; int v; };',
    'LP64',
  );
  assert.deepEqual(record(scope.types.get('struct msg')), { size: 8, offsets: { len: 0, data: 8 } });
  assert.deepEqual(record(scope.types.get('struct node')), { size: 16, offsets: { next: 0, v: 8 } });
  assert.throws(() => define('struct bad { char d[]; int after; };', 'LP64'), /must be the last member/);
});

test('storageOf gives size and alignment, or why there is none', () => {
  const scope = define('struct pair { char a; double b; };', 'ILP32');
  const lookup = (t: { kind: 'struct' | 'union'; tag: string }) => scope.types.get(`${t.kind} ${t.tag}`);
  assert.deepEqual(storageOf({ kind: 'struct', tag: 'pair' }, lookup), { size: 16, align: 8 });
  assert.match(String(storageOf({ kind: 'struct', tag: 'missing' }, lookup)), /incomplete/);
  assert.match(String(storageOf({ kind: 'void' }, lookup)), /no size/);
});
