// One Linux ELF program emulated from its entry point to a stop: its segments loaded as the kernel would,
// a stack with argv, environment and auxiliary vector, every system call answered by the virtual kernel,
// and the run bounded in instructions, system calls, memory and wall time.
import { elfLoadPlan, type ElfLoadPlan } from '../../formats/elf/index.js';
import {
  DEFAULT_LIMITS,
  EmulationRefused,
  ROOT_PID,
  type EmulationRun,
  type RunLimits,
  type RunStop,
} from '../events.js';
import { FormatError } from '../../formats/errors.js';
import { Cpu } from '../unicorn.js';
import { SAMPLE_PATH, VirtualFs, type Sysroot } from './environment.js';
import { watchLibraryCalls } from './library-calls.js';
import { Kernel } from './kernel.js';
import { AddressSpace, MappingRefused, PAGE, pageDown, pageUp, permsOf } from '../memory.js';
import { SYSCALLS } from './syscalls.js';
import { isaProfile } from '../../isa/index.js';
import { identify } from '../../formats/index.js';
import type { LinuxCpu } from './cpu.js';

/**
 * Where a position-independent executable and its loader are put (as Linux does without ASLR), the stack's
 * top and where mmap places memory, in a 64-bit and a 32-bit address space.
 */
const LAYOUT = {
  8: { pie: 0x5555_5555_4000n, loader: 0x7fff_f7fc_0000n, stackTop: 0x7fff_ffff_f000n, mmap: 0x7f00_0000_0000n },
  // Below 2 GiB: MIPS gives user programs only the lower half of the address space.
  4: { pie: 0x5655_5000n, loader: 0x7700_0000n, stackTop: 0x7ffe_f000n, mmap: 0x2000_0000n },
} as const;
/** An address no run reaches: Unicorn stops at `until`, and a jump to 0 must fault instead. */
const NEVER = 0xffff_ffff_ffff_f000n;
/** Stack bytes searched for the executable's return address (the resolver keeps large buffers there). */
const STACK_SCAN = 256 << 10;
const STACK_CHUNK = 4096;
const STACK_SIZE = 1 << 21;
/** Auxiliary vector keys (elf.h). */
const AT = { PHDR: 3, PHENT: 4, PHNUM: 5, PAGESZ: 6, BASE: 7, ENTRY: 9, UID: 11, EUID: 12, GID: 13, EGID: 14 };
const AT_MORE = { PLATFORM: 15, HWCAP: 16, CLKTCK: 17, SECURE: 23, RANDOM: 25, EXECFN: 31 };

export interface LinuxRunOptions {
  /** argv[0] first. */
  argv: string[];
  env?: string[];
  /** Files the guest finds besides the seeded ones (its inputs), by absolute path. */
  files?: ReadonlyMap<string, Uint8Array>;
  /** The loader and C library a dynamically linked executable needs, read-only; without, it is refused. */
  sysroot?: Sysroot;
  limits?: Partial<RunLimits>;
}

export function runLinuxElf(bytes: Uint8Array, options: LinuxRunOptions): EmulationRun {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const deadline = performance.now() + limits.wallMs;
  const files = new Map([[SAMPLE_PATH, bytes], ...(options.files ?? [])]);
  const first = runImage(bytes, { ...options, files }, { limits, deadline, pid: ROOT_PID, before: null });
  // Programs the sample wrote and exec'd run in turn, in the time left, in the process that exec'd them;
  // one that cannot run (another CPU, no loader for it) stays recorded as exec'd only.
  let last = first.kernel;
  for (let i = 0; i < last.execs.length && performance.now() < deadline; i++) {
    const exec = last.execs[i]!;
    try {
      last = runImage(
        exec.bytes,
        { ...options, argv: exec.argv },
        { limits, deadline, pid: exec.pid, before: last },
      ).kernel;
    } catch (err) {
      if (!(err instanceof EmulationRefused || err instanceof FormatError)) throw err;
    }
  }
  return finish(last, first.stop, first.base);
}

/** One program run from its entry to a stop, on a kernel of its own (after `before`'s when it was exec'd). */
function runImage(
  bytes: Uint8Array,
  options: LinuxRunOptions,
  at: { limits: RunLimits; deadline: number; pid: number; before: Kernel | null },
): { kernel: Kernel; stop: RunStop; base: bigint } {
  const { limits, deadline } = at;
  const { architecture, endianness } = identify(bytes, bytes.length);
  const profile = isaProfile(architecture)?.emulator;
  const linux = endianness === 'big' ? profile?.bigEndian : profile;
  if (!linux)
    throw new EmulationRefused(
      `no emulator for ${endianness === 'big' ? 'big-endian ' : ''}${architecture} programs yet`,
    );
  const plan = elfLoadPlan(bytes);
  const loader = plan.interpreter === null ? null : (options.sysroot?.(plan.interpreter) ?? null);
  if (plan.interpreter !== null && !loader)
    throw new EmulationRefused(
      `dynamically linked: needs its loader ${plan.interpreter} and a C library for ${linux.platform} (a sysroot)`,
    );
  const cpu = new Cpu(linux.unicorn.arch, linux.unicorn.mode);
  try {
    const abi = linux.abi(cpu);
    const layout = LAYOUT[abi.pointer];
    const memory = new AddressSpace(cpu, limits.memory, layout.mmap);
    const fs = at.before?.fs ?? new VirtualFs(options.files, options.sysroot);
    const kernel = new Kernel(cpu, memory, fs, limits, abi, at.before ?? undefined);
    kernel.pid = at.pid;
    const base = plan.relocatable ? layout.pie : 0n;
    let entry = BigInt(plan.entry) + base;
    try {
      memory.brkStart = memory.brk = pageUp(load(cpu, memory, bytes, plan, base));
      if (loader) {
        // The loader runs first and maps the C library through the kernel, as on Linux.
        const ld = elfLoadPlan(loader);
        load(cpu, memory, loader, ld, layout.loader);
        entry = BigInt(ld.entry) + layout.loader;
      }
      const loaderBase = loader ? layout.loader : 0n;
      cpu.setReg(
        linux.sp,
        stack(cpu, memory, plan, { base, loaderBase, top: layout.stackTop, little: abi.little }, linux, options),
      );
    } catch (err) {
      if (!(err instanceof MappingRefused)) throw err;
      return { kernel, stop: { reason: 'memory', detail: `loading: ${err.message}` }, base };
    }
    if (loader) watchLibraryCalls(cpu, linux, kernel, bytes, base);
    const siteOf = callSites(kernel, linux, plan, base);
    const { syscall } = linux;
    const handlers = linux.syscalls ? { ...SYSCALLS, ...linux.syscalls } : SYSCALLS;
    linux.hooks(cpu, () => {
      const nr = Number(cpu.reg(syscall.nr));
      const pc = cpu.reg(linux.pc);
      const args = linux.syscallArgs?.(cpu) ?? syscall.args.map((r) => cpu.reg(r));
      const at = { pc: Number(pc), site: siteOf(pc) };
      setResult(linux, cpu, kernel.call(syscall.names.get(nr) ?? null, nr, args, at, handlers));
    });
    cpu.onFault((address) =>
      kernel.stop({
        reason: 'fault',
        detail: `invalid memory access at 0x${address.toString(16)} by 0x${cpu.reg(linux.pc).toString(16)}`,
      }),
    );
    const stop = runProcess(cpu, linux, kernel, memory, entry, limits, deadline);
    return { kernel, stop, base };
  } finally {
    cpu.close();
  }
}

/**
 * Runs the current process from `pc` until it stops, and why. A fork stops the emulation; the child then
 * runs to its end on a copy of the memory and descriptors (children before parents, as a parent that
 * waits sees them), and the parent goes on. A bound reached in a child ends the whole run.
 */
function runProcess(
  cpu: Cpu,
  linux: LinuxCpu,
  kernel: Kernel,
  memory: AddressSpace,
  pc: bigint,
  limits: RunLimits,
  deadline: number,
): RunStop {
  for (;;) {
    const left = deadline - performance.now();
    const code = left > 0 ? cpu.run(pc, NEVER, { timeoutUs: Math.ceil(left * 1000), count: limits.instructions }) : 0;
    pc = linux.resumeAt?.(cpu) ?? cpu.reg(linux.pc);
    const fork = kernel.pendingFork;
    if (!fork || kernel.stopped) return kernel.stopped ?? ended(cpu, linux, code, pc, limits, deadline);
    kernel.pendingFork = null;
    const registers = cpu.save();
    const image = memory.snapshot();
    const fds = new Map(kernel.fds);
    const parent = kernel.pid;
    kernel.pid = fork.pid;
    setResult(linux, cpu, 0n);
    if (fork.stack) cpu.setReg(linux.sp, fork.stack);
    const child = runProcess(cpu, linux, kernel, memory, pc, limits, deadline);
    if (child.reason !== 'exit' && child.reason !== 'fault') return child;
    kernel.stopped = null;
    kernel.exited.push({ pid: fork.pid, status: child.reason === 'exit' ? kernel.exitStatus : 139 });
    memory.restore(image);
    registers.restore();
    kernel.fds = fds;
    kernel.pid = parent;
  }
}

/** A system call's result where the program reads it. */
function setResult(linux: LinuxCpu, cpu: Cpu, value: bigint): void {
  if (linux.setSyscallResult) linux.setSyscallResult(cpu, value);
  else cpu.setReg(linux.syscall.result, value);
}

/** Why Unicorn returned when nothing in the kernel stopped it. */
function ended(cpu: Cpu, linux: LinuxCpu, code: number, pc: bigint, limits: RunLimits, deadline: number): RunStop {
  if (code !== 0) return { reason: 'fault', detail: `emulation error ${code} at 0x${pc.toString(16)}` };
  if (linux.halt !== null && cpu.read(pc - 1n, 1)?.[0] === linux.halt)
    return { reason: 'fault', detail: `privileged instruction hlt at 0x${(pc - 1n).toString(16)}` };
  if (performance.now() >= deadline) return { reason: 'time', detail: `${limits.wallMs} ms` };
  return { reason: 'instructions', detail: `${limits.instructions} instructions` };
}

function finish(kernel: Kernel, stop: RunStop, base: bigint): EmulationRun {
  const decoder = new TextDecoder();
  return {
    stop,
    events: kernel.events,
    output: kernel.output.map((b) => decoder.decode(b)).join(''),
    files: new Map([...kernel.fs.files].map(([p, f]) => [p, f.data])),
    calls: kernel.calls,
    base: Number(base),
    dumps: kernel.dumps,
  };
}

/**
 * The PT_LOAD segments at `base`: pages they share are mapped once, with the union of their rights. Returns
 * where the last one ends.
 */
function load(cpu: Cpu, memory: AddressSpace, bytes: Uint8Array, plan: ElfLoadPlan, base: bigint): bigint {
  const pages = new Map<bigint, number>();
  for (const s of plan.segments) {
    const perms = permsOf(s);
    for (let p = pageDown(BigInt(s.vaddr) + base); p < pageUp(BigInt(s.vaddr + s.memSize) + base); p += BigInt(PAGE))
      pages.set(p, (pages.get(p) ?? 0) | perms);
  }
  // Runs of pages with the same rights, one mapping each.
  const sorted = [...pages].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j]![0] === sorted[j - 1]![0] + BigInt(PAGE) && sorted[j]![1] === sorted[i]![1])
      j++;
    memory.map(sorted[i]![0], (j - i) * PAGE, sorted[i]![1]!);
    i = j;
  }
  for (const s of plan.segments)
    cpu.write(BigInt(s.vaddr) + base, bytes.subarray(s.fileOffset, s.fileOffset + s.fileSize));
  return plan.segments.reduce((m, s) => {
    const end = BigInt(s.vaddr + s.memSize) + base;
    return end > m ? end : m;
  }, 0n);
}

/**
 * The initial stack (System V ABI, x86-64 figure 3.9; the same in words of 4 bytes on 32-bit CPUs): argc,
 * argv, envp, auxv, then the strings.
 */
function stack(
  cpu: Cpu,
  memory: AddressSpace,
  plan: ElfLoadPlan,
  at: { base: bigint; loaderBase: bigint; top: bigint; little: boolean },
  linux: LinuxCpu,
  options: LinuxRunOptions,
): bigint {
  const { base, loaderBase, little } = at;
  memory.map(at.top - BigInt(STACK_SIZE), STACK_SIZE, permsOf({ read: true, write: true, exec: false }));
  const enc = new TextEncoder();
  let top = at.top;
  const put = (b: Uint8Array) => {
    top -= BigInt(b.length);
    cpu.write(top, b);
    return top;
  };
  const env = options.env ?? ['HOME=/home/user', 'PATH=/usr/local/bin:/usr/bin:/bin', 'USER=user', 'LANG=C.UTF-8'];
  const execfn = put(enc.encode(`${options.argv[0] ?? 'sample'}\0`));
  const platform = put(enc.encode(`${linux.platform}\0`));
  const random = put(Uint8Array.from({ length: 16 }, (_, i) => (i * 73 + 41) & 0xff));
  const envp = env.map((e) => put(enc.encode(`${e}\0`)));
  const argv = options.argv.map((a) => put(enc.encode(`${a}\0`)));
  const aux: [number, bigint][] = [
    [AT.PHDR, BigInt(plan.phdr) + base],
    [AT.PHENT, BigInt(plan.phent)],
    [AT.PHNUM, BigInt(plan.phnum)],
    [AT.PAGESZ, 4096n],
    [AT.BASE, loaderBase],
    [AT.ENTRY, BigInt(plan.entry) + base],
    [AT.UID, 1000n],
    [AT.EUID, 1000n],
    [AT.GID, 1000n],
    [AT.EGID, 1000n],
    [AT_MORE.PLATFORM, platform],
    [AT_MORE.HWCAP, 0n],
    [AT_MORE.CLKTCK, 100n],
    [AT_MORE.SECURE, 0n],
    [AT_MORE.RANDOM, random],
    [AT_MORE.EXECFN, execfn],
    [0, 0n],
  ];
  const words = [BigInt(argv.length), ...argv, 0n, ...envp, 0n, ...aux.flatMap(([k, v]) => [BigInt(k), v])];
  // The stack pointer is 16-byte aligned at the entry point.
  const width = linux.bits / 8;
  top = (top - BigInt(words.length * width)) & ~0xfn;
  const table = new Uint8Array(words.length * width);
  const view = new DataView(table.buffer);
  words.forEach((w, i) =>
    width === 8
      ? view.setBigUint64(i * 8, BigInt.asUintN(64, w), little)
      : view.setUint32(i * 4, Number(BigInt.asUintN(32, w)), little),
  );
  cpu.write(top, table);
  return top;
}

/**
 * Where a system call was made from, as the static analysis knows the code: in a static executable the
 * syscall instruction itself; in a dynamically linked one, the call in the executable that led into the
 * C library (the newest return address on the stack that follows a call instruction of the executable),
 * or null when there is none (the loader at work).
 */
function callSites(kernel: Kernel, linux: LinuxCpu, plan: ElfLoadPlan, base: bigint): (pc: bigint) => number | null {
  const { cpu } = kernel;
  const { pointer: width, little } = kernel.abi;
  const code = plan.segments
    .filter((s) => s.exec)
    .map((s) => [BigInt(s.vaddr) + base, BigInt(s.vaddr + s.memSize) + base]);
  const inside = (a: bigint) => code.some(([lo, hi]) => a >= lo! && a < hi!);
  return (pc) => {
    if (plan.interpreter === null || inside(pc)) return Number(pc);
    const sp = cpu.reg(linux.sp);
    for (let at = sp; at < sp + BigInt(STACK_SCAN); at += BigInt(STACK_CHUNK)) {
      // The stack's top may end a chunk: then only what is mapped of it, word by word.
      const chunk = cpu.read(at, STACK_CHUNK) ?? mappedWords(kernel, at);
      const view = new DataView(chunk.buffer);
      for (let i = 0; i + width <= chunk.length; i += width) {
        const ret = width === 8 ? view.getBigUint64(i, little) : BigInt(view.getUint32(i, little));
        const call = inside(ret) ? linux.callSite(cpu, ret) : null;
        if (call !== null) return call;
      }
      if (chunk.length < STACK_CHUNK) break;
    }
    return null;
  };
}

/** The words from `at` that are mapped, up to a chunk's length. */
function mappedWords(kernel: Kernel, at: bigint): Uint8Array {
  const width = kernel.abi.pointer;
  const out = new Uint8Array(STACK_CHUNK);
  let n = 0;
  for (let word = kernel.cpu.read(at, width); word && n < STACK_CHUNK; word = kernel.cpu.read(at + BigInt(n), width)) {
    out.set(word, n);
    n += width;
  }
  return out.subarray(0, n);
}
