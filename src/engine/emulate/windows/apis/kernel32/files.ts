// kernel32's files: CreateFile and the handle calls on a file, attributes, paths, file mappings. Every
// handle reads and writes the virtual disk; each open, read, write and delete is an event.
import { PROFILE, winPath } from '../../files.js';
import type { Handle, WinSystem } from '../../system.js';
import { ansiAndWide, bufferResult, ERROR, fail, stdcall, type ApiCall, type ApiTable } from '../api.js';
import { fileTime } from './system.js';

const INVALID_HANDLE = -1;
const INVALID_ATTRIBUTES = 0xffff_ffff;
const ATTRIBUTE = { DIRECTORY: 0x10, NORMAL: 0x80 };
/** Access rights that write (winnt.h): GENERIC_WRITE, GENERIC_ALL, FILE_WRITE_DATA, FILE_APPEND_DATA. */
const WRITES = 0x4000_0000 | 0x1000_0000 | 0x2 | 0x4;
const DISPOSITION = { CREATE_NEW: 1, CREATE_ALWAYS: 2, OPEN_EXISTING: 3, OPEN_ALWAYS: 4, TRUNCATE_EXISTING: 5 };
/** Console device names CreateFile opens as the console. */
const CONSOLE: Record<string, number> = { conin$: 0, conout$: 1 };

/** The file behind handle argument `i`, or null (last error set). */
export function fileHandle(c: ApiCall, i: number): Extract<Handle, { k: 'file' }> | null {
  const h = c.sys.handles.get(c.arg(i));
  if (h?.k === 'file') return h;
  c.sys.lastError = ERROR.INVALID_HANDLE;
  return null;
}

/** Opens `path` as CreateFile's `disposition` asks: the handle, or null with the last error set. */
export function openFile(
  sys: WinSystem,
  api: string,
  name: string,
  access: number,
  disposition: number,
): bigint | null {
  const path = winPath(name);
  let file = sys.fs.get(path);
  const mode = access & WRITES ? 'write' : 'read';
  const refuse = (error: number) => {
    sys.record('file-open', api, { path, mode, result: error === ERROR.FILE_NOT_FOUND ? 'not found' : 'exists' });
    sys.lastError = error;
    return null;
  };
  if (!file && (disposition === DISPOSITION.OPEN_EXISTING || disposition === DISPOSITION.TRUNCATE_EXISTING))
    return sys.fs.isDirectory(path)
      ? sys.open({ k: 'object', what: 'directory', name: path })
      : refuse(ERROR.FILE_NOT_FOUND);
  if (file && disposition === DISPOSITION.CREATE_NEW) return refuse(ERROR.FILE_EXISTS);
  sys.lastError =
    file && (disposition === DISPOSITION.CREATE_ALWAYS || disposition === DISPOSITION.OPEN_ALWAYS)
      ? ERROR.ALREADY_EXISTS
      : 0;
  if (!file) file = sys.fs.put(path);
  else if (disposition === DISPOSITION.CREATE_ALWAYS || disposition === DISPOSITION.TRUNCATE_EXISTING)
    file.data = new Uint8Array();
  sys.record('file-open', api, { path, mode });
  return sys.open({ k: 'file', path, file, pos: 0, writable: mode === 'write' });
}

/** Reads up to `count` bytes of handle `h` into `buffer`: the bytes read, or null when it cannot be read. */
export function readHandle(
  sys: WinSystem,
  api: string,
  h: Handle | undefined,
  buffer: bigint,
  count: number,
): number | null {
  if (h?.k === 'console') return 0;
  if (h?.k !== 'file') return null;
  const data = h.file.data.subarray(h.pos, h.pos + Math.min(count, sys.limits.allocation));
  sys.cpu.write(buffer, data);
  h.pos += data.length;
  sys.record('file-read', api, { path: h.path, bytes: data.length });
  return data.length;
}

/** Writes `count` bytes at `buffer` to handle `h`: the bytes written, or null when it cannot be written. */
export function writeHandle(
  sys: WinSystem,
  api: string,
  h: Handle | undefined,
  buffer: bigint,
  count: number,
): number | null {
  const data = sys.bytes(buffer, count);
  if (!data) return null;
  if (h?.k === 'console') {
    if (sys.wrote(data.length)) sys.output.push(data.slice());
    return data.length;
  }
  if (h?.k !== 'file' || !h.writable) return null;
  if (!sys.wrote(data.length)) return 0;
  h.file.write(h.pos, data);
  // Views of the file see the write at once (LMDB reads its pages through one).
  for (const v of sys.views.filter((v) => v.file === h.file)) {
    const from = Math.max(h.pos, v.offset);
    const to = Math.min(h.pos + data.length, v.offset + v.size);
    if (from < to) sys.cpu.write(v.at + BigInt(from - v.offset), data.subarray(from - h.pos, to - h.pos));
  }
  h.pos += data.length;
  sys.record('file-write', api, { path: h.path, bytes: data.length });
  return data.length;
}

function attributes(c: ApiCall, path: string, api: string): number {
  c.sys.record('file-access', api, { path });
  if (c.sys.fs.get(path)) return ATTRIBUTE.NORMAL;
  if (c.sys.fs.isDirectory(path)) return ATTRIBUTE.DIRECTORY;
  c.sys.lastError = ERROR.FILE_NOT_FOUND;
  return INVALID_ATTRIBUTES;
}

export const FILES: ApiTable = {
  ...ansiAndWide('CreateFile', 7, (c, wide) => {
    const name = c.str(0, wide) ?? '';
    if (name.toLowerCase() in CONSOLE) return c.sys.open({ k: 'console', n: CONSOLE[name.toLowerCase()]! });
    return openFile(c.sys, c.name, name, c.u32(1), c.u32(4)) ?? INVALID_HANDLE;
  }),
  ReadFile: stdcall(5, (c) => {
    seekOverlapped(c, 4);
    const n = readHandle(c.sys, c.name, c.sys.handles.get(c.arg(0)), c.arg(1), c.u32(2));
    if (n === null) return fail(c, ERROR.INVALID_HANDLE);
    if (c.arg(3)) c.sys.writeInt(c.arg(3), n, 4);
    return true;
  }),
  WriteFile: stdcall(5, (c) => {
    seekOverlapped(c, 4);
    const n = writeHandle(c.sys, c.name, c.sys.handles.get(c.arg(0)), c.arg(1), c.u32(2));
    if (n === null) return fail(c, ERROR.ACCESS_DENIED);
    if (c.arg(3)) c.sys.writeInt(c.arg(3), n, 4);
    return true;
  }),
  GetFileSize: stdcall(2, (c) => {
    const f = fileHandle(c, 0);
    if (!f) return INVALID_ATTRIBUTES;
    if (c.arg(1)) c.sys.writeInt(c.arg(1), 0, 4);
    return f.file.data.length;
  }),
  GetFileSizeEx: stdcall(2, (c) => {
    const f = fileHandle(c, 0);
    if (!f) return false;
    c.sys.writeInt(c.arg(1), f.file.data.length, 8);
    return true;
  }),
  SetFilePointer: stdcall(4, (c) => {
    const f = fileHandle(c, 0);
    if (!f) return INVALID_ATTRIBUTES;
    const high = c.arg(2)
      ? BigInt.asIntN(32, BigInt(c.sys.pointerAt(c.arg(2)) & 0xffff_ffffn))
      : c.i32(1) < 0
        ? -1n
        : 0n;
    const distance = Number((high << 32n) | BigInt(c.u32(1)));
    const from = [0, f.pos, f.file.data.length][c.u32(3)] ?? 0;
    if (from + distance < 0) return fail(c, ERROR.INVALID_PARAMETER, INVALID_ATTRIBUTES);
    f.pos = from + distance;
    if (c.arg(2)) c.sys.writeInt(c.arg(2), Math.floor(f.pos / 2 ** 32), 4);
    return f.pos % 2 ** 32;
  }),
  SetEndOfFile: stdcall(1, (c) => {
    const f = fileHandle(c, 0);
    if (!f || !f.writable) return false;
    const data = new Uint8Array(f.pos);
    data.set(f.file.data.subarray(0, f.pos));
    f.file.data = data;
    return true;
  }),
  FlushFileBuffers: stdcall(1, (c) => fileHandle(c, 0) !== null),
  LockFile: stdcall(5, (c) => fileHandle(c, 0) !== null),
  UnlockFile: stdcall(5, (c) => fileHandle(c, 0) !== null),
  LockFileEx: stdcall(6, (c) => fileHandle(c, 0) !== null),
  UnlockFileEx: stdcall(5, (c) => fileHandle(c, 0) !== null),
  GetFileInformationByHandle: stdcall(2, (c) => {
    const f = fileHandle(c, 0);
    if (!f) return false;
    // BY_HANDLE_FILE_INFORMATION: attributes, three FILETIMEs, volume serial, size high/low, links, index.
    const info = new DataView(new ArrayBuffer(52));
    info.setUint32(0, ATTRIBUTE.NORMAL, true);
    for (const at of [4, 12, 20]) info.setBigUint64(at, fileTime(c.sys.now()), true);
    info.setUint32(28, 0x5a3c_19e2, true);
    info.setUint32(36, f.file.data.length, true);
    info.setUint32(40, 1, true);
    c.sys.cpu.write(c.arg(1), new Uint8Array(info.buffer));
    return true;
  }),
  ...ansiAndWide('GetFileAttributes', 1, (c, wide) => attributes(c, winPath(c.str(0, wide) ?? ''), c.name)),
  ...ansiAndWide('GetFileAttributesEx', 3, (c, wide) => {
    const path = winPath(c.str(0, wide) ?? '');
    const attrs = attributes(c, path, c.name);
    if (attrs === INVALID_ATTRIBUTES) return false;
    // WIN32_FILE_ATTRIBUTE_DATA: attributes, three FILETIMEs, size high/low.
    const data = new DataView(new ArrayBuffer(36));
    data.setUint32(0, attrs, true);
    for (const at of [4, 12, 20]) data.setBigUint64(at, fileTime(c.sys.now()), true);
    data.setUint32(32, c.sys.fs.get(path)?.data.length ?? 0, true);
    c.sys.cpu.write(c.arg(2), new Uint8Array(data.buffer));
    return true;
  }),
  ...ansiAndWide('DeleteFile', 1, (c, wide) => {
    const path = winPath(c.str(0, wide) ?? '');
    c.sys.record('file-delete', c.name, { path });
    return c.sys.fs.delete(path) || fail(c, ERROR.FILE_NOT_FOUND);
  }),
  ...ansiAndWide('MoveFile', 2, (c, wide) => {
    const from = winPath(c.str(0, wide) ?? '');
    const to = winPath(c.str(1, wide) ?? '');
    const file = c.sys.fs.get(from);
    if (!file) return fail(c, ERROR.FILE_NOT_FOUND);
    c.sys.record('file-rename', c.name, { path: from, to });
    c.sys.fs.put(to, file.data);
    c.sys.fs.delete(from);
    return true;
  }),
  ...ansiAndWide('CopyFile', 3, (c, wide) => {
    const from = winPath(c.str(0, wide) ?? '');
    const to = winPath(c.str(1, wide) ?? '');
    const file = c.sys.fs.get(from);
    if (!file) return fail(c, ERROR.FILE_NOT_FOUND);
    if (c.u32(2) && c.sys.fs.get(to)) return fail(c, ERROR.FILE_EXISTS);
    c.sys.record('file-read', c.name, { path: from, bytes: file.data.length });
    c.sys.record('file-write', c.name, { path: to, bytes: file.data.length });
    c.sys.fs.put(to, file.data.slice());
    return true;
  }),
  ...ansiAndWide('CreateDirectory', 2, (c, wide) => {
    const path = winPath(c.str(0, wide) ?? '');
    c.sys.record('directory-create', c.name, { path });
    c.sys.fs.mkdir(path);
    return true;
  }),
  ...ansiAndWide('GetFullPathName', 4, (c, wide) => {
    const full = winPath(c.str(0, wide) ?? '');
    const n = bufferResult(c, c.arg(2), c.u32(1), full, wide);
    if (c.arg(3) && n < c.u32(1)) {
      const name = full.lastIndexOf('\\') + 1;
      c.sys.writePointer(c.arg(3), c.arg(2) + BigInt(name * (wide ? 2 : 1)));
    }
    return n;
  }),
  ...ansiAndWide('GetTempPath', 2, (c, wide) =>
    bufferResult(c, c.arg(1), c.u32(0), `${PROFILE}\\AppData\\Local\\Temp\\`, wide),
  ),
  ...ansiAndWide('GetDiskFreeSpace', 5, (c) => {
    // 8 sectors of 512 bytes per cluster; 12 of 60 million clusters free (about 50 of 250 GB).
    [8, 512, 12_000_000, 60_000_000].forEach((v, i) => c.arg(i + 1) && c.sys.writeInt(c.arg(i + 1), v, 4));
    return true;
  }),
  ...ansiAndWide('CreateFileMapping', 6, (c) => {
    const h = c.sys.handles.get(c.arg(0));
    const file = h?.k === 'file' ? h.file : null;
    const size = Number((BigInt(c.u32(3)) << 32n) | BigInt(c.u32(4))) || (file?.data.length ?? 0);
    if (!size) return fail(c, ERROR.INVALID_PARAMETER);
    return c.sys.open({ k: 'mapping', file, size });
  }),
  MapViewOfFile: stdcall(5, (c) => mapView(c)),
  MapViewOfFileEx: stdcall(6, (c) => mapView(c)),
  UnmapViewOfFile: stdcall(1, (c) => {
    const i = c.sys.views.findIndex((v) => v.at === c.arg(0));
    if (i < 0) return fail(c, ERROR.INVALID_PARAMETER);
    flushView(c, c.sys.views[i]!);
    c.sys.views.splice(i, 1);
    return c.sys.heap.release(c.arg(0));
  }),
  FlushViewOfFile: stdcall(2, (c) => {
    const v = c.sys.views.find((v) => c.arg(0) >= v.at && c.arg(0) < v.at + BigInt(v.size));
    if (v) flushView(c, v);
    return true;
  }),
};

/** An OVERLAPPED argument `i` gives the offset of the read or write (after two pointer-sized fields). */
function seekOverlapped(c: ApiCall, i: number): void {
  const h = c.sys.handles.get(c.arg(0));
  if (!c.arg(i) || h?.k !== 'file') return;
  const at = c.sys.bytes(c.arg(i) + BigInt(2 * c.sys.abi.pointer), 8);
  if (at) h.pos = Number(new DataView(at.buffer).getBigUint64(0, true));
}

/** What the program wrote in a view, into its file (the part of the view the file has). */
function flushView(c: ApiCall, v: WinSystem['views'][number]): void {
  const length = Math.min(v.size, v.file.data.length - v.offset);
  const bytes = length > 0 ? c.sys.cpu.read(v.at, length) : null;
  if (bytes) v.file.data.set(bytes, v.offset);
}

/** A view of a mapping: the file's bytes from the offset asked, kept the same as the file both ways. */
function mapView(c: ApiCall): bigint | number {
  const h = c.sys.handles.get(c.arg(0));
  if (h?.k !== 'mapping') return fail(c, ERROR.INVALID_HANDLE) as number;
  const offset = Number((BigInt(c.u32(2)) << 32n) | BigInt(c.u32(3)));
  const size = Number(c.arg(4)) || h.size - offset;
  if (size <= 0 || size > c.sys.limits.allocation) return fail(c, ERROR.NOT_ENOUGH_MEMORY) as number;
  const at = c.sys.alloc(c.name, size);
  if (at && h.file) {
    c.sys.cpu.write(at, h.file.data.subarray(offset, offset + size));
    c.sys.views.push({ at, file: h.file, offset, size });
  }
  return at;
}
