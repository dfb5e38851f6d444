// The disk a Windows guest sees, all of it in memory: paths are case-insensitive, either slash separates,
// relative ones start at the user's profile; seeded with what a lived-in machine has where samples look.
import { VirtualFile } from '../virtual-file.js';

export const USER = 'user';
export const COMPUTER = 'WORKSTATION';
export const PROFILE = `C:\\Users\\${USER}`;

const SEEDED: Record<string, string> = {
  'C:\\Windows\\System32\\drivers\\etc\\hosts': '127.0.0.1 localhost\r\n::1 localhost\r\n',
  'C:\\Windows\\win.ini': '; for 16-bit app support\r\n[fonts]\r\n[extensions]\r\n',
  'C:\\Windows\\System32\\notepad.exe': 'MZ',
  'C:\\Windows\\System32\\cmd.exe': 'MZ',
  [`${PROFILE}\\Documents\\budget.xlsx`]: 'PK\u0003\u0004',
  [`${PROFILE}\\Desktop\\passwords.txt`]: 'mail: hunter2\r\n',
};

/** `path` absolute, with backslashes, without `.`, `..` or repeated separators (never above the drive). */
export function winPath(path: string, cwd = PROFILE): string {
  const p = path.replace(/\//g, '\\').replace(/^\\\\\?\\/, '');
  const full = /^[a-zA-Z]:\\/.test(p) ? p : p.startsWith('\\') ? `C:${p}` : `${cwd}\\${p}`;
  const parts: string[] = [];
  for (const part of full.slice(3).split('\\')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `${full.slice(0, 2).toUpperCase()}\\${parts.join('\\')}`;
}

/** Files by path as first written; looked up without regard to case. */
export class WinFs {
  private readonly byKey = new Map<string, { path: string; file: VirtualFile }>();
  private readonly directories = new Set<string>();

  constructor(extra: ReadonlyMap<string, Uint8Array> = new Map()) {
    for (const [p, text] of Object.entries(SEEDED)) this.put(p, new TextEncoder().encode(text));
    for (const [p, bytes] of extra) this.put(p, bytes.slice());
  }

  get(path: string): VirtualFile | undefined {
    return this.byKey.get(winPath(path).toLowerCase())?.file;
  }

  put(path: string, bytes: Uint8Array = new Uint8Array()): VirtualFile {
    const full = winPath(path);
    const file = new VirtualFile(bytes);
    this.byKey.set(full.toLowerCase(), { path: full, file });
    return file;
  }

  delete(path: string): boolean {
    return this.byKey.delete(winPath(path).toLowerCase());
  }

  mkdir(path: string): void {
    this.directories.add(winPath(path).toLowerCase());
  }

  /** Whether `path` is a directory: a drive, one made, or a prefix of some file's path. */
  isDirectory(path: string): boolean {
    const full = winPath(path).toLowerCase();
    const key = full.endsWith('\\') ? full : `${full}\\`;
    return (
      /^[a-z]:\\$/.test(key) || this.directories.has(full) || [...this.byKey.keys()].some((k) => k.startsWith(key))
    );
  }

  /** Every file, by the path it was written under. */
  all(): Map<string, Uint8Array> {
    return new Map([...this.byKey.values()].map((f) => [f.path, f.file.data]));
  }
}
