// The world a Linux guest sees, all of it in memory: a file system seeded with plausible files, and a
// network that is never real — names resolve to documentation addresses (192.0.2.0/24, RFC 5737),
// connections are accepted and recorded, nothing leaves the process.
import { VirtualFile } from '../virtual-file.js';

const HOST = 'workstation';
/** Where the sample is on the disk (what /proc/self/exe names: a program copying itself finds it there). */
export const SAMPLE_PATH = '/home/user/sample';
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
