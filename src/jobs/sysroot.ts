// The machine's own system libraries as the read-only sysroot of emulated dynamically linked programs:
// their loader and C library come from here (emulate/linux/run-elf.ts). Only regular files under the
// CPU's library directories are served, wherever a link points, and none larger than a C library can be.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import type { Sysroot } from '../engine/index.js';

/** Debian's library directories of x86-64 (multiarch, and the loader's /lib64). */
const X86_64 = ['/lib/x86_64-linux-gnu/', '/usr/lib/x86_64-linux-gnu/', '/lib64/'];
const MAX_FILE = 64 << 20;

export function hostSysroot(dirs: readonly string[] = X86_64): Sysroot {
  const allowed = (p: string) => dirs.some((d) => p.startsWith(d));
  return (path) => {
    if (!allowed(path) || path.includes('/../')) return null;
    try {
      const real = realpathSync(path);
      // Debian links /lib to /usr/lib: the real path is inside the same directories under /usr.
      if (!allowed(real) && !allowed(real.replace(/^\/usr\//, '/'))) return null;
      const st = statSync(real);
      return st.isFile() && st.size <= MAX_FILE ? readFileSync(real) : null;
    } catch {
      return null;
    }
  };
}
