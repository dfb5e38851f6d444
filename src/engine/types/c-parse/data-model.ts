// The C data models: the sizes of `long`, pointers and `long double`, and the <stddef.h>, <stdint.h> and
// <sys/types.h> names whose width follows from them. The POSIX names take glibc's definitions; a platform
// that differs (macOS's 16-bit mode_t, msvcrt's time_t) declares its own typedef, which takes precedence.
import type { CType, FloatSize, IntSize } from '../ctype.js';

/** LP64: Linux, macOS and the BSDs on 64 bits. LLP64: Windows on 64 bits. ILP32: every 32-bit target. */
export type DataModel = 'LP64' | 'LLP64' | 'ILP32';

export const DATA_MODELS: readonly DataModel[] = ['LP64', 'LLP64', 'ILP32'];

interface ModelSizes {
  long: 4 | 8;
  pointer: 4 | 8;
  /**
   * x86-64 SysV stores the x87 80-bit value in 16 bytes; MSVC's long double is a double; i386 SysV
   * stores 10 bytes in 12 (alignment 4, see layout.ts).
   */
  longDouble: FloatSize;
  /** 16-bit UTF-16 units only where LLP64 implies Windows; Windows ILP32 declares its own wchar_t. */
  wchar: { size: IntSize; signed: boolean };
}

export const MODEL_SIZES: Record<DataModel, ModelSizes> = {
  LP64: { long: 8, pointer: 8, longDouble: 16, wchar: { size: 4, signed: true } },
  LLP64: { long: 4, pointer: 8, longDouble: 8, wchar: { size: 2, signed: false } },
  ILP32: { long: 4, pointer: 4, longDouble: 10, wchar: { size: 4, signed: true } },
};

const named = (name: string, size: IntSize, signed: boolean): CType => ({ kind: 'int', size, signed, name });

function builtinsOf(model: DataModel): ReadonlyMap<string, CType> {
  const { long, pointer, wchar } = MODEL_SIZES[model];
  const m = new Map<string, CType>();
  // Exact-width names need no `name`: formatType spells an unnamed integer as intN_t/uintN_t.
  for (const size of [1, 2, 4, 8] as const) {
    m.set(`int${size * 8}_t`, { kind: 'int', size, signed: true });
    m.set(`uint${size * 8}_t`, { kind: 'int', size, signed: false });
    m.set(`int_least${size * 8}_t`, named(`int_least${size * 8}_t`, size, true));
    m.set(`uint_least${size * 8}_t`, named(`uint_least${size * 8}_t`, size, false));
  }
  const table: [string, IntSize, boolean][] = [
    // <stddef.h>, <stdint.h>, <wchar.h>, <uchar.h>
    ['size_t', pointer, false],
    ['ssize_t', pointer, true],
    ['rsize_t', pointer, false],
    ['ptrdiff_t', pointer, true],
    ['intptr_t', pointer, true],
    ['uintptr_t', pointer, false],
    ['intmax_t', 8, true],
    ['uintmax_t', 8, false],
    ['wchar_t', wchar.size, wchar.signed],
    ['wint_t', 4, false],
    ['wctype_t', long, false],
    ['char16_t', 2, false],
    ['char32_t', 4, false],
    // <sys/types.h> and friends, as glibc defines them
    ['off_t', long, true],
    ['off64_t', 8, true],
    ['loff_t', 8, true],
    ['pid_t', 4, true],
    ['uid_t', 4, false],
    ['gid_t', 4, false],
    ['id_t', 4, false],
    ['mode_t', 4, false],
    ['time_t', long, true],
    ['clock_t', long, true],
    ['clockid_t', 4, true],
    ['suseconds_t', long, true],
    ['useconds_t', 4, false],
    ['socklen_t', 4, false],
    ['ino_t', long, false],
    ['ino64_t', 8, false],
    ['dev_t', 8, false],
    ['nlink_t', long === 8 ? 8 : 4, false],
    ['blksize_t', long, true],
    ['blkcnt_t', long, true],
    ['key_t', 4, true],
    ['sig_atomic_t', 4, true],
    ['in_addr_t', 4, false],
    ['in_port_t', 2, false],
    ['sa_family_t', 2, false],
    ['nfds_t', long, false],
    ['pthread_t', long, false],
    ['pthread_key_t', 4, false],
  ];
  for (const [name, size, signed] of table) m.set(name, named(name, size, signed));
  return m;
}

const BUILTINS = new Map<DataModel, ReadonlyMap<string, CType>>();

/** The typedef names every declaration may use without declaring them, for `model`. */
export function builtinTypes(model: DataModel): ReadonlyMap<string, CType> {
  let m = BUILTINS.get(model);
  if (!m) BUILTINS.set(model, (m = builtinsOf(model)));
  return m;
}
