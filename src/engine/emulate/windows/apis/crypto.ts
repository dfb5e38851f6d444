// crypt32 and bcrypt: base64 both ways (what droppers decode payloads with), DPAPI (what stealers decrypt
// saved browser passwords with: refused here, the call kept), random numbers (deterministic: the same run
// draws the same bytes), and CNG's algorithm providers and keys — their encryption is not emulated: the
// output is the input, and the call is an event the behaviours read.
import { randomBytes } from '../../random.js';
import { ansiAndWide, ERROR, fail, stdcall, type ApiCall, type ApiTable } from './api.js';

const STATUS = { SUCCESS: 0, INVALID_HANDLE: 0xc000_0008, BUFFER_TOO_SMALL: 0xc000_0023 };
/** CRYPT_STRING_BASE64HEADER, BASE64, BASE64REQUESTHEADER, BASE64X509CRLHEADER: base64 in some dress. */
const BASE64_FORMS = new Set([0, 1, 3, 9]);
const CRYPT_STRING_NOCRLF = 0x4000_0000;

/** The bytes of a caller's buffer and its length argument, both at argument `i`. */
const input = (c: ApiCall, i: number) => c.sys.bytes(c.arg(i), c.u32(i + 1)) ?? new Uint8Array();

/** Writes `data` where the caller's buffer (argument `buffer`, size at pointer argument `sizeAt`) takes it. */
function output(c: ApiCall, data: Uint8Array, buffer: number, sizeAt: number): boolean {
  const room = Number(c.sys.pointerAt(c.arg(sizeAt)) & 0xffff_ffffn);
  c.sys.writeInt(c.arg(sizeAt), data.length, 4);
  if (!c.arg(buffer)) return true;
  if (room < data.length) return fail(c, ERROR.MORE_DATA) as boolean;
  c.sys.cpu.write(c.arg(buffer), data);
  return true;
}

function keyHandle(c: ApiCall, i: number): boolean {
  const h = c.sys.handles.get(c.arg(i));
  return h?.k === 'object' && (h.what === 'cng algorithm' || h.what === 'cng key');
}

export const CRYPT32: ApiTable = {
  ...ansiAndWide('CryptStringToBinary', 7, (c, wide) => {
    const length = c.u32(1);
    const text = (c.str(0, wide) ?? '').slice(0, length || undefined);
    if (!BASE64_FORMS.has(c.u32(2))) return fail(c, ERROR.INVALID_PARAMETER);
    const body = text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    c.sys.libraryCall(c.name, { bytes: String(body.length) });
    if (!output(c, Buffer.from(body, 'base64'), 3, 4)) return false;
    if (c.arg(6)) c.sys.writeInt(c.arg(6), 1, 4);
    return true;
  }),
  ...ansiAndWide('CryptBinaryToString', 5, (c, wide) => {
    const encoded = Buffer.from(input(c, 0)).toString('base64') + (c.u32(2) & CRYPT_STRING_NOCRLF ? '' : '\r\n');
    const room = Number(c.sys.pointerAt(c.arg(4)) & 0xffff_ffffn);
    if (!c.arg(3)) {
      c.sys.writeInt(c.arg(4), encoded.length + 1, 4);
      return true;
    }
    if (room <= encoded.length) return fail(c, ERROR.MORE_DATA);
    c.sys.writeString(c.arg(3), encoded, wide);
    c.sys.writeInt(c.arg(4), encoded.length, 4);
    return true;
  }),
  CryptUnprotectData: stdcall(7, (c) => {
    // No user key to decrypt with: the attempt is what matters.
    c.sys.libraryCall(c.name, { bytes: String(c.arg(0) ? Number(c.sys.pointerAt(c.arg(0)) & 0xffff_ffffn) : 0) });
    return fail(c, 0x8009_0005);
  }),
  CryptProtectData: stdcall(7, (c) => {
    c.sys.libraryCall(c.name);
    return fail(c, 0x8009_0005);
  }),
};

export const BCRYPT: ApiTable = {
  BCryptOpenAlgorithmProvider: stdcall(4, (c) => {
    const algorithm = c.str(1, true) ?? '';
    c.sys.libraryCall(c.name, { argument: algorithm });
    c.sys.writePointer(c.arg(0), c.sys.open({ k: 'object', what: 'cng algorithm', name: algorithm }));
    return STATUS.SUCCESS;
  }),
  BCryptCloseAlgorithmProvider: stdcall(2, (c) =>
    c.sys.handles.delete(c.arg(0)) ? STATUS.SUCCESS : STATUS.INVALID_HANDLE,
  ),
  BCryptGenRandom: stdcall(4, (c) => {
    const n = c.u32(2);
    if (n > c.sys.limits.allocation) return STATUS.BUFFER_TOO_SMALL;
    c.sys.cpu.write(c.arg(1), randomBytes(n, c.sys.ticks));
    return STATUS.SUCCESS;
  }),
  BCryptSetProperty: stdcall(5, (c) => (keyHandle(c, 0) ? STATUS.SUCCESS : STATUS.INVALID_HANDLE)),
  BCryptGenerateSymmetricKey: stdcall(7, (c) => {
    if (!keyHandle(c, 0)) return STATUS.INVALID_HANDLE;
    c.sys.libraryCall(c.name, { bytes: String(c.u32(5)) });
    c.sys.writePointer(c.arg(1), c.sys.open({ k: 'object', what: 'cng key', name: null }));
    return STATUS.SUCCESS;
  }),
  BCryptDestroyKey: stdcall(1, (c) => (c.sys.handles.delete(c.arg(0)) ? STATUS.SUCCESS : STATUS.INVALID_HANDLE)),
  // (key, input, length, padding, iv, iv length, output, room, &written, flags): the output is the input.
  BCryptEncrypt: stdcall(10, (c) => transform(c)),
  BCryptDecrypt: stdcall(10, (c) => transform(c)),
};

function transform(c: ApiCall): number {
  if (!keyHandle(c, 0)) return STATUS.INVALID_HANDLE;
  const data = input(c, 1);
  c.sys.libraryCall(c.name, { bytes: String(data.length) });
  c.sys.writeInt(c.arg(8), data.length, 4);
  if (!c.arg(6)) return STATUS.SUCCESS;
  if (c.u32(7) < data.length) return STATUS.BUFFER_TOO_SMALL;
  c.sys.cpu.write(c.arg(6), data);
  return STATUS.SUCCESS;
}
