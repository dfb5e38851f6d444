// Every module of the database, in the order they are read: a platform's modules see the typedefs and
// structures of the modules before them, so type modules come first, then the libraries that use them.
import { advapi32 } from './advapi32.js';
import { bcrypt } from './bcrypt.js';
import { cMath } from './c-math.js';
import { cStdio } from './c-stdio.js';
import { cStdlib } from './c-stdlib.js';
import { cWchar } from './c-wchar.js';
import { crypt32 } from './crypt32.js';
import { cxxRuntime } from './cxx-runtime.js';
import { darwin } from './darwin.js';
import { darwinTypes } from './darwin-types.js';
import { gdi32 } from './gdi32.js';
import { glibc } from './glibc.js';
import { glibcTypes } from './glibc-types.js';
import { iphlpapi } from './iphlpapi.js';
import { kernel32Files } from './kernel32-files.js';
import { kernel32Processes } from './kernel32-processes.js';
import { kernel32System } from './kernel32-system.js';
import { kernel32Types } from './kernel32-types.js';
import { linux } from './linux.js';
import type { Platform, PrototypeModule } from './module.js';
import { msvcrt } from './msvcrt.js';
import { msvcrtTypes } from './msvcrt-types.js';
import { ntdll } from './ntdll.js';
import { objc } from './objc.js';
import { ole32, oleaut32 } from './ole32.js';
import { posixFiles } from './posix-files.js';
import { posixNet } from './posix-net.js';
import { posixProcesses } from './posix-processes.js';
import { posixStrings } from './posix-strings.js';
import { psapi } from './psapi.js';
import { pthread } from './pthread.js';
import { shell32 } from './shell32.js';
import { unixRuntime } from './unix-runtime.js';
import { urlmon } from './urlmon.js';
import { user32 } from './user32.js';
import { winhttp } from './winhttp.js';
import { wininet } from './wininet.js';
import { ws2_32 } from './ws2_32.js';
import { windowsTypes } from './windows-types.js';

export const MODULES: readonly PrototypeModule[] = [
  // Types: the platform's base types, then the C library's.
  windowsTypes,
  glibcTypes,
  darwinTypes,
  msvcrtTypes,
  kernel32Types,
  // The C standard library, on every platform.
  cStdio,
  cStdlib,
  cMath,
  cWchar,
  // POSIX, glibc and Linux, macOS.
  posixFiles,
  posixProcesses,
  posixStrings,
  posixNet,
  pthread,
  unixRuntime,
  glibc,
  linux,
  darwin,
  objc,
  // Win32, in dependency order (advapi32's token types before ntdll, WinINet's before WinHTTP).
  kernel32Files,
  kernel32Processes,
  kernel32System,
  psapi,
  advapi32,
  user32,
  gdi32,
  ws2_32,
  iphlpapi,
  wininet,
  winhttp,
  urlmon,
  ole32,
  oleaut32,
  shell32,
  crypt32,
  bcrypt,
  ntdll,
  msvcrt,
  // C++ runtime, on every platform.
  cxxRuntime,
];

export const modulesFor = (platform: Platform): PrototypeModule[] =>
  MODULES.filter((m) => m.platforms.includes(platform));
