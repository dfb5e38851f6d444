// msvcrt's start-up and exit (the arguments, initializer tables, atexit), memory, environment, locale and
// time, and the string and memory functions, which work on the guest's memory from here.
import type { WinSystem } from '../../system.js';
import { cdecl, type ApiCall, type ApiTable } from '../api.js';
import { startThread } from '../kernel32/processes.js';
import { crtOf } from './crt.js';

const ENOMEM = 12;

function exitWith(sys: WinSystem, code: number, how: string): number {
  // atexit functions run last-registered first, then the process ends (the run loop sees `exiting`).
  sys.pending.push(...[...sys.atExit].reverse().map((fn) => ({ fn, args: [], thread: false })));
  sys.atExit.length = 0;
  sys.exiting = { reason: 'exit', detail: `${how}(${code})` };
  return 0;
}

const bytes = (c: ApiCall, i: number, n: number) => c.sys.bytes(c.arg(i), n) ?? new Uint8Array();

/** -1, 0 or 1 as strcmp and memcmp order their operands (bytes as unsigned, as latin1 strings keep them). */
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** The offset of the first character of `s` (not) in `set`. */
const span = (s: string, set: string, inSet: boolean) => {
  let i = 0;
  while (i < s.length && set.includes(s[i]!) === inSet) i++;
  return i;
};

export const RUNTIME: ApiTable = {
  __set_app_type: cdecl(1, () => 0),
  __setusermatherr: cdecl(1, () => 0),
  _lock: cdecl(1, () => 0),
  _unlock: cdecl(1, () => 0),
  signal: cdecl(2, () => 0),
  __getmainargs: cdecl(5, (c) => {
    const crt = crtOf(c.sys);
    c.sys.writeInt(c.arg(0), c.sys.argv.length, 4);
    c.sys.writePointer(c.arg(1), crt.pointerArray(c.sys.argv.map((a) => crt.constant(a))));
    c.sys.writePointer(c.arg(2), crt.environment());
    return 0;
  }),
  __initenv: {
    data: (sys) =>
      crtOf(sys).variable('__initenv', sys.abi.pointer, (at) => sys.writePointer(at, crtOf(sys).environment())),
  },
  _acmdln: { data: (sys) => acmdln(sys) },
  __p__acmdln: cdecl(0, (c) => acmdln(c.sys)),
  _fmode: { data: (sys) => crtOf(sys).variable('_fmode', 4) },
  __p__fmode: cdecl(0, (c) => crtOf(c.sys).variable('_fmode', 4)),
  _commode: { data: (sys) => crtOf(sys).variable('_commode', 4) },
  __p__commode: cdecl(0, (c) => crtOf(c.sys).variable('_commode', 4)),
  __mb_cur_max: { data: (sys) => crtOf(sys).variable('__mb_cur_max', 4, (at) => sys.writeInt(at, 1, 4)) },
  ___mb_cur_max_func: cdecl(0, () => 1),
  ___lc_codepage_func: cdecl(0, () => 0),
  _errno: cdecl(0, (c) => crtOf(c.sys).errno),
  _initterm: cdecl(2, (c) => initializers(c)),
  _initterm_e: cdecl(2, (c) => initializers(c)),
  _onexit: cdecl(1, (c) => {
    c.sys.atExit.push(c.arg(0));
    return c.arg(0);
  }),
  atexit: cdecl(1, (c) => {
    c.sys.atExit.push(c.arg(0));
    return 0;
  }),
  exit: cdecl(1, (c) => exitWith(c.sys, c.i32(0), 'exit')),
  _cexit: cdecl(0, (c) => {
    c.sys.pending.push(...[...c.sys.atExit].reverse().map((fn) => ({ fn, args: [], thread: false })));
    c.sys.atExit.length = 0;
    return 0;
  }),
  // unsigned __stdcall start(void *): run to its end before _beginthreadex returns, as CreateThread's are.
  _beginthreadex: cdecl(6, (c) => startThread(c, c.arg(2), c.arg(3), c.arg(5))),
  _endthreadex: cdecl(1, (c) => {
    c.sys.endThread(c.u32(0));
    return 0;
  }),
  _exit: cdecl(1, (c) => {
    c.sys.stop({ reason: 'exit', detail: `_exit(${c.i32(0)})` });
    return 0;
  }),
  _amsg_exit: cdecl(1, (c) => {
    c.sys.stop({ reason: 'exit', detail: `_amsg_exit(${c.i32(0)}): runtime error` });
    return 0;
  }),
  abort: cdecl(0, (c) => {
    c.sys.stop({ reason: 'exit', detail: 'abort()' });
    return 0;
  }),
  _assert: cdecl(3, (c) => {
    const text = `Assertion failed: ${c.str(0) ?? ''}, file ${c.str(1) ?? ''}, line ${c.u32(2)}\n`;
    c.sys.output.push(Buffer.from(text, 'latin1'));
    c.sys.stop({ reason: 'exit', detail: 'abort() after a failed assertion' });
    return 0;
  }),
  __C_specific_handler: cdecl(4, () => 1),
  malloc: cdecl(1, (c) => allocated(c, c.sys.alloc(c.name, Number(c.arg(0))))),
  calloc: cdecl(2, (c) => allocated(c, c.sys.alloc(c.name, Number(c.arg(0) * c.arg(1))))),
  realloc: cdecl(2, (c) =>
    c.arg(0) === 0n
      ? allocated(c, c.sys.alloc(c.name, Number(c.arg(1))))
      : allocated(c, c.sys.realloc(c.name, c.arg(0), Number(c.arg(1)))),
  ),
  free: cdecl(1, (c) => {
    c.sys.heap.release(c.arg(0));
    return 0;
  }),
  // The heap's blocks are 16-byte aligned, enough for the alignments programs ask of _aligned_malloc.
  _aligned_malloc: cdecl(2, (c) => allocated(c, c.sys.alloc(c.name, Number(c.arg(0))))),
  _aligned_free: cdecl(1, (c) => {
    c.sys.heap.release(c.arg(0));
    return 0;
  }),
  _strdup: cdecl(1, (c) => (c.arg(0) ? c.sys.heapString(c.str(0) ?? '') : 0)),
  getenv: cdecl(1, (c) => {
    const name = c.str(0) ?? '';
    c.sys.libraryCall('getenv', { argument: name });
    const value = [...c.sys.env].find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    return value === undefined ? 0 : crtOf(c.sys).constant(value);
  }),
  setlocale: cdecl(2, (c) => crtOf(c.sys).constant('C')),
  localeconv: cdecl(0, (c) => {
    // struct lconv: ten string pointers (decimal point ".", the others empty), then CHAR_MAX bytes.
    const crt = crtOf(c.sys);
    return crt.variable('lconv', 10 * c.sys.abi.pointer + 8, (at) => {
      for (let i = 0; i < 10; i++)
        c.sys.writePointer(at + BigInt(i * c.sys.abi.pointer), crt.constant(i === 0 ? '.' : ''));
      c.sys.cpu.write(at + BigInt(10 * c.sys.abi.pointer), new Uint8Array(8).fill(127));
    });
  }),
  // time_t is 32-bit in msvcrt's time and localtime for 32-bit programs, 64-bit in the _64 forms.
  time: cdecl(1, (c) => now(c, c.sys.abi.pointer)),
  _time64: cdecl(1, (c) => now(c, 8)),
  localtime: cdecl(1, (c) => tm(c, c.sys.abi.pointer)),
  _localtime64: cdecl(1, (c) => tm(c, 8)),
  atoi: cdecl(1, (c) => Number.parseInt(c.str(0) ?? '', 10) | 0),
  strlen: cdecl(1, (c) => c.str(0)?.length ?? 0),
  wcslen: cdecl(1, (c) => c.str(0, true)?.length ?? 0),
  strcmp: cdecl(2, (c) => order(c.str(0) ?? '', c.str(1) ?? '')),
  strncmp: cdecl(3, (c) =>
    order((c.str(0) ?? '').slice(0, Number(c.arg(2))), (c.str(1) ?? '').slice(0, Number(c.arg(2)))),
  ),
  strchr: cdecl(2, (c) => {
    const s = c.str(0) ?? '';
    const ch = c.u32(1) & 0xff;
    const i = ch === 0 ? s.length : s.indexOf(String.fromCharCode(ch));
    return i < 0 ? 0 : c.arg(0) + BigInt(i);
  }),
  strrchr: cdecl(2, (c) => {
    const s = c.str(0) ?? '';
    const ch = c.u32(1) & 0xff;
    const i = ch === 0 ? s.length : s.lastIndexOf(String.fromCharCode(ch));
    return i < 0 ? 0 : c.arg(0) + BigInt(i);
  }),
  strspn: cdecl(2, (c) => span(c.str(0) ?? '', c.str(1) ?? '', true)),
  strcspn: cdecl(2, (c) => span(c.str(0) ?? '', c.str(1) ?? '', false)),
  wcscpy: cdecl(2, (c) => {
    c.sys.writeString(c.arg(0), c.str(1, true) ?? '', true);
    return c.arg(0);
  }),
  memchr: cdecl(3, (c) => {
    const i = bytes(c, 0, Number(c.arg(2))).indexOf(c.u32(1) & 0xff);
    return i < 0 ? 0 : c.arg(0) + BigInt(i);
  }),
  memcmp: cdecl(3, (c) => order(latin1(bytes(c, 0, Number(c.arg(2)))), latin1(bytes(c, 1, Number(c.arg(2)))))),
  memcpy: cdecl(3, (c) => {
    c.sys.cpu.write(c.arg(0), bytes(c, 1, Number(c.arg(2))));
    return c.arg(0);
  }),
  memmove: cdecl(3, (c) => {
    c.sys.cpu.write(c.arg(0), bytes(c, 1, Number(c.arg(2))));
    return c.arg(0);
  }),
  memset: cdecl(3, (c) => {
    c.sys.cpu.write(
      c.arg(0),
      new Uint8Array(Math.min(Number(c.arg(2)), c.sys.limits.allocation)).fill(c.u32(1) & 0xff),
    );
    return c.arg(0);
  }),
};

function allocated(c: ApiCall, at: bigint): bigint {
  if (!at) crtOf(c.sys).setErrno(ENOMEM);
  return at;
}

function acmdln(sys: WinSystem): bigint {
  return crtOf(sys).variable('_acmdln', sys.abi.pointer, (at) =>
    sys.writePointer(at, crtOf(sys).constant(sys.argv.join(' '))),
  );
}

/** _initterm: the non-null function pointers in [begin, end), run in order before it returns. */
function initializers(c: ApiCall): number {
  const width = BigInt(c.sys.abi.pointer);
  const count = Number((c.arg(1) - c.arg(0)) / width);
  for (let i = 0; i < Math.min(count, 4096); i++) {
    const fn = c.sys.pointerAt(c.arg(0) + BigInt(i) * width);
    if (fn) c.sys.pending.push({ fn, args: [], thread: false });
  }
  return 0;
}

function now(c: ApiCall, bytes: 4 | 8): bigint {
  const seconds = BigInt(Math.floor(c.sys.now() / 1000));
  if (c.arg(0)) c.sys.writeInt(c.arg(0), seconds, bytes);
  return seconds;
}

/** struct tm (nine ints) of the time_t at argument 0, in UTC (the machine's zone). */
function tm(c: ApiCall, bytes: 4 | 8): bigint {
  const raw = c.sys.bytes(c.arg(0), bytes);
  const seconds = raw
    ? Number(bytes === 8 ? new DataView(raw.buffer).getBigInt64(0, true) : new DataView(raw.buffer).getInt32(0, true))
    : 0;
  const d = new Date(seconds * 1000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const fields = [
    d.getUTCSeconds(),
    d.getUTCMinutes(),
    d.getUTCHours(),
    d.getUTCDate(),
    d.getUTCMonth(),
    d.getUTCFullYear() - 1900,
    d.getUTCDay(),
    Math.floor((d.getTime() - start) / 86_400_000),
    0,
  ];
  const at = crtOf(c.sys).variable('tm', 36);
  c.sys.cpu.write(at, new Uint8Array(Int32Array.from(fields).buffer));
  return at;
}
