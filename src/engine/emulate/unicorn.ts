// Unicorn 2 (Debian's libunicorn2), the CPU emulator under dynamic execution, called through koffi: the
// system library runs the guest's instructions natively fast, and JavaScript runs only where a hook asks
// (system calls, invalid memory), never per instruction.
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';

/** koffi, loaded when an emulation first needs it: importing the engine loads no native code. */
const loadKoffi = () => createRequire(import.meta.url)('koffi') as typeof Koffi;
let koffi: typeof Koffi;

/** The shared object the Debian package installs. */
const LIBRARY = 'libunicorn.so.2';

/** Unicorn's constants (unicorn.h, x86.h of 2.0.x). */
export const UC = {
  arch: { arm: 1, arm64: 2, mips: 3, x86: 4 },
  mode: { arm: 0, mode32: 4, mode64: 8, thumb: 16, mips32: 4, bigEndian: 1 << 30 },
  prot: { read: 1, write: 2, exec: 4, all: 7 },
  hook: { intr: 1, insn: 2, code: 4, memUnmapped: 16 | 32 | 64, memProt: 128 | 256 | 512 },
  x86: { insnSyscall: 699, insnCpuid: 113, gdtr: 243 },
} as const;

/** A hook's address range that covers every address (begin > end). */
const EVERYWHERE: [bigint, bigint] = [1n, 0n];

/** Why an emulation could not start: the library is missing (install libunicorn2). */
export class EmulatorUnavailable extends Error {}

type Pointer = unknown;

interface Binding {
  open: (arch: number, mode: number, out: [Pointer]) => number;
  close: (uc: Pointer) => number;
  strerror: (code: number) => string;
  memMap: (uc: Pointer, address: bigint, size: number, perms: number) => number;
  memUnmap: (uc: Pointer, address: bigint, size: number) => number;
  memProtect: (uc: Pointer, address: bigint, size: number, perms: number) => number;
  memWrite: (uc: Pointer, address: bigint, bytes: Uint8Array, size: number) => number;
  memRead: (uc: Pointer, address: bigint, bytes: Uint8Array, size: number) => number;
  regWrite: (uc: Pointer, reg: number, value: [bigint]) => number;
  regRead: (uc: Pointer, reg: number, value: [bigint | number]) => number;
  regWriteBytes: (uc: Pointer, reg: number, value: Uint8Array) => number;
  emuStart: (uc: Pointer, begin: bigint, until: bigint, timeoutUs: number, count: number) => number;
  emuStop: (uc: Pointer) => number;
  hookDel: (uc: Pointer, hook: bigint) => number;
  contextAlloc: (uc: Pointer, out: [Pointer]) => number;
  contextSave: (uc: Pointer, context: Pointer) => number;
  contextRestore: (uc: Pointer, context: Pointer) => number;
  contextFree: (context: Pointer) => number;
  hookAdd: (
    uc: Pointer,
    out: [bigint],
    type: number,
    cb: Pointer,
    user: null,
    begin: bigint,
    end: bigint,
    ...extra: unknown[]
  ) => number;
  protos: { plain: unknown; cpuid: unknown; mem: unknown; code: unknown; intr: unknown };
}

let binding: Binding | null | undefined;

/** The library's functions, loaded once; throws EmulatorUnavailable (saying what to install) without it. */
function bind(): Binding {
  if (binding === undefined) {
    try {
      koffi = loadKoffi();
      const lib = koffi.load(LIBRARY);
      binding = {
        open: lib.func('int uc_open(int arch, int mode, _Out_ void **uc)'),
        close: lib.func('int uc_close(void *uc)'),
        strerror: lib.func('const char *uc_strerror(int code)'),
        memMap: lib.func('int uc_mem_map(void *uc, uint64_t address, size_t size, uint32_t perms)'),
        memUnmap: lib.func('int uc_mem_unmap(void *uc, uint64_t address, size_t size)'),
        memProtect: lib.func('int uc_mem_protect(void *uc, uint64_t address, size_t size, uint32_t perms)'),
        memWrite: lib.func('int uc_mem_write(void *uc, uint64_t address, const uint8_t *bytes, size_t size)'),
        memRead: lib.func('int uc_mem_read(void *uc, uint64_t address, _Out_ uint8_t *bytes, size_t size)'),
        regWrite: lib.func('int uc_reg_write(void *uc, int regid, const uint64_t *value)'),
        regRead: lib.func('int uc_reg_read(void *uc, int regid, _Out_ uint64_t *value)'),
        regWriteBytes: lib.func('int uc_reg_write(void *uc, int regid, const uint8_t *value)'),
        emuStart: lib.func(
          'int uc_emu_start(void *uc, uint64_t begin, uint64_t until, uint64_t timeout, size_t count)',
        ),
        emuStop: lib.func('int uc_emu_stop(void *uc)'),
        hookDel: lib.func('int uc_hook_del(void *uc, uint64_t hh)'),
        contextAlloc: lib.func('int uc_context_alloc(void *uc, _Out_ void **context)'),
        contextSave: lib.func('int uc_context_save(void *uc, void *context)'),
        contextRestore: lib.func('int uc_context_restore(void *uc, void *context)'),
        contextFree: lib.func('int uc_context_free(void *context)'),
        hookAdd: lib.func(
          'int uc_hook_add(void *uc, _Out_ uint64_t *hh, int type, void *callback, void *user_data, uint64_t begin, uint64_t end, ...)',
        ),
        protos: {
          plain: koffi.pointer(koffi.proto('void BlPlainHook(void *uc, void *user)')),
          cpuid: koffi.pointer(koffi.proto('int BlCpuidHook(void *uc, void *user)')),
          code: koffi.pointer(koffi.proto('void BlCodeHook(void *uc, uint64_t address, uint32_t size, void *user)')),
          intr: koffi.pointer(koffi.proto('void BlIntrHook(void *uc, uint32_t intno, void *user)')),
          mem: koffi.pointer(
            koffi.proto('bool BlMemHook(void *uc, int type, uint64_t address, int size, int64_t value, void *user)'),
          ),
        },
      } as Binding;
    } catch {
      binding = null;
    }
  }
  if (!binding)
    throw new EmulatorUnavailable(
      `the CPU emulator ${LIBRARY} is not installed: install Debian's libunicorn2 (apt-get install libunicorn2)`,
    );
  return binding;
}

/** Whether the emulator library can be loaded here. */
export function emulatorAvailable(): boolean {
  try {
    bind();
    return true;
  } catch {
    return false;
  }
}

/** A Unicorn error code as an exception. */
export class UnicornError extends Error {
  constructor(
    readonly code: number,
    what: string,
  ) {
    super(`${what}: ${bind().strerror(code)}`);
  }
}

/** One emulated CPU with its memory. Hooks stay registered until close(). */
export class Cpu {
  private readonly uc: Pointer;
  private readonly b = bind();
  private readonly callbacks: unknown[] = [];
  private readonly executeHooks = new Map<bigint, { begin: bigint; end: bigint; cb: (address: bigint) => void }>();
  /** The one code-hook callback, dispatching to the `onExecute` ranges that hold the address. */
  private readonly execute: unknown;
  private closed = false;

  constructor(arch: number, mode: number) {
    const out: [Pointer] = [null];
    this.check(this.b.open(arch, mode, out), 'uc_open');
    this.uc = out[0];
    this.execute = koffi.register((_uc: Pointer, a: bigint | number) => {
      const address = BigInt(a);
      for (const h of this.executeHooks.values()) if (address >= h.begin && address <= h.end) h.cb(address);
    }, this.b.protos.code as never);
    this.callbacks.push(this.execute);
  }

  map(address: bigint, size: number, perms: number): void {
    this.check(this.b.memMap(this.uc, address, size, perms), `map 0x${address.toString(16)}+${size}`);
  }

  unmap(address: bigint, size: number): void {
    this.check(this.b.memUnmap(this.uc, address, size), `unmap 0x${address.toString(16)}+${size}`);
  }

  protect(address: bigint, size: number, perms: number): void {
    this.check(this.b.memProtect(this.uc, address, size, perms), `protect 0x${address.toString(16)}+${size}`);
  }

  write(address: bigint, bytes: Uint8Array): void {
    if (bytes.length) this.check(this.b.memWrite(this.uc, address, bytes, bytes.length), 'write');
  }

  /** `size` bytes at `address`, or null when some are not mapped. */
  read(address: bigint, size: number): Uint8Array | null {
    const out = new Uint8Array(size);
    return size === 0 || this.b.memRead(this.uc, address, out, size) === 0 ? out : null;
  }

  reg(id: number): bigint {
    const out: [bigint | number] = [0n];
    this.check(this.b.regRead(this.uc, id, out), 'reg_read');
    return BigInt.asUintN(64, BigInt(out[0]));
  }

  setReg(id: number, value: bigint): void {
    this.check(this.b.regWrite(this.uc, id, [BigInt.asUintN(64, value)]), 'reg_write');
  }

  /**
   * Points x86's global descriptor table at `base` (`limit` bytes): a 32-bit program's FS segment is a
   * descriptor there, its base not settable on its own.
   */
  setGdt(base: bigint, limit: number): void {
    // uc_x86_mmr: selector (16 bits, padded to 8 bytes), base (64), limit (32), flags (32).
    const mmr = new Uint8Array(24);
    const v = new DataView(mmr.buffer);
    v.setBigUint64(8, base, true);
    v.setUint32(16, limit, true);
    this.check(this.b.regWriteBytes(this.uc, UC.x86.gdtr, mmr), 'reg_write gdtr');
  }

  /** `cb` on each `syscall` instruction (x86-64). */
  onSyscall(cb: () => void): void {
    this.hook(UC.hook.insn, this.b.protos.plain, () => cb(), EVERYWHERE, 'int', UC.x86.insnSyscall);
  }

  /** `cb` answers each `cpuid` (x86) by setting the registers; Unicorn's own answer leaves out features. */
  onCpuid(cb: () => void): void {
    this.hook(
      UC.hook.insn,
      this.b.protos.cpuid,
      () => {
        cb();
        return 1;
      },
      EVERYWHERE,
      'int',
      UC.x86.insnCpuid,
    );
  }

  /** `cb` with the interrupt number of each exception the guest raises (ARM's `svc` is 2). */
  onInterrupt(cb: (n: number) => void): void {
    this.hook(UC.hook.intr, this.b.protos.intr, (_uc: Pointer, n: number) => cb(n), EVERYWHERE);
  }

  /**
   * `cb` with the address of each instruction in [begin, end] about to run (import stubs, API thunks: a
   * library call). Writing the program counter in `cb` skips that instruction and goes on there. May be
   * called from inside a hook: every range shares one callback registered up front (koffi cannot register
   * a callback while one runs).
   */
  onExecute(begin: bigint, end: bigint, cb: (address: bigint) => void): bigint {
    const out: [bigint] = [0n];
    this.check(this.b.hookAdd(this.uc, out, UC.hook.code, this.execute, null, begin, end), 'hook_add');
    const id = BigInt(out[0]);
    this.executeHooks.set(id, { begin, end, cb });
    return id;
  }

  /** `cb` with the address of the first instruction run in [begin, end], once (unpacked code's start). */
  onFirstExecute(begin: bigint, end: bigint, cb: (address: bigint) => void): void {
    const hook = this.onExecute(begin, end, (address) => {
      this.removeHook(hook);
      cb(address);
    });
  }

  /** Removes an `onExecute` hook (also from inside it). */
  removeHook(hook: bigint): void {
    this.check(this.b.hookDel(this.uc, hook), 'hook_del');
    this.executeHooks.delete(hook);
  }

  /** `cb` on an access to unmapped or protected memory; emulation stops there. */
  onFault(cb: (address: bigint) => void): void {
    this.hook(
      UC.hook.memUnmapped | UC.hook.memProt,
      this.b.protos.mem,
      (_uc: Pointer, _t: number, a: bigint | number) => {
        cb(BigInt(a));
        return false;
      },
      EVERYWHERE,
    );
  }

  /** Runs from `begin` until `until`, `count` instructions (0: no limit) or `timeoutUs`; the error code. */
  run(begin: bigint, until: bigint, opts: { timeoutUs?: number; count?: number } = {}): number {
    return this.b.emuStart(this.uc, begin, until, opts.timeoutUs ?? 0, opts.count ?? 0);
  }

  /** The CPU's registers as they are now, for `restore` to put back later. */
  save(): { restore(): void } {
    const out: [Pointer] = [null];
    this.check(this.b.contextAlloc(this.uc, out), 'context_alloc');
    const context = out[0];
    this.check(this.b.contextSave(this.uc, context), 'context_save');
    return {
      restore: () => {
        this.check(this.b.contextRestore(this.uc, context), 'context_restore');
        this.b.contextFree(context);
      },
    };
  }

  /** Stops the run from inside a hook. */
  stop(): void {
    this.b.emuStop(this.uc);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.b.close(this.uc);
    for (const c of this.callbacks) koffi.unregister(c as never);
  }

  private hook(
    type: number,
    proto: unknown,
    fn: (...a: never[]) => unknown,
    range: [bigint, bigint],
    ...extra: unknown[]
  ): void {
    const cb = koffi.register(fn as (...a: unknown[]) => unknown, proto as never);
    this.callbacks.push(cb);
    this.check(this.b.hookAdd(this.uc, [0n], type, cb, null, range[0], range[1], ...extra), 'hook_add');
  }

  private check(code: number, what: string): void {
    if (code !== 0) throw new UnicornError(code, what);
  }
}
