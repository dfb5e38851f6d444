// The machine's own system libraries as the read-only sysroot of emulated dynamically linked programs:
// their loader and C library come from here (emulate/linux/run-elf.ts). Only regular files under the
// CPU's library directories are served, wherever a link points, and none larger than a C library can be.
// A CPU other than the machine's gets Debian's cross libraries (libc6-<arch>-cross, which the cross
// compiler brings), served at the paths its loader asks for.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Architecture } from '../contracts/result.js';
import type { Sysroot } from '../engine/index.js';

/** Debian's library directories of x86-64 (multiarch, and the loader's /lib64). */
const X86_64 = ['/lib/x86_64-linux-gnu/', '/usr/lib/x86_64-linux-gnu/', '/lib64/'];
const MAX_FILE = 64 << 20;
/** Where a CPU's loader looks for libraries (its multiarch directories, /lib for the loader itself). */
const GUEST_DIRS: Partial<Record<Architecture, { multiarch: string; host: NodeJS.Architecture }>> = {
  x86_64: { multiarch: 'x86_64-linux-gnu', host: 'x64' },
  arm64: { multiarch: 'aarch64-linux-gnu', host: 'arm64' },
  x86: { multiarch: 'i686-linux-gnu', host: 'ia32' },
  arm: { multiarch: 'arm-linux-gnueabihf', host: 'arm' },
  mips: { multiarch: 'mipsel-linux-gnu', host: 'mipsel' },
};

export function hostSysroot(dirs: readonly string[] = X86_64): Sysroot {
  const allowed = (p: string) => dirs.some((d) => p.startsWith(d));
  return (path) => {
    if (!allowed(path) || path.includes('/../')) return null;
    // Debian links /lib to /usr/lib: the real path is inside the same directories under /usr.
    return libraryFile(path, (real) => allowed(real) || allowed(real.replace(/^\/usr\//, '/')));
  };
}

/**
 * The libraries of `arch` from a flat directory (`/usr/<triplet>/lib/`): a path the guest's loader asks for
 * in its library directories is the file of that name there.
 */
export function crossSysroot(dir: string, multiarch: string): Sysroot {
  const guest = ['/lib/', '/usr/lib/', `/lib/${multiarch}/`, `/usr/lib/${multiarch}/`];
  return (path) => {
    const name = basename(path);
    if (!guest.some((d) => path === d + name) || name.startsWith('.')) return null;
    return libraryFile(dir + name, (real) => real.startsWith(dir));
  };
}

/** The same for the CPUs whose programs come in both byte orders, big-endian. */
const BIG_ENDIAN_DIRS: Partial<Record<Architecture, { multiarch: string; host: NodeJS.Architecture }>> = {
  mips: { multiarch: 'mips-linux-gnu', host: 'mips' },
};

/** The sysroot for programs of `arch` (in `endianness` order): the machine's libraries, or the cross ones; null when there are none. */
export function sysrootFor(arch: Architecture, endianness: 'little' | 'big' | null = 'little'): Sysroot | null {
  const cpu = endianness === 'big' ? BIG_ENDIAN_DIRS[arch] : GUEST_DIRS[arch];
  if (!cpu) return null;
  if (cpu.host === process.arch) return hostSysroot();
  return crossSysroot(`/usr/${cpu.multiarch}/lib/`, cpu.multiarch);
}

/** The regular file at `path` when its real path passes `inside`, bounded in size; else null. */
function libraryFile(path: string, inside: (real: string) => boolean): Uint8Array | null {
  try {
    const real = realpathSync(path);
    if (!inside(real)) return null;
    const st = statSync(real);
    return st.isFile() && st.size <= MAX_FILE ? readFileSync(real) : null;
  } catch {
    return null;
  }
}
