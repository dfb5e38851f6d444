// Every API handler by DLL (lower-case name): what an import or GetProcAddress resolves to.
import { ADVAPI32 } from './advapi32.js';
import type { Api, ApiTable, DataExport } from './api.js';
import { FILES } from './kernel32/files.js';
import { PROCESSES } from './kernel32/processes.js';
import { SYSTEM } from './kernel32/system.js';
import { RUNTIME } from './msvcrt/runtime.js';
import { STDIO } from './msvcrt/stdio.js';
import { URLMON, WINHTTP, WININET, WS2_32 } from './network.js';
import { NTDLL } from './ntdll.js';
import { BCRYPT, CRYPT32 } from './crypto.js';
import { UCRT } from './msvcrt/ucrt.js';
import { SHELL32 } from './shell32.js';
import { USER32 } from './user32.js';

const KERNEL32: ApiTable = { ...FILES, ...SYSTEM, ...PROCESSES };

export const DLLS: Readonly<Record<string, ApiTable>> = {
  'ntdll.dll': NTDLL,
  'kernel32.dll': KERNEL32,
  // Windows 7 moved much of kernel32 into kernelbase; programs may import either.
  'kernelbase.dll': KERNEL32,
  'advapi32.dll': ADVAPI32,
  'msvcrt.dll': { ...RUNTIME, ...STDIO },
  'ws2_32.dll': WS2_32,
  'wsock32.dll': WS2_32,
  'wininet.dll': WININET,
  'winhttp.dll': WINHTTP,
  'urlmon.dll': URLMON,
  'user32.dll': USER32,
  'shell32.dll': SHELL32,
  'crypt32.dll': CRYPT32,
  'bcrypt.dll': BCRYPT,
  'ucrtbase.dll': UCRT,
  'vcruntime140.dll': UCRT,
};

/** Whether the emulator answers `dll`!`name` (a function's handler, or a variable's data). */
export const windowsApiHandled = (dll: string, name: string): boolean => apiOf(dll, name) !== null;

/** The handler of `dll`!`name`, or null when there is none. */
export function apiOf(dll: string, name: string): Api | DataExport | null {
  return apiTable(dll)?.[name] ?? null;
}

/** The handlers of `dll`, or null for a DLL the emulator does not know. */
export function apiTable(dll: string): ApiTable | null {
  const key = dll.toLowerCase();
  // The UCRT's API sets (api-ms-win-crt-stdio-l1-1-0.dll, …) forward to ucrtbase.
  return key.startsWith('api-ms-win-crt-') ? UCRT : (DLLS[key] ?? null);
}

export type { Api, ApiTable, DataExport } from './api.js';
