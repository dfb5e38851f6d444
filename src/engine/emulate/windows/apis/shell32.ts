// shell32: running a program or document through the shell (ShellExecute: a process created, as
// CreateProcess records it), the special folders' paths, and splitting a command line.
import { PROFILE } from '../files.js';
import { ansiAndWide, bufferResult, ERROR, fail, stdcall, type ApiCall, type ApiTable } from './api.js';
import { launch } from './kernel32/processes.js';

/** CSIDL values (shlobj.h) of the folders samples ask for, and where they are. */
const FOLDERS: Record<number, string> = {
  0x0: `${PROFILE}\\Desktop`,
  0x5: `${PROFILE}\\Documents`,
  0x7: `${PROFILE}\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup`,
  0x1a: `${PROFILE}\\AppData\\Roaming`,
  0x1c: `${PROFILE}\\AppData\\Local`,
  0x23: 'C:\\ProgramData',
  0x24: 'C:\\Windows',
  0x25: 'C:\\Windows\\System32',
  0x26: 'C:\\Program Files',
  0x28: PROFILE,
};

function folder(c: ApiCall, csidl: number, at: bigint, wide: boolean): string | null {
  const path = FOLDERS[csidl & 0xff];
  if (path === undefined) return null;
  c.sys.libraryCall(c.name, { argument: path });
  c.sys.writeString(at, path, wide, 260);
  return path;
}

export const SHELL32: ApiTable = {
  ...ansiAndWide('ShellExecute', 6, (c, wide) => {
    const file = c.str(2, wide) ?? '';
    const parameters = c.str(3, wide);
    launch(c, file, parameters ? `${file} ${parameters}` : file, false);
    // Greater than 32: success.
    return 42;
  }),
  ...ansiAndWide('SHGetFolderPath', 5, (c, wide) => (folder(c, c.i32(1), c.arg(4), wide) === null ? 0x8007_0057 : 0)),
  ...ansiAndWide('SHGetSpecialFolderPath', 4, (c, wide) => folder(c, c.i32(2), c.arg(1), wide) !== null),
  CommandLineToArgvW: stdcall(2, (c) => {
    const line = c.str(0, true) ?? '';
    const args = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const w = BigInt(c.sys.abi.pointer);
    const table = c.sys.alloc(c.name, (args.length + 1) * c.sys.abi.pointer);
    if (!table) return fail(c, ERROR.NOT_ENOUGH_MEMORY);
    args.forEach((a, i) => c.sys.writePointer(table + BigInt(i) * w, c.sys.heapString(a, true)));
    if (c.arg(1)) c.sys.writeInt(c.arg(1), args.length, 4);
    return table;
  }),
  ...ansiAndWide(
    'SHGetPathFromIDList',
    2,
    (c, wide) => bufferResult(c, c.arg(1), 260, `${PROFILE}\\Desktop`, wide) > 0,
  ),
};
