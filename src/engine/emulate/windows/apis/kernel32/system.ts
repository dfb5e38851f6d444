// kernel32's view of the machine: time, version and processor, the environment and command line, errors,
// modules (the sample, and system DLLs whose functions resolve to API handlers), thread-local slots,
// synchronisation objects (one thread runs at a time: nothing ever waits) and string conversions.
import { COMPUTER } from '../../files.js';
import type { StructField, WinSystem } from '../../system.js';
import { ansiAndWide, bufferResult, ERROR, fail, stdcall, type ApiCall, type ApiTable } from '../api.js';

/** 100 ns intervals from 1601 to the Unix epoch. */
const FILETIME_EPOCH = 116_444_736_000_000_000n;
/** Milliseconds the machine had been up when the run began (GetTickCount's start). */
const UPTIME_MS = 3 * 3_600_000 + 17 * 60_000;
/** GetVersion: Windows 10 build 19045 (major in the low byte, build in the high word). */
const VERSION = (19045 << 16) | 10;

export const fileTime = (ms: number): bigint => BigInt(ms) * 10_000n + FILETIME_EPOCH;

/** SYSTEMTIME (eight 16-bit fields) of a time in milliseconds since the Unix epoch. */
function systemTime(ms: number): Uint8Array {
  const d = new Date(ms);
  const fields = [
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDay(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  ];
  return new Uint8Array(Uint16Array.from(fields).buffer);
}

/** The fake base of system DLL `name` (as LoadLibrary and GetModuleHandle return it), or null when unknown. */
function moduleBase(sys: WinSystem, name: string | null): bigint | null {
  if (name === null) return sys.imageBase;
  const dll = name.toLowerCase().replace(/^.*[\\/]/, '');
  const key = dll.includes('.') ? dll : `${dll}.dll`;
  return sys.modules.get(key) ?? null;
}

export const SYSTEM: ApiTable = {
  CloseHandle: stdcall(1, (c) => c.sys.handles.delete(c.arg(0)) || fail(c, ERROR.INVALID_HANDLE)),
  GetLastError: stdcall(0, (c) => c.sys.lastError),
  SetLastError: stdcall(1, (c) => {
    c.sys.lastError = c.u32(0);
    return 0;
  }),
  GetSystemTime: stdcall(1, (c) => {
    c.sys.cpu.write(c.arg(0), systemTime(c.sys.now()));
    return 0;
  }),
  GetLocalTime: stdcall(1, (c) => {
    c.sys.cpu.write(c.arg(0), systemTime(c.sys.now()));
    return 0;
  }),
  GetSystemTimeAsFileTime: stdcall(1, (c) => {
    c.sys.writeInt(c.arg(0), fileTime(c.sys.now()), 8);
    return 0;
  }),
  SystemTimeToFileTime: stdcall(2, (c) => {
    const st = c.sys.bytes(c.arg(0), 16);
    if (!st) return fail(c, ERROR.INVALID_PARAMETER);
    const f = new Uint16Array(st.buffer);
    c.sys.writeInt(c.arg(1), fileTime(Date.UTC(f[0]!, f[1]! - 1, f[3], f[4], f[5], f[6], f[7])), 8);
    return true;
  }),
  GetTickCount: stdcall(0, (c) => (UPTIME_MS + c.sys.elapsed()) >>> 0),
  GetTickCount64: stdcall(0, (c) => UPTIME_MS + c.sys.elapsed()),
  QueryPerformanceCounter: stdcall(1, (c) => {
    c.sys.writeInt(c.arg(0), BigInt(UPTIME_MS + c.sys.elapsed()) * 10_000n, 8);
    return true;
  }),
  QueryPerformanceFrequency: stdcall(1, (c) => {
    c.sys.writeInt(c.arg(0), 10_000_000, 8);
    return true;
  }),
  Sleep: stdcall(1, (c) => {
    c.sys.sleep(c.u32(0));
    return 0;
  }),
  GetVersion: stdcall(0, () => VERSION),
  GetSystemInfo: stdcall(1, (c) => {
    // SYSTEM_INFO: the CPU (AMD64 or Intel), 4 KiB pages, the user address range, two processors, 64 KiB
    // allocation granularity, family 6.
    const x64 = c.sys.abi.pointer === 8;
    const si = c.sys.struct([
      ['u16', x64 ? 9 : 0],
      ['u16', 0],
      ['u32', 4096],
      ['ptr', 0x1_0000],
      ['ptr', x64 ? 0x7fff_fffe_ffffn : 0x7ffe_ffff],
      ['ptr', 3],
      ['u32', 2],
      ['u32', x64 ? 8664 : 586],
      ['u32', 0x1_0000],
      ['u16', 6],
      ['u16', 0x9e0a],
    ]);
    c.sys.cpu.write(c.arg(0), si);
    return 0;
  }),
  GetStartupInfoA: stdcall(1, (c) => startupInfo(c)),
  GetStartupInfoW: stdcall(1, (c) => startupInfo(c)),
  ...ansiAndWide('GetCommandLine', 0, (c, wide) => c.sys.heapString(c.sys.argv.join(' '), wide)),
  ...ansiAndWide('GetEnvironmentVariable', 3, (c, wide) => {
    const name = c.str(0, wide) ?? '';
    c.sys.libraryCall(c.name, { argument: name });
    const value = [...c.sys.env].find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    if (value === undefined) return fail(c, 203);
    return bufferResult(c, c.arg(1), c.u32(2), value, wide);
  }),
  ...ansiAndWide('GetComputerName', 2, (c, wide) => {
    c.sys.libraryCall(c.name);
    const room = Number(c.sys.pointerAt(c.arg(1)) & 0xffff_ffffn);
    c.sys.writeInt(c.arg(1), room > COMPUTER.length ? COMPUTER.length : COMPUTER.length + 1, 4);
    if (room <= COMPUTER.length) return fail(c, 111);
    c.sys.writeString(c.arg(0), COMPUTER, wide);
    return true;
  }),
  SetUnhandledExceptionFilter: stdcall(1, () => 0),
  OutputDebugStringA: stdcall(1, () => 0),
  OutputDebugStringW: stdcall(1, () => 0),
  ...ansiAndWide('FormatMessage', 7, (c, wide) => {
    const text = `error ${c.u32(2)}\r\n`;
    if (c.u32(0) & 0x100) {
      // FORMAT_MESSAGE_ALLOCATE_BUFFER: the buffer argument receives a LocalAlloc'd string.
      c.sys.writePointer(c.arg(4), c.sys.heapString(text, wide));
      return text.length;
    }
    if (c.u32(5) <= text.length) return fail(c, ERROR.INSUFFICIENT_BUFFER);
    return c.sys.writeString(c.arg(4), text, wide);
  }),
  ...ansiAndWide('GetModuleHandle', 1, (c, wide) => moduleBase(c.sys, c.str(0, wide)) ?? fail(c, ERROR.MOD_NOT_FOUND)),
  ...ansiAndWide('LoadLibrary', 1, (c, wide) => {
    const name = c.str(0, wide) ?? '';
    c.sys.libraryCall(c.name, { argument: name });
    return moduleBase(c.sys, name) ?? fail(c, ERROR.MOD_NOT_FOUND);
  }),
  FreeLibrary: stdcall(1, () => true),
  GetProcAddress: stdcall(2, (c) => {
    const dll = [...c.sys.modules].find(([, base]) => base === c.arg(0))?.[0];
    // A name, or an ordinal in the pointer's low word.
    const name = c.arg(1) >> 16n ? c.str(1) : `ordinal_${c.arg(1)}`;
    const at = dll && name ? c.sys.resolveApi(dll, name) : null;
    return at ?? fail(c, ERROR.PROC_NOT_FOUND);
  }),
  ...ansiAndWide('GetModuleFileName', 3, (c, wide) =>
    bufferResult(
      c,
      c.arg(1),
      c.u32(2),
      c.arg(0) === 0n || c.arg(0) === c.sys.imageBase
        ? c.sys.imagePath
        : `C:\\Windows\\System32\\${[...c.sys.modules].find(([, b]) => b === c.arg(0))?.[0] ?? 'kernel32.dll'}`,
      wide,
    ),
  ),
  TlsAlloc: stdcall(0, (c) => {
    const t = c.sys.tlsSlots;
    const i = [...Array(t.size + 1).keys()].find((k) => !t.has(k))!;
    t.set(i, 0n);
    return i;
  }),
  TlsFree: stdcall(1, (c) => c.sys.tlsSlots.delete(c.u32(0))),
  TlsGetValue: stdcall(1, (c) => {
    c.sys.lastError = 0;
    return c.sys.tlsSlots.get(c.u32(0)) ?? 0n;
  }),
  TlsSetValue: stdcall(2, (c) => c.sys.tlsSlots.has(c.u32(0)) && !!c.sys.tlsSlots.set(c.u32(0), c.arg(1))),
  InitializeCriticalSection: stdcall(1, () => 0),
  InitializeCriticalSectionAndSpinCount: stdcall(2, () => true),
  DeleteCriticalSection: stdcall(1, () => 0),
  EnterCriticalSection: stdcall(1, () => 0),
  LeaveCriticalSection: stdcall(1, () => 0),
  TryEnterCriticalSection: stdcall(1, () => true),
  ...ansiAndWide('CreateEvent', 4, (c, wide) => syncObject(c, 'event', c.str(3, wide))),
  ...ansiAndWide('CreateMutex', 3, (c, wide) => syncObject(c, 'mutex', c.str(2, wide))),
  ...ansiAndWide('OpenMutex', 3, (c, wide) => {
    const name = c.str(2, wide);
    const known = [...c.sys.handles.values()].some((h) => h.k === 'object' && h.what === 'mutex' && h.name === name);
    return known ? c.sys.open({ k: 'object', what: 'mutex', name }) : fail(c, ERROR.FILE_NOT_FOUND);
  }),
  SetEvent: stdcall(1, () => true),
  ResetEvent: stdcall(1, () => true),
  ReleaseMutex: stdcall(1, () => true),
  WaitForSingleObject: stdcall(2, () => 0),
  WaitForSingleObjectEx: stdcall(3, () => 0),
  WaitForMultipleObjects: stdcall(4, () => 0),
  SignalObjectAndWait: stdcall(4, () => 0),
  AreFileApisANSI: stdcall(0, () => true),
  IsDBCSLeadByteEx: stdcall(2, () => false),
  GetACP: stdcall(0, () => 1252),
  MultiByteToWideChar: stdcall(6, (c) => convert(c, false)),
  WideCharToMultiByte: stdcall(8, (c) => convert(c, true)),
  lstrlenA: stdcall(1, (c) => c.str(0)?.length ?? 0),
  lstrlenW: stdcall(1, (c) => c.str(0, true)?.length ?? 0),
  lstrcpynA: stdcall(3, (c) => {
    if (c.i32(2) <= 0) return c.arg(0);
    c.sys.writeString(c.arg(0), c.str(1) ?? '', false, c.i32(2));
    return c.arg(0);
  }),
  lstrcpyA: stdcall(2, (c) => {
    c.sys.writeString(c.arg(0), c.str(1) ?? '');
    return c.arg(0);
  }),
  lstrcatA: stdcall(2, (c) => {
    c.sys.writeString(c.arg(0), (c.str(0) ?? '') + (c.str(1) ?? ''));
    return c.arg(0);
  }),
  lstrcmpiA: stdcall(2, (c) => (c.str(0) ?? '').toLowerCase().localeCompare((c.str(1) ?? '').toLowerCase())),
};

function startupInfo(c: ApiCall): number {
  // STARTUPINFO: its size first; three strings, eight numbers, two words and four pointers, all unset.
  const fields: [StructField, number][] = [
    ['u32', 0],
    ...Array.from({ length: 3 }, (): [StructField, number] => ['ptr', 0]),
    ...Array.from({ length: 8 }, (): [StructField, number] => ['u32', 0]),
    ['u16', 0],
    ['u16', 0],
    ...Array.from({ length: 4 }, (): [StructField, number] => ['ptr', 0]),
  ];
  const si = c.sys.struct(fields);
  si[0] = si.length;
  c.sys.cpu.write(c.arg(0), si);
  return 0;
}

function syncObject(c: ApiCall, what: string, name: string | null): bigint {
  const exists =
    name !== null && [...c.sys.handles.values()].some((h) => h.k === 'object' && h.what === what && h.name === name);
  const h = c.sys.open({ k: 'object', what, name });
  c.sys.lastError = exists ? ERROR.ALREADY_EXISTS : 0;
  return h;
}

/**
 * MultiByteToWideChar (`toNarrow` false) and WideCharToMultiByte: the source (its length given, or -1 for up to
 * and with its NUL) in the other width; with no room given, the units needed.
 */
function convert(c: ApiCall, toNarrow: boolean): number {
  const length = c.i32(3);
  const unit = toNarrow ? 2 : 1;
  const raw = length < 0 ? c.str(2, toNarrow) : c.sys.bytes(c.arg(2), length * unit);
  if (raw === null) return fail(c, ERROR.INVALID_PARAMETER) as number;
  let text = typeof raw === 'string' ? `${raw}\0` : Buffer.from(raw).toString(toNarrow ? 'utf16le' : 'latin1');
  // Code page 65001 is UTF-8 on the narrow side.
  const utf8 = c.u32(0) === 65001;
  if (!toNarrow && utf8) text = Buffer.from(Buffer.from(text, 'latin1')).toString('utf8');
  const out = toNarrow ? Buffer.from(text, utf8 ? 'utf8' : 'latin1') : Buffer.from(text, 'utf16le');
  const units = out.length / (toNarrow ? 1 : 2);
  const room = c.i32(5);
  if (room === 0) return units;
  if (room < units) return fail(c, ERROR.INSUFFICIENT_BUFFER) as number;
  c.sys.cpu.write(c.arg(4), out);
  return units;
}
