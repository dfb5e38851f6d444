// The state msvcrt keeps for one process: its FILE objects (the three standard streams first, in _iob),
// errno, the startup variables (_acmdln, _fmode, __initenv…) and the static buffers some functions return.
import type { WinSystem } from '../../system.js';
import type { ApiCall } from '../api.js';
import type { VarArgs } from '../../printf.js';

/** sizeof(FILE) in msvcrt: eight fields, pointers among them. */
const fileSize = (sys: WinSystem) => (sys.abi.pointer === 8 ? 48 : 32);

export interface Stream {
  /** The kernel32 handle it reads and writes. */
  handle: bigint;
  eof: boolean;
}

export class Crt {
  readonly streams = new Map<bigint, Stream>();
  /** &_iob[0]: stdin, stdout and stderr follow each other. */
  readonly iob: bigint;
  readonly errno: bigint;
  /** Variables by name (_fmode, _commode, _acmdln, __initenv, __mb_cur_max, argc/argv), made on first use. */
  private readonly variables = new Map<string, bigint>();
  /** Strings handed out once and returned again (getenv's values, strerror's messages, setlocale's name). */
  private readonly constants = new Map<string, bigint>();

  constructor(private readonly sys: WinSystem) {
    const size = fileSize(sys);
    this.iob = sys.alloc('_iob', 3 * size);
    for (let n = 0; n < 3; n++)
      this.streams.set(this.iob + BigInt(n * size), { handle: sys.open({ k: 'console', n }), eof: false });
    this.errno = sys.alloc('_errno', 4);
  }

  /** Standard input, output or error (0, 1, 2), unless the program closed it. */
  standard(n: number): Stream | null {
    return this.streams.get(this.iob + BigInt(n * fileSize(this.sys))) ?? null;
  }

  /** A new FILE object for kernel32 handle `handle`. */
  stream(handle: bigint): bigint {
    const at = this.sys.alloc('fopen', fileSize(this.sys));
    if (at) this.streams.set(at, { handle, eof: false });
    return at;
  }

  setErrno(value: number): void {
    this.sys.writeInt(this.errno, value, 4);
  }

  /** The variable `name`, `bytes` long, set up by `init` the first time it is asked for. */
  variable(name: string, bytes: number, init: (at: bigint) => void = () => {}): bigint {
    let at = this.variables.get(name);
    if (at === undefined) {
      this.variables.set(name, (at = this.sys.alloc(name, bytes)));
      if (at) init(at);
    }
    return at;
  }

  /** A string that stays where it is for the whole run. */
  constant(text: string): bigint {
    let at = this.constants.get(text);
    if (at === undefined) this.constants.set(text, (at = this.sys.heapString(text)));
    return at;
  }

  /** The environment as `name=value` strings in a NULL-terminated array (what __initenv points at). */
  environment(): bigint {
    const entries = [...this.sys.env].map(([k, v]) => this.constant(`${k}=${v}`));
    return this.pointerArray(entries);
  }

  /** A NULL-terminated array of the pointers given. */
  pointerArray(pointers: bigint[]): bigint {
    const width = BigInt(this.sys.abi.pointer);
    const at = this.sys.alloc('array', (pointers.length + 1) * this.sys.abi.pointer);
    pointers.forEach((p, i) => this.sys.writePointer(at + BigInt(i) * width, p));
    return at;
  }
}

const crts = new WeakMap<WinSystem, Crt>();

/** The C runtime state of the process `c` runs in. */
export function crtOf(sys: WinSystem): Crt {
  let crt = crts.get(sys);
  if (!crt) crts.set(sys, (crt = new Crt(sys)));
  return crt;
}

/** The variable arguments of a call from argument `first` on (on x86 an 8-byte one takes two slots). */
export function callArgs(c: ApiCall, first: number): VarArgs {
  let i = first;
  const wide = c.sys.abi.pointer === 8;
  return {
    next: (bytes) => {
      if (wide || bytes === 4) return c.arg(i++);
      const low = c.arg(i++);
      return low | (c.arg(i++) << 32n);
    },
  };
}

/** The variable arguments a va_list at `at` points at (each at least a pointer's size). */
export function listArgs(sys: WinSystem, at: bigint): VarArgs {
  let next = at;
  return {
    next: (bytes) => {
      const size = Math.max(bytes, sys.abi.pointer);
      const b = sys.bytes(next, size);
      next += BigInt(size);
      if (!b) return 0n;
      const v = new DataView(b.buffer, b.byteOffset);
      return size === 8 ? v.getBigUint64(0, true) : BigInt(v.getUint32(0, true));
    },
  };
}
