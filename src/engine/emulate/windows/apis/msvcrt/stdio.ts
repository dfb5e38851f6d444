// msvcrt's stdio over kernel32's handles: fopen opens as CreateFile does (the same events), streams read and
// write the virtual disk or the console, and the printf family formats here (printf.ts).
import { formatC, type VarArgs } from '../../printf.js';
import type { WinSystem } from '../../system.js';
import { cdecl, type ApiCall, type ApiTable } from '../api.js';
import { openFile, readHandle, writeHandle } from '../kernel32/files.js';
import { callArgs, crtOf, listArgs, type Stream } from './crt.js';

const EOF = -1;
const ENOENT = 2;
const EBADF = 9;
/** CreateFile's access and disposition for each fopen mode. */
const GENERIC_READ = 0x8000_0000;
const GENERIC_WRITE = 0x4000_0000;
const MODES: Record<string, [number, number]> = {
  r: [GENERIC_READ, 3],
  w: [GENERIC_WRITE, 2],
  a: [GENERIC_WRITE, 4],
  'r+': [GENERIC_READ | GENERIC_WRITE, 3],
  'w+': [GENERIC_READ | GENERIC_WRITE, 2],
  'a+': [GENERIC_READ | GENERIC_WRITE, 4],
};

export function stream(c: ApiCall, i: number): Stream | null {
  const s = crtOf(c.sys).streams.get(c.arg(i)) ?? null;
  if (!s) crtOf(c.sys).setErrno(EBADF);
  return s;
}

export function put(c: ApiCall, s: Stream | null, text: string): number {
  if (!s) return EOF;
  const bytes = Buffer.from(text, 'latin1');
  const at = c.sys.alloc(c.name, bytes.length);
  if (!at) return EOF;
  c.sys.cpu.write(at, bytes);
  const n = writeHandle(c.sys, c.name, c.sys.handles.get(s.handle), at, bytes.length);
  c.sys.heap.release(at);
  return n === null ? EOF : n;
}

export const format = (sys: WinSystem, fmt: bigint, args: VarArgs) =>
  formatC(sys.string(fmt) ?? '', args, (a, wide) => sys.string(a, wide), sys.abi.pointer === 8 ? 64 : 32);

/** A formatted string into a caller's buffer at `at` of `room` bytes (null: no bound), as sprintf and _snprintf. */
export function printInto(c: ApiCall, at: bigint, room: number | null, text: string): number {
  if (room !== null && room <= 0) return room === 0 ? (text.length ? -1 : 0) : -1;
  const fits = room === null || text.length < room;
  c.sys.cpu.write(at, Buffer.from(fits ? `${text}\0` : text.slice(0, room!), 'latin1'));
  return fits ? text.length : -1;
}

export const STDIO: ApiTable = {
  __iob_func: cdecl(0, (c) => crtOf(c.sys).iob),
  _iob: { data: (sys) => crtOf(sys).iob },
  fopen: cdecl(2, (c) => {
    const mode = (c.str(1) ?? 'r').replace(/[btcnNSRTD]|ccs=.*/g, '');
    const [access, disposition] = MODES[mode] ?? MODES.r!;
    const handle = openFile(c.sys, c.name, c.str(0) ?? '', access, disposition);
    if (handle === null) {
      crtOf(c.sys).setErrno(ENOENT);
      return 0;
    }
    const h = c.sys.handles.get(handle);
    if (h?.k === 'file' && mode.startsWith('a')) h.pos = h.file.data.length;
    return crtOf(c.sys).stream(handle);
  }),
  fclose: cdecl(1, (c) => {
    const crt = crtOf(c.sys);
    const s = stream(c, 0);
    if (!s) return EOF;
    crt.streams.delete(c.arg(0));
    c.sys.handles.delete(s.handle);
    return 0;
  }),
  fread: cdecl(4, (c) => {
    const s = stream(c, 3);
    const size = Number(c.arg(1));
    const total = size * Number(c.arg(2));
    if (!s || total <= 0) return 0;
    const n = readHandle(c.sys, c.name, c.sys.handles.get(s.handle), c.arg(0), total) ?? 0;
    if (n < total) s.eof = true;
    return Math.floor(n / size);
  }),
  fwrite: cdecl(4, (c) => {
    const s = stream(c, 3);
    const size = Number(c.arg(1));
    const total = size * Number(c.arg(2));
    if (!s || total <= 0) return 0;
    return Math.floor((writeHandle(c.sys, c.name, c.sys.handles.get(s.handle), c.arg(0), total) ?? 0) / size);
  }),
  fputc: cdecl(2, (c) => (put(c, stream(c, 1), String.fromCharCode(c.u32(0) & 0xff)) === 1 ? c.u32(0) & 0xff : EOF)),
  fputs: cdecl(2, (c) => (put(c, stream(c, 1), c.str(0) ?? '') < 0 ? EOF : 0)),
  puts: cdecl(1, (c) => (put(c, crtOf(c.sys).standard(1), `${c.str(0) ?? ''}\n`) < 0 ? EOF : 0)),
  fprintf: cdecl(2, (c) => put(c, stream(c, 0), format(c.sys, c.arg(1), callArgs(c, 2)))),
  vfprintf: cdecl(3, (c) => put(c, stream(c, 0), format(c.sys, c.arg(1), listArgs(c.sys, c.arg(2))))),
  printf: cdecl(1, (c) => put(c, crtOf(c.sys).standard(1), format(c.sys, c.arg(0), callArgs(c, 1)))),
  vprintf: cdecl(2, (c) => put(c, crtOf(c.sys).standard(1), format(c.sys, c.arg(0), listArgs(c.sys, c.arg(1))))),
  sprintf: cdecl(2, (c) => printInto(c, c.arg(0), null, format(c.sys, c.arg(1), callArgs(c, 2)))),
  _snprintf: cdecl(3, (c) => printInto(c, c.arg(0), Number(c.arg(1)), format(c.sys, c.arg(2), callArgs(c, 3)))),
  _vsnprintf: cdecl(4, (c) =>
    printInto(c, c.arg(0), Number(c.arg(1)), format(c.sys, c.arg(2), listArgs(c.sys, c.arg(3)))),
  ),
  fflush: cdecl(1, () => 0),
  feof: cdecl(1, (c) => (stream(c, 0)?.eof ? 1 : 0)),
  ferror: cdecl(1, () => 0),
  fseek: cdecl(3, (c) => {
    const s = stream(c, 0);
    const h = s && c.sys.handles.get(s.handle);
    if (h?.k !== 'file') return -1;
    const from = [0, h.pos, h.file.data.length][c.u32(2)] ?? 0;
    const to = from + c.i32(1);
    if (to < 0) return -1;
    h.pos = to;
    s!.eof = false;
    return 0;
  }),
  ftell: cdecl(1, (c) => {
    const s = stream(c, 0);
    const h = s && c.sys.handles.get(s.handle);
    return h?.k === 'file' ? h.pos : -1;
  }),
  fgets: cdecl(3, (c) => {
    const s = stream(c, 2);
    const h = s && c.sys.handles.get(s.handle);
    if (h?.k !== 'file' || c.i32(1) <= 1 || h.pos >= h.file.data.length) return 0;
    const rest = h.file.data.subarray(h.pos, h.pos + c.i32(1) - 1);
    const newline = rest.indexOf(10);
    const line = newline < 0 ? rest : rest.subarray(0, newline + 1);
    c.sys.cpu.write(c.arg(0), Buffer.concat([line, Buffer.of(0)]));
    h.pos += line.length;
    c.sys.record('file-read', c.name, { path: h.path, bytes: line.length });
    return c.arg(0);
  }),
  fgetc: cdecl(1, (c) => {
    const s = stream(c, 0);
    const h = s && c.sys.handles.get(s.handle);
    if (h?.k !== 'file' || h.pos >= h.file.data.length) return EOF;
    return h.file.data[h.pos++]!;
  }),
  perror: cdecl(1, (c) => {
    const stderr = crtOf(c.sys).standard(2);
    const errno = Number(c.sys.bytes(crtOf(c.sys).errno, 4)?.[0] ?? 0);
    put(c, stderr, `${c.str(0) ? `${c.str(0)}: ` : ''}${message(errno)}\n`);
    return 0;
  }),
  strerror: cdecl(1, (c) => crtOf(c.sys).constant(message(c.i32(0)))),
};

/** strerror's text for the errno values a sample is likely to meet. */
function message(errno: number): string {
  const known: Record<number, string> = {
    0: 'No error',
    2: 'No such file or directory',
    9: 'Bad file descriptor',
    12: 'Not enough space',
    13: 'Permission denied',
    17: 'File exists',
    22: 'Invalid argument',
  };
  return known[errno] ?? 'Unknown error';
}
