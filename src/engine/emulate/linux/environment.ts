// The world a Linux guest sees, all of it in memory: a file system seeded with plausible files, and a
// network that is never real — names resolve to documentation addresses (192.0.2.0/24, RFC 5737),
// connections are accepted and recorded, nothing leaves the process.

const HOST = 'workstation';
const SEEDED: Record<string, string> = {
  '/etc/hostname': `${HOST}\n`,
  '/etc/hosts': `127.0.0.1\tlocalhost\n127.0.1.1\t${HOST}\n`,
  '/etc/passwd':
    'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n' +
    'user:x:1000:1000:User,,,:/home/user:/bin/bash\n',
  '/etc/group': 'root:x:0:\nuser:x:1000:\n',
  '/etc/resolv.conf': 'nameserver 192.0.2.53\n',
  '/etc/os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n',
  '/home/user/.bashrc': '# ~/.bashrc\n',
  '/home/user/notes.txt': 'meeting at 10\n',
};

export class VirtualFile {
  data: Uint8Array;
  constructor(data: Uint8Array = new Uint8Array()) {
    this.data = data;
  }

  /** Writes `bytes` at `at`, growing the file. */
  write(at: number, bytes: Uint8Array): void {
    if (at + bytes.length > this.data.length) {
      const grown = new Uint8Array(at + bytes.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(bytes, at);
  }
}

/**
 * Reads a file of the CPU's system libraries (the dynamic loader, the C library) from a read-only sysroot
 * the host chose; null when it has none by that path.
 */
export type Sysroot = (path: string) => Uint8Array | null;

/**
 * Files by absolute path; directories are the prefixes of paths and those created. Below them, read-only,
 * the sysroot's library files: what the program's loader needs, not part of what it did.
 */
export class VirtualFs {
  readonly files = new Map<string, VirtualFile>();
  readonly directories = new Set<string>(['/', '/etc', '/home', '/home/user', '/tmp', '/dev', '/proc']);
  private readonly system = new Map<string, VirtualFile | null>();

  constructor(
    extra: ReadonlyMap<string, Uint8Array> = new Map(),
    private readonly sysroot: Sysroot = () => null,
  ) {
    for (const [p, text] of Object.entries(SEEDED)) this.files.set(p, new VirtualFile(new TextEncoder().encode(text)));
    for (const [p, bytes] of extra) this.files.set(normalise(p, '/'), new VirtualFile(bytes.slice()));
  }

  /** The file at `path`: the guest's, else the sysroot's. */
  get(path: string): VirtualFile | undefined {
    const own = this.files.get(path);
    if (own) return own;
    if (!this.system.has(path)) {
      const bytes = this.sysroot(path);
      this.system.set(path, bytes ? new VirtualFile(bytes) : null);
    }
    return this.system.get(path) ?? undefined;
  }

  /** A sysroot file (the loader's business: its opens and reads are not the program's behaviour). */
  isSystem(path: string): boolean {
    return !this.files.has(path) && !!this.system.get(path);
  }

  isDirectory(path: string): boolean {
    return this.directories.has(path) || [...this.files.keys()].some((f) => f.startsWith(`${path}/`));
  }
}

/** `path` made absolute against `cwd`, without `.`, `..` or repeated slashes (never above the root). */
export function normalise(path: string, cwd: string): string {
  const parts: string[] = [];
  for (const p of (path.startsWith('/') ? path : `${cwd}/${path}`).split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

/** The fake network: names to documentation addresses, one per name, handed out in order. */
export class FakeNetwork {
  private readonly names = new Map<string, string>();

  resolve(name: string): string {
    let a = this.names.get(name);
    if (!a) this.names.set(name, (a = `192.0.2.${10 + (this.names.size % 240)}`));
    return a;
  }

  /** The name an address was handed out for, if any. */
  nameOf(address: string): string | null {
    for (const [n, a] of this.names) if (a === address) return n;
    return null;
  }
}

/** The question name of a DNS query packet (RFC 1035 §4.1), or null. */
export function dnsQuestion(packet: Uint8Array): { id: number; name: string; end: number } | null {
  if (packet.length < 17) return null;
  const labels: string[] = [];
  let at = 12;
  for (let guard = 0; guard < 64; guard++) {
    const n = packet[at];
    if (n === undefined || n > 63) return null;
    at++;
    if (n === 0) break;
    labels.push(new TextDecoder().decode(packet.subarray(at, at + n)));
    at += n;
  }
  if (!labels.length || at + 4 > packet.length) return null;
  return { id: (packet[0]! << 8) | packet[1]!, name: labels.join('.'), end: at + 4 };
}

/** The answer to a DNS query: the question echoed with one A record of `address` (none for other types). */
export function dnsAnswer(query: Uint8Array, q: { end: number }, address: string): Uint8Array {
  const head = query.slice(0, q.end);
  const isA = head[q.end - 4] === 0 && head[q.end - 3] === 1;
  head[2] = 0x81;
  head[3] = 0x80;
  head.set([0, 1, 0, isA ? 1 : 0, 0, 0, 0, 0], 4);
  const ip = address.split('.').map(Number);
  const answer = isA ? [0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4, ...ip] : [];
  const out = new Uint8Array(head.length + answer.length);
  out.set(head);
  out.set(answer, head.length);
  return out;
}

/** The request line and Host of an HTTP request, or null when `data` does not start one. */
export function httpRequest(data: Uint8Array): { method: string; path: string; host: string | null } | null {
  const text = new TextDecoder().decode(data.subarray(0, 4096));
  const m = /^([A-Z]{3,7}) (\S+) HTTP\/1\.[01]\r?\n/.exec(text);
  if (!m) return null;
  const host = /\r?\nHost:\s*([^\r\n]+)/i.exec(text);
  return { method: m[1]!, path: m[2]!, host: host ? host[1]!.trim() : null };
}
