// advapi32: the registry (every key created, opened, set, queried or deleted is an event, named
// HIVE\key\value), services (which live in the registry), the user's name, privileges, security
// descriptors and the CryptoAPI's random numbers.
import { USER } from '../files.js';
import { REG, ROOTS } from '../registry.js';
import { ansiAndWide, ERROR, fail, stdcall, type ApiCall, type ApiTable } from './api.js';
import { randomBytes } from '../../random.js';

const SUCCESS = 0;
const CREATED_NEW_KEY = 1;
const OPENED_EXISTING_KEY = 2;

/** The predefined key `value` names: its handle is a 32-bit LONG, sign-extended in a 64-bit HKEY. */
const root = (value: bigint) => ROOTS.get(BigInt.asUintN(32, value)) ?? null;

/** The path of key handle argument `i` with `sub` below it, or null when the handle is not a key. */
function keyPath(c: ApiCall, i: number, sub: string | null): string | null {
  const h = c.sys.handles.get(c.arg(i));
  const base = h?.k === 'key' ? h.path : root(c.arg(i));
  if (base === null) return null;
  const rest = (sub ?? '').split('\\').filter(Boolean).join('\\');
  return rest ? `${base}\\${rest}` : base;
}

/** Value data as the program passed it, kept as the ANSI API would have stored it. */
function stored(type: number, data: Uint8Array, wide: boolean): Uint8Array {
  if (!wide || (type !== REG.SZ && type !== REG.EXPAND_SZ && type !== REG.MULTI_SZ)) return data;
  return Buffer.from(Buffer.from(data).toString('utf16le'), 'latin1');
}

/** A value's string form for the registry view: the text of a string, the number of a DWORD. */
function shown(type: number, data: Uint8Array): string {
  if (type === REG.SZ || type === REG.EXPAND_SZ) return Buffer.from(data).toString('latin1').split('\0')[0]!;
  if (type === REG.DWORD && data.length >= 4)
    return String(new DataView(data.buffer, data.byteOffset).getUint32(0, true));
  return Buffer.from(data.subarray(0, 64)).toString('hex');
}

function createKey(c: ApiCall, path: string | null, resultAt: bigint, dispositionAt: bigint): number {
  if (path === null) return ERROR.INVALID_HANDLE;
  const existed = c.sys.registry.has(path);
  const key = c.sys.registry.create(path);
  c.sys.record(existed ? 'registry-open' : 'registry-create', c.name, { path: key.path });
  c.sys.writePointer(resultAt, c.sys.open({ k: 'key', path: key.path }));
  if (dispositionAt) c.sys.writeInt(dispositionAt, existed ? OPENED_EXISTING_KEY : CREATED_NEW_KEY, 4);
  return SUCCESS;
}

function openKey(c: ApiCall, path: string | null, resultAt: bigint): number {
  if (path === null) return ERROR.INVALID_HANDLE;
  if (!c.sys.registry.has(path)) {
    c.sys.record('registry-open', c.name, { path, result: 'not found' });
    return ERROR.FILE_NOT_FOUND;
  }
  c.sys.record('registry-open', c.name, { path });
  c.sys.writePointer(resultAt, c.sys.open({ k: 'key', path: c.sys.registry.create(path).path }));
  return SUCCESS;
}

function setValue(c: ApiCall, wide: boolean, name: string, type: number, dataAt: bigint, size: number): number {
  const path = keyPath(c, 0, null);
  const raw = c.sys.bytes(dataAt, size);
  if (path === null || !raw) return ERROR.INVALID_HANDLE;
  const data = stored(type, raw, wide);
  c.sys.registry.set(path, { name, type, data });
  c.sys.record('registry-set', c.name, { path: `${path}\\${name}`, type, value: shown(type, data) });
  return SUCCESS;
}

function queryValue(c: ApiCall, wide: boolean): number {
  const path = keyPath(c, 0, null);
  const name = c.str(1, wide) ?? '';
  if (path === null) return ERROR.INVALID_HANDLE;
  const value = c.sys.registry.value(path, name);
  c.sys.record('registry-query', c.name, { path: `${path}\\${name}`, ...(value ? {} : { result: 'not found' }) });
  if (!value) return ERROR.FILE_NOT_FOUND;
  const text = value.type === REG.SZ || value.type === REG.EXPAND_SZ || value.type === REG.MULTI_SZ;
  const data = wide && text ? Buffer.from(Buffer.from(value.data).toString('latin1'), 'utf16le') : value.data;
  if (c.arg(3)) c.sys.writeInt(c.arg(3), value.type, 4);
  if (!c.arg(5)) return SUCCESS;
  const room = Number(c.sys.pointerAt(c.arg(5)) & 0xffff_ffffn);
  c.sys.writeInt(c.arg(5), data.length, 4);
  if (!c.arg(4)) return SUCCESS;
  if (room < data.length) return ERROR.MORE_DATA;
  c.sys.cpu.write(c.arg(4), data);
  return SUCCESS;
}

function deleteValue(c: ApiCall, wide: boolean): number {
  const path = keyPath(c, 0, null);
  const name = c.str(1, wide) ?? '';
  if (path === null) return ERROR.INVALID_HANDLE;
  c.sys.record('registry-delete', c.name, { path: `${path}\\${name}` });
  return c.sys.registry.deleteValue(path, name) ? SUCCESS : ERROR.FILE_NOT_FOUND;
}

export const ADVAPI32: ApiTable = {
  ...ansiAndWide('RegCreateKeyEx', 9, (c, wide) => createKey(c, keyPath(c, 0, c.str(1, wide)), c.arg(7), c.arg(8))),
  ...ansiAndWide('RegCreateKey', 3, (c, wide) => createKey(c, keyPath(c, 0, c.str(1, wide)), c.arg(2), 0n)),
  ...ansiAndWide('RegOpenKeyEx', 5, (c, wide) => openKey(c, keyPath(c, 0, c.str(1, wide)), c.arg(4))),
  ...ansiAndWide('RegOpenKey', 3, (c, wide) => openKey(c, keyPath(c, 0, c.str(1, wide)), c.arg(2))),
  ...ansiAndWide('RegSetValueEx', 6, (c, wide) =>
    setValue(c, wide, c.str(1, wide) ?? '', c.u32(3), c.arg(4), c.u32(5)),
  ),
  ...ansiAndWide('RegQueryValueEx', 6, queryValue),
  ...ansiAndWide('RegDeleteValue', 2, deleteValue),
  ...ansiAndWide('RegDeleteKey', 2, (c, wide) => {
    const path = keyPath(c, 0, c.str(1, wide));
    if (path === null) return ERROR.INVALID_HANDLE;
    c.sys.record('registry-delete', c.name, { path });
    return c.sys.registry.deleteKey(path) ? SUCCESS : ERROR.FILE_NOT_FOUND;
  }),
  RegCloseKey: stdcall(1, (c) =>
    c.sys.handles.delete(c.arg(0)) || root(c.arg(0)) !== null ? SUCCESS : ERROR.INVALID_HANDLE,
  ),
  RegFlushKey: stdcall(1, () => SUCCESS),
  ...ansiAndWide('GetUserName', 2, (c, wide) => {
    c.sys.libraryCall(c.name);
    const room = Number(c.sys.pointerAt(c.arg(1)) & 0xffff_ffffn);
    c.sys.writeInt(c.arg(1), USER.length + 1, 4);
    if (room <= USER.length) return fail(c, ERROR.INSUFFICIENT_BUFFER);
    c.sys.writeString(c.arg(0), USER, wide);
    return true;
  }),
  InitializeSecurityDescriptor: stdcall(2, (c) => {
    // SECURITY_DESCRIPTOR: revision 1, no control bits, no owner, group or lists.
    const sd = c.sys.struct([
      ['u8', 1],
      ['u8', 0],
      ['u16', 0],
      ['ptr', 0],
      ['ptr', 0],
      ['ptr', 0],
      ['ptr', 0],
    ]);
    c.sys.cpu.write(c.arg(0), sd);
    return true;
  }),
  SetSecurityDescriptorDacl: stdcall(4, () => true),
  OpenProcessToken: stdcall(3, (c) => {
    c.sys.writePointer(c.arg(2), c.sys.open({ k: 'object', what: 'token', name: null }));
    return true;
  }),
  ...ansiAndWide('LookupPrivilegeValue', 3, (c, wide) => {
    c.sys.libraryCall(c.name, { argument: c.str(1, wide) ?? '' });
    c.sys.writeInt(c.arg(2), 20, 8);
    return true;
  }),
  AdjustTokenPrivileges: stdcall(6, (c) => {
    c.sys.libraryCall(c.name);
    c.sys.lastError = 0;
    return true;
  }),
  ...ansiAndWide('OpenSCManager', 3, (c) => c.sys.open({ k: 'object', what: 'service manager', name: null })),
  ...ansiAndWide('CreateService', 13, (c, wide) => {
    // A service is its registry key: the image path and start type go there.
    const name = c.str(1, wide) ?? '';
    const path = `HKLM\\SYSTEM\\CurrentControlSet\\Services\\${name}`;
    c.sys.registry.create(path);
    c.sys.record('registry-create', c.name, { path });
    const image = c.str(7, wide) ?? '';
    c.sys.registry.set(path, { name: 'ImagePath', type: REG.EXPAND_SZ, data: Buffer.from(`${image}\0`, 'latin1') });
    c.sys.record('registry-set', c.name, { path: `${path}\\ImagePath`, type: REG.EXPAND_SZ, value: image });
    return c.sys.open({ k: 'object', what: 'service', name });
  }),
  ...ansiAndWide('OpenService', 3, (c, wide) => {
    const name = c.str(1, wide) ?? '';
    return c.sys.registry.has(`HKLM\\SYSTEM\\CurrentControlSet\\Services\\${name}`)
      ? c.sys.open({ k: 'object', what: 'service', name })
      : fail(c, 1060);
  }),
  ...ansiAndWide('StartService', 3, (c) => {
    const h = c.sys.handles.get(c.arg(0));
    c.sys.libraryCall(c.name, { argument: h?.k === 'object' ? (h.name ?? '') : '' });
    return true;
  }),
  CloseServiceHandle: stdcall(1, (c) => c.sys.handles.delete(c.arg(0))),
  ...ansiAndWide('CryptAcquireContext', 5, (c) => {
    c.sys.writePointer(c.arg(0), c.sys.open({ k: 'object', what: 'crypto provider', name: null }));
    return true;
  }),
  CryptReleaseContext: stdcall(2, (c) => c.sys.handles.delete(c.arg(0))),
  CryptGenRandom: stdcall(3, (c) => {
    const n = c.u32(1);
    if (n > c.sys.limits.allocation) return fail(c, ERROR.INVALID_PARAMETER);
    c.sys.cpu.write(c.arg(2), randomBytes(n, c.sys.ticks));
    return true;
  }),
};
