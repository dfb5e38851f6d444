// ws2_32, WinINet and urlmon over the fake network: names resolve to documentation addresses, connects are
// accepted, what is sent is read for HTTP requests, URL fetches are recorded as their DNS query and request
// with an empty response. Nothing leaves the process.
import { readSent } from '../../network.js';
import { COMPUTER, winPath } from '../files.js';
import type { Handle } from '../system.js';
import { ansiAndWide, ERROR, fail, stdcall, type ApiCall, type ApiTable } from './api.js';

const SOCKET_ERROR = -1;
/** A dotted-quad IPv4 address. */
const isIPv4 = (text: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(text) && text.split('.').every((o) => Number(o) < 256);
const AF_INET = 2;
/** Winsock errors (winerror.h). */
const WSA = { NOTSOCK: 10038, AFNOSUPPORT: 10047, NETUNREACH: 10051, HOST_NOT_FOUND: 11001 };

function socket(c: ApiCall, i: number): Extract<Handle, { k: 'socket' }> | null {
  const h = c.sys.handles.get(c.arg(i));
  if (h?.k === 'socket') return h;
  c.sys.lastError = WSA.NOTSOCK;
  return null;
}

/** The address a host name resolves to, recording the query (an address literal is no query). */
function resolve(c: ApiCall, host: string): string {
  if (isIPv4(host)) return host;
  const answer = c.sys.net.resolve(host);
  c.sys.record('dns-query', c.name, { host, answer });
  return answer;
}

const octets = (address: string) => address.split('.').map(Number);

/** sockaddr_in of `address`:`port`. */
function sockaddr(address: string, port: number): Uint8Array {
  return Uint8Array.of(AF_INET, 0, port >> 8, port & 0xff, ...octets(address), 0, 0, 0, 0, 0, 0, 0, 0);
}

/** What a program sent on a connected socket: the request or bytes, recorded; its length. */
function sendOn(c: ApiCall, s: Extract<Handle, { k: 'socket' }>, data: Uint8Array): number {
  if (!c.sys.wrote(data.length)) return SOCKET_ERROR;
  const sent = readSent(c.sys.net, s.peer ?? { address: 'unconnected', port: 0 }, data);
  c.sys.record(sent.kind, c.name, sent.detail);
  if (sent.reply) s.inbox.push(sent.reply);
  return data.length;
}

/** A request to `url` as a URL API makes it: the DNS query and the request, recorded; null for a bad URL. */
function fetchUrl(c: ApiCall, url: string, method: string): Extract<Handle, { k: 'internet' }> | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname;
  const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  resolve(c, host);
  const path = `${parsed.pathname}${parsed.search}`;
  c.sys.record('http-request', c.name, { method, host, path, port, url });
  return { k: 'internet', host, port, method, path, body: new Uint8Array(), pos: 0 };
}

function internet(c: ApiCall, i: number): Extract<Handle, { k: 'internet' }> | null {
  const h = c.sys.handles.get(c.arg(i));
  if (h?.k === 'internet') return h;
  c.sys.lastError = ERROR.INVALID_HANDLE;
  return null;
}

/** (handle, buffer, room, &read): the next bytes of the response body (empty: the fake network sends none). */
function readBody(c: ApiCall): boolean {
  const h = internet(c, 0);
  if (!h) return false;
  const data = h.body.subarray(h.pos, h.pos + c.u32(2));
  c.sys.cpu.write(c.arg(1), data);
  h.pos += data.length;
  if (c.arg(3)) c.sys.writeInt(c.arg(3), data.length, 4);
  return true;
}

export const WS2_32: ApiTable = {
  WSAStartup: stdcall(2, (c) => {
    // WSADATA: the version asked for, and the highest supported (2.2).
    c.sys.cpu.write(c.arg(1), Uint8Array.of(c.u32(0) & 0xff, c.u32(0) >> 8, 2, 2));
    return 0;
  }),
  WSACleanup: stdcall(0, () => 0),
  WSAGetLastError: stdcall(0, (c) => c.sys.lastError),
  socket: stdcall(3, (c) => {
    if (c.i32(0) !== AF_INET) return fail(c, WSA.AFNOSUPPORT, -1);
    return c.sys.open({ k: 'socket', peer: null, inbox: [] });
  }),
  closesocket: stdcall(1, (c) => (c.sys.handles.delete(c.arg(0)) ? 0 : fail(c, WSA.NOTSOCK, SOCKET_ERROR))),
  shutdown: stdcall(2, (c) => (socket(c, 0) ? 0 : SOCKET_ERROR)),
  connect: stdcall(3, (c) => {
    const s = socket(c, 0);
    const sa = c.sys.bytes(c.arg(1), 8);
    if (!s || !sa) return SOCKET_ERROR;
    if ((sa[0]! | (sa[1]! << 8)) !== AF_INET) return fail(c, WSA.NETUNREACH, SOCKET_ERROR);
    s.peer = { address: `${sa[4]}.${sa[5]}.${sa[6]}.${sa[7]}`, port: (sa[2]! << 8) | sa[3]! };
    c.sys.record('connect', c.name, { ...s.peer, host: c.sys.net.nameOf(s.peer.address) ?? s.peer.address });
    return 0;
  }),
  send: stdcall(4, (c) => {
    const s = socket(c, 0);
    const data = c.sys.bytes(c.arg(1), c.i32(2));
    return s && data ? sendOn(c, s, data) : SOCKET_ERROR;
  }),
  recv: stdcall(4, (c) => {
    const s = socket(c, 0);
    if (!s) return SOCKET_ERROR;
    const chunk = s.inbox.shift();
    if (!chunk) return 0;
    const n = Math.min(chunk.length, c.i32(2));
    c.sys.cpu.write(c.arg(1), chunk.subarray(0, n));
    if (n < chunk.length) s.inbox.unshift(chunk.subarray(n));
    return n;
  }),
  gethostname: stdcall(2, (c) => {
    c.sys.libraryCall('gethostname');
    if (c.i32(1) <= COMPUTER.length) return fail(c, 10014, SOCKET_ERROR);
    c.sys.writeString(c.arg(0), COMPUTER);
    return 0;
  }),
  gethostbyname: stdcall(1, (c) => {
    const name = c.str(0) ?? '';
    const address = resolve(c, name);
    // hostent: name, aliases, address type and length, address list.
    const w = BigInt(c.sys.abi.pointer);
    const ip = c.sys.alloc(c.name, 4);
    c.sys.cpu.write(ip, Uint8Array.from(octets(address)));
    const list = c.sys.alloc(c.name, 2 * Number(w));
    c.sys.writePointer(list, ip);
    const aliases = c.sys.alloc(c.name, Number(w));
    const fields = c.sys.struct([
      ['ptr', c.sys.heapString(name)],
      ['ptr', aliases],
      ['u16', AF_INET],
      ['u16', 4],
      ['ptr', list],
    ]);
    const hostent = c.sys.alloc(c.name, fields.length);
    c.sys.cpu.write(hostent, fields);
    return hostent;
  }),
  getaddrinfo: stdcall(4, (c) => {
    const name = c.str(0) ?? '';
    const port = Number.parseInt(c.str(1) ?? '0', 10) || 0;
    const address = resolve(c, name);
    // addrinfo: flags, family, socket type, protocol, address length, canonical name, address, next.
    const sa = c.sys.alloc(c.name, 16);
    c.sys.cpu.write(sa, sockaddr(address, port));
    const fields = c.sys.struct([
      ['u32', 0],
      ['u32', AF_INET],
      ['u32', 1],
      ['u32', 6],
      ['ptr', 16],
      ['ptr', 0],
      ['ptr', sa],
      ['ptr', 0],
    ]);
    const ai = c.sys.alloc(c.name, fields.length);
    c.sys.cpu.write(ai, fields);
    c.sys.writePointer(c.arg(3), ai);
    return 0;
  }),
  freeaddrinfo: stdcall(1, () => 0),
  htons: stdcall(1, (c) => ((c.u32(0) & 0xff) << 8) | ((c.u32(0) >> 8) & 0xff)),
  ntohs: stdcall(1, (c) => ((c.u32(0) & 0xff) << 8) | ((c.u32(0) >> 8) & 0xff)),
  htonl: stdcall(1, (c) => Buffer.from(Uint32Array.of(c.u32(0)).buffer).readUInt32BE(0)),
  ntohl: stdcall(1, (c) => Buffer.from(Uint32Array.of(c.u32(0)).buffer).readUInt32BE(0)),
  inet_addr: stdcall(1, (c) => {
    const text = c.str(0) ?? '';
    return isIPv4(text) ? Buffer.from(octets(text)).readUInt32LE(0) : 0xffff_ffff;
  }),
  inet_pton: stdcall(3, (c) => {
    const text = c.str(1) ?? '';
    if (c.i32(0) !== AF_INET) return fail(c, WSA.AFNOSUPPORT, -1);
    if (!isIPv4(text)) return 0;
    c.sys.cpu.write(c.arg(2), Uint8Array.from(octets(text)));
    return 1;
  }),
};

export const WININET: ApiTable = {
  ...ansiAndWide('InternetOpen', 5, (c) =>
    c.sys.open({ k: 'internet', host: null, port: 0, method: '', path: '', body: new Uint8Array(), pos: 0 }),
  ),
  ...ansiAndWide('InternetOpenUrl', 6, (c, wide) => {
    const h = fetchUrl(c, c.str(1, wide) ?? '', 'GET');
    return h ? c.sys.open(h) : fail(c, 12006);
  }),
  ...ansiAndWide('InternetConnect', 8, (c, wide) => {
    const host = c.str(1, wide) ?? '';
    resolve(c, host);
    return c.sys.open({
      k: 'internet',
      host,
      port: c.u32(2) || 80,
      method: '',
      path: '',
      body: new Uint8Array(),
      pos: 0,
    });
  }),
  ...ansiAndWide('HttpOpenRequest', 8, (c, wide) => {
    const connection = internet(c, 0);
    if (!connection) return 0;
    const method = c.str(1, wide) ?? 'GET';
    return c.sys.open({ ...connection, method, path: c.str(2, wide) ?? '/', body: new Uint8Array(), pos: 0 });
  }),
  ...ansiAndWide('HttpSendRequest', 5, (c) => {
    const request = internet(c, 0);
    if (!request) return false;
    c.sys.record('http-request', c.name, {
      method: request.method,
      host: request.host ?? '',
      path: request.path,
      port: request.port,
    });
    return true;
  }),
  InternetReadFile: stdcall(4, (c) => readBody(c)),
  InternetCloseHandle: stdcall(1, (c) => c.sys.handles.delete(c.arg(0))),
};

const emptySession = { host: null, port: 0, method: '', path: '', body: new Uint8Array(), pos: 0 };

export const WINHTTP: ApiTable = {
  WinHttpOpen: stdcall(5, (c) => c.sys.open({ k: 'internet', ...emptySession, body: new Uint8Array() })),
  WinHttpConnect: stdcall(4, (c) =>
    c.sys.open({
      k: 'internet',
      ...emptySession,
      body: new Uint8Array(),
      host: c.str(1, true) ?? '',
      port: c.u32(2) || 443,
    }),
  ),
  WinHttpOpenRequest: stdcall(7, (c) => {
    const connection = internet(c, 0);
    if (!connection) return 0;
    return c.sys.open({
      ...connection,
      method: c.str(1, true) ?? 'GET',
      path: c.str(2, true) ?? '/',
      body: new Uint8Array(),
      pos: 0,
    });
  }),
  WinHttpSendRequest: stdcall(7, (c) => {
    const request = internet(c, 0);
    if (!request) return false;
    const host = request.host ?? '';
    resolve(c, host);
    c.sys.record('http-request', c.name, { method: request.method, host, path: request.path, port: request.port });
    return true;
  }),
  WinHttpReceiveResponse: stdcall(2, (c) => internet(c, 0) !== null),
  WinHttpQueryDataAvailable: stdcall(2, (c) => {
    const h = internet(c, 0);
    if (!h) return false;
    if (c.arg(1)) c.sys.writeInt(c.arg(1), h.body.length - h.pos, 4);
    return true;
  }),
  WinHttpReadData: stdcall(4, (c) => readBody(c)),
  WinHttpCloseHandle: stdcall(1, (c) => c.sys.handles.delete(c.arg(0))),
};

export const URLMON: ApiTable = {
  ...ansiAndWide('URLDownloadToFile', 5, (c, wide) => {
    if (!fetchUrl(c, c.str(1, wide) ?? '', 'GET')) return 0x800c_0005;
    // The download arrives empty; the file it lands in is what the program asked for.
    const path = winPath(c.str(2, wide) ?? '');
    c.sys.fs.put(path);
    c.sys.record('file-write', c.name, { path, bytes: 0 });
    return 0;
  }),
};
