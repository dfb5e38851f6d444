// user32: what malware asks of the desktop — the keyboard (GetAsyncKeyState polling and SetWindowsHookEx
// are how keyloggers read it), the foreground window and its title, windows found by name, a message box,
// a message loop that has nothing to deliver — with each watched call kept as an event for the behaviours.
import { ansiAndWide, cdecl, ERROR, fail, stdcall, type ApiTable } from './api.js';
import { callArgs } from './msvcrt/crt.js';
import { formatC } from '../printf.js';

/** The one window the desktop shows: a text editor with an unsaved document. */
const FOREGROUND = 0x1_0010n;
const FOREGROUND_TITLE = 'Quarterly report.docx - Word';
/** WH_KEYBOARD_LL and WH_KEYBOARD: hooks that see every key. */
const KEYBOARD_HOOKS = new Set([2, 13]);
/** GetSystemMetrics: a 1920×1080 screen (SM_CXSCREEN, SM_CYSCREEN), a mouse with buttons. */
const METRICS: Record<number, number> = { 0: 1920, 1: 1080, 19: 1, 43: 3, 80: 1 };

export const USER32: ApiTable = {
  GetAsyncKeyState: stdcall(1, (c) => {
    c.sys.libraryCall(c.name, { argument: String(c.u32(0)) });
    return 0;
  }),
  GetKeyState: stdcall(1, (c) => {
    c.sys.libraryCall(c.name, { argument: String(c.u32(0)) });
    return 0;
  }),
  GetKeyboardState: stdcall(1, (c) => {
    c.sys.cpu.write(c.arg(0), new Uint8Array(256));
    c.sys.libraryCall(c.name);
    return true;
  }),
  ...ansiAndWide('SetWindowsHookEx', 4, (c) => {
    c.sys.libraryCall(c.name, { argument: String(c.i32(0)), keyboard: KEYBOARD_HOOKS.has(c.i32(0)) ? 'yes' : 'no' });
    return c.sys.open({ k: 'object', what: 'hook', name: String(c.i32(0)) });
  }),
  UnhookWindowsHookEx: stdcall(1, (c) => c.sys.handles.delete(c.arg(0))),
  CallNextHookEx: stdcall(4, () => 0),
  GetForegroundWindow: stdcall(0, (c) => {
    c.sys.libraryCall(c.name);
    return FOREGROUND;
  }),
  GetDesktopWindow: stdcall(0, () => 0x1_0002n),
  ...ansiAndWide('GetWindowText', 3, (c, wide) => {
    c.sys.libraryCall(c.name);
    if (c.arg(0) !== FOREGROUND || c.i32(2) <= 0) return 0;
    return c.sys.writeString(c.arg(1), FOREGROUND_TITLE, wide, c.i32(2));
  }),
  ...ansiAndWide('FindWindow', 2, (c, wide) => {
    // Analysis tools' windows (OllyDbg, Wireshark…) are not there; nor is anything else.
    c.sys.libraryCall(c.name, { argument: c.str(1, wide) ?? c.str(0, wide) ?? '' });
    return fail(c, ERROR.FILE_NOT_FOUND);
  }),
  GetWindowThreadProcessId: stdcall(2, (c) => {
    if (c.arg(1)) c.sys.writeInt(c.arg(1), 4444, 4);
    return 4448;
  }),
  ...ansiAndWide('MessageBox', 4, (c, wide) => {
    c.sys.libraryCall(c.name, { argument: c.str(1, wide) ?? '', caption: c.str(2, wide) ?? '' });
    // IDOK: the user clicked.
    return 1;
  }),
  ShowWindow: stdcall(2, () => true),
  GetSystemMetrics: stdcall(1, (c) => METRICS[c.i32(0)] ?? 0),
  GetCursorPos: stdcall(1, (c) => {
    c.sys.writeInt(c.arg(0), 960, 4);
    c.sys.writeInt(c.arg(0) + 4n, 540, 4);
    return true;
  }),
  // A message loop: nothing to deliver, the queue says WM_QUIT (GetMessage returns 0).
  ...ansiAndWide('GetMessage', 4, () => 0),
  ...ansiAndWide('PeekMessage', 5, () => false),
  TranslateMessage: stdcall(1, () => false),
  ...ansiAndWide('DispatchMessage', 1, () => 0),
  PostQuitMessage: stdcall(1, () => 0),
  ...ansiAndWide('RegisterClassEx', 1, () => 0xc0de),
  ...ansiAndWide('CreateWindowEx', 12, (c) => c.sys.open({ k: 'object', what: 'window', name: null })),
  DestroyWindow: stdcall(1, (c) => c.sys.handles.delete(c.arg(0))),
  ...ansiAndWide('DefWindowProc', 4, () => 0),
  wsprintfA: cdecl(2, (c) => {
    const text = formatC(
      c.str(1) ?? '',
      callArgs(c, 2),
      (a, wide) => c.sys.string(a, wide),
      c.sys.abi.pointer === 8 ? 64 : 32,
    );
    return c.sys.writeString(c.arg(0), text.slice(0, 1023));
  }),
};
