// One Windows PE program emulated from its TLS callbacks and entry point to a stop, then the programs it
// started from executables on the disk: each image mapped where it asks, every import bound to a thunk
// whose API handler runs in JavaScript when called (apis/), a TEB and PEB with the system DLLs' images
// (modules.ts), and the run bounded in instructions, API calls, memory and wall time. API handlers that need
// guest code run (initializer tables, atexit, a new thread) leave it to the run loop here, which makes the
// call and then completes the API's return.
import { peLoadPlan, type PeLoadPlan } from '../../formats/index.js';
import { callBefore } from '../call-site.js';
import { HAMMERING, HammerWatch } from '../hammering.js';
import {
  DEFAULT_LIMITS,
  EmulationRefused,
  ROOT_PID,
  type EmulationRun,
  type RunLimits,
  type RunStop,
} from '../events.js';
import { FormatError } from '../../formats/errors.js';
import { AddressSpace, MappingRefused, pageUp } from '../memory.js';
import { Cpu, UC } from '../unicorn.js';
import { callLength, cpuid, initFloatingPoint } from '../x86.js';
import { X64_WINDOWS, X86_WINDOWS } from './abi.js';
import { apiOf, DLLS, type Api } from './apis/index.js';
import { mapModules } from './modules.js';
import { ERROR } from './apis/api.js';
import { WinSystem, WinWorld, type GuestCall } from './system.js';
import { PROFILE } from './files.js';

const THUNK_SIZE = 16n;
const MAX_THUNKS = 4096;
/**
 * Where things go in each address space: API thunks (the first is where host-made calls return to), system
 * DLLs' images (below the thunks, within 4 GiB: their exports' RVAs reach them), the TEB (the PEB and a
 * scratch page follow it) and where the heap and VirtualAlloc place memory.
 */
const LAYOUT = {
  64: { thunks: 0x7ffe_0000_0000n, modules: 0x7ffd_8000_0000n, teb: 0x7ffd_f000_0000n, mmap: 0x7f00_0000_0000n },
  32: { thunks: 0x7ff0_0000n, modules: 0x7000_0000n, teb: 0x7ffd_0000n, mmap: 0x1000_0000n },
} as const;
/** PE machine types (winnt.h) the emulator runs, and how calls work on each. */
const ABIS = new Map([
  [0x8664, X64_WINDOWS],
  [0x14c, X86_WINDOWS],
]);
const STACK_TOP = 0x40_0000n;
const STACK_SIZE = 2 << 20;
const THREAD_STACK = 1 << 20;
/** An address no run reaches: Unicorn stops at `until`. */
const NEVER = 0xffff_ffff_ffff_f000n;

export interface WindowsRunOptions {
  /** argv[0] first. */
  argv: string[];
  /** Files the guest finds besides the seeded ones (its inputs), by Windows path. */
  files?: ReadonlyMap<string, Uint8Array>;
  limits?: Partial<RunLimits>;
}

interface Thunk {
  dll: string;
  name: string;
  api: Api | null;
}

export function runWindowsPe(bytes: Uint8Array, options: WindowsRunOptions): EmulationRun {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const world = new WinWorld(options.files);
  const deadline = performance.now() + limits.wallMs;
  // The sample is on the disk, where a user would have saved it (a program copying itself finds it there).
  const path = `${PROFILE}\\Downloads\\${(options.argv[0] ?? 'sample.exe').replace(/^.*[\\/]/, '')}`;
  world.fs.put(path, bytes);
  const stop = runProcess(bytes, world, { pid: ROOT_PID, argv: options.argv, path, limits, deadline });
  // Programs the sample started from executables on the disk run in turn, in the time left; one that
  // cannot run (another CPU, damaged headers) is recorded as created only.
  for (let i = 0; i < world.queued.length && performance.now() < deadline; i++) {
    const child = world.queued[i]!;
    try {
      runProcess(child.bytes, world, { ...child, limits, deadline });
    } catch (err) {
      if (!(err instanceof EmulationRefused || err instanceof FormatError)) throw err;
    }
  }
  return finish(world, stop);
}

/** One process run from its image to a stop, in `world`: why it stopped. */
function runProcess(
  bytes: Uint8Array,
  world: WinWorld,
  at: { pid: number; argv: string[]; path: string; limits: RunLimits; deadline: number },
): RunStop {
  const { limits, deadline } = at;
  const plan = peLoadPlan(bytes);
  const abi = ABIS.get(plan.machine);
  if (!abi)
    throw new EmulationRefused(
      `no emulator for Windows programs of machine type 0x${plan.machine.toString(16)} (x86 and x86-64 ones run)`,
    );
  const { thunks: THUNKS, modules: MODULES, teb: TEB, mmap } = LAYOUT[abi.pointer === 8 ? 64 : 32];
  const cpu = new Cpu(abi.unicorn.arch, abi.unicorn.mode);
  try {
    const memory = new AddressSpace(cpu, limits.memory, mmap);
    const sys = new WinSystem(cpu, memory, limits, abi, at.argv, world, at.pid, at.path);
    const thunks: Thunk[] = [{ dll: '', name: 'return', api: null }];
    const thunkIndex = new Map<string, number>();
    const thunkOf = (dll: string, name: string): bigint | null => {
      let i = thunkIndex.get(`${dll}!${name}`);
      if (i === undefined) {
        if (thunks.length >= MAX_THUNKS) return null;
        const api = apiOf(dll, name);
        i = thunks.push({ dll, name, api: api && 'run' in api ? api : null }) - 1;
        thunkIndex.set(`${dll}!${name}`, i);
      }
      return THUNKS + BigInt(i) * THUNK_SIZE;
    };
    try {
      load(cpu, memory, bytes, plan);
      sys.imageBase = BigInt(plan.imageBase);
      sys.imageEnd = sys.imageBase + BigInt(plan.sizeOfImage);
      memory.map(THUNKS, MAX_THUNKS * Number(THUNK_SIZE), UC.prot.read | UC.prot.exec);
      cpu.write(THUNKS, new Uint8Array(MAX_THUNKS * Number(THUNK_SIZE)).fill(0xc3));
      const dlls = new Set([...Object.keys(DLLS), ...plan.imports.map((i) => (i.library ?? '').toLowerCase())]);
      [...dlls].filter(Boolean).forEach((dll, i) => sys.modules.set(dll, MODULES + BigInt(i) * 0x10_0000n));
      sys.resolveApi = (dll, name) => (sys.modules.has(dll) ? thunkOf(dll, name) : null);
      bindImports(sys, plan, thunkOf);
      environment(sys, plan, TEB);
      mapModules(sys, plan, thunkOf);
    } catch (err) {
      if (!(err instanceof MappingRefused)) throw err;
      return { reason: 'memory', detail: `loading: ${err.message}` };
    }
    cpu.onCpuid(() => {
      const r = cpuid(Number(cpu.reg(abi.cpuid[0]!) & 0xffff_ffffn));
      abi.cpuid.forEach((reg, i) => cpu.setReg(reg, BigInt(r[i]!)));
    });
    const hammer = new HammerWatch();
    cpu.onExecute(THUNKS, THUNKS + BigInt(MAX_THUNKS) * THUNK_SIZE - 1n, (address) => {
      const index = Number((address - THUNKS) / THUNK_SIZE);
      if (index === 0) return cpu.stop();
      const thunk = thunks[index]!;
      const ret = sys.pointerAt(cpu.reg(abi.sp));
      sys.site = callBefore(cpu, callLength, ret) ?? Number(ret);
      sys.ticks++;
      const counted = hammer.counts(thunk.name, sys.site, () =>
        sys.record('api-hammering', thunk.name, { name: `${thunk.dll}!${thunk.name}`, count: HAMMERING }),
      );
      if (counted) world.calls++;
      if (counted && ++sys.calls > limits.apiCalls)
        return sys.stop({ reason: 'api-calls', detail: `${limits.apiCalls} API calls` });
      const seen = sys.events.length;
      if (!thunk.api && abi.pointer === 4) {
        // A 32-bit stdcall API pops its own arguments: without knowing how many, the caller cannot go on.
        call(sys, thunk);
        return sys.stop({
          reason: 'unsupported',
          detail: `${thunk.dll}!${thunk.name} called at 0x${sys.site.toString(16)}`,
        });
      }
      abi.setResult(cpu, BigInt(call(sys, thunk)));
      if (sys.events.length > seen) hammer.reset();
      sys.returnPops = thunk.api && !thunk.api.cdecl ? thunk.api.args : 0;
      if (sys.stopped || sys.pending.length || sys.exiting || sys.threadEnded !== null) cpu.stop();
      else abi.leave(cpu, sys.returnPops);
    });
    sys.onExecutable = (at, size) =>
      // The first instruction run there: the code as it was then is the unpacked payload.
      cpu.onFirstExecute(at, at + BigInt(size) - 1n, (pc) => {
        const bytes = cpu.read(at, size);
        sys.record('memory-execute', 'execute', {
          address: `0x${pc.toString(16)}`,
          region: `0x${at.toString(16)}`,
          bytes: size,
        });
        if (bytes)
          sys.dumps.push({ pid: sys.pid, process: sys.argv[0] ?? '', address: Number(at), why: 'executed', bytes });
      });
    cpu.onFault((address) =>
      sys.stop({
        reason: 'fault',
        detail: `invalid memory access at 0x${address.toString(16)} by 0x${cpu.reg(abi.pc).toString(16)}`,
      }),
    );
    const run = (c: GuestCall) => runGuest(sys, c, deadline, THUNKS);
    for (const fn of plan.tlsCallbacks)
      if (!sys.stopped) run({ fn: BigInt(fn), args: [sys.imageBase, 1n, 0n], thread: false });
    if (!sys.stopped && plan.entry) {
      const dllMain = plan.dll ? [sys.imageBase, 1n, 0n] : [];
      if (run({ fn: BigInt(plan.entry), args: dllMain, thread: false }) !== null)
        sys.stop({ reason: 'exit', detail: `entry point returned ${BigInt.asIntN(32, abi.result(cpu))}` });
    }
    return sys.stopped ?? { reason: 'exit', detail: 'no entry point' };
  } finally {
    cpu.close();
  }
}

/** Runs one API handler: its result; an import without one is recorded and fails, and the run goes on. */
function call(sys: WinSystem, thunk: Thunk): bigint | number {
  if (!thunk.api) {
    sys.record('unsupported', thunk.name, { name: `${thunk.dll}!${thunk.name}` });
    sys.lastError = ERROR.CALL_NOT_IMPLEMENTED;
    return 0;
  }
  const abi = sys.abi;
  const r = thunk.api.run({
    sys,
    name: thunk.name,
    arg: (i) => abi.arg(sys.cpu, i),
    u32: (i) => Number(abi.arg(sys.cpu, i) & 0xffff_ffffn),
    i32: (i) => Number(BigInt.asIntN(32, abi.arg(sys.cpu, i))),
    str: (i, wide = false) => sys.string(abi.arg(sys.cpu, i), wide),
  });
  return typeof r === 'boolean' ? (r ? 1 : 0) : r;
}

/**
 * Calls guest function `c` and runs until it returns: its stack below the caller's (a thread gets one of
 * its own), the registers of whoever was running put back after. Returns its result, or null once the run
 * has stopped.
 */
function runGuest(sys: WinSystem, c: GuestCall, deadline: number, returnTo: bigint): bigint | null {
  const { cpu, abi } = sys;
  const saved = cpu.save();
  let stack: bigint | null = null;
  try {
    if (c.thread) {
      stack = sys.memory.find(THREAD_STACK);
      sys.memory.map(stack, THREAD_STACK, UC.prot.read | UC.prot.write);
    }
    abi.enter(cpu, stack === null ? cpu.reg(abi.sp) - 0x80n : stack + BigInt(THREAD_STACK), c.args, returnTo);
  } catch (err) {
    if (!(err instanceof MappingRefused)) throw err;
    sys.stop({ reason: 'memory', detail: `thread stack: ${err.message}` });
    return null;
  }
  const result = drive(sys, c.fn, deadline, returnTo);
  if (stack !== null) sys.memory.unmap(stack, THREAD_STACK);
  saved.restore();
  return result;
}

/** Runs from `pc` until the function returns to the return thunk (its result) or the run stops (null). */
function drive(sys: WinSystem, pc: bigint, deadline: number, returnTo: bigint): bigint | null {
  const { cpu, abi, limits } = sys;
  for (;;) {
    const left = deadline - performance.now();
    const code = left > 0 ? cpu.run(pc, NEVER, { timeoutUs: Math.ceil(left * 1000), count: limits.instructions }) : 0;
    pc = cpu.reg(abi.pc);
    if (sys.stopped) return null;
    if (pc === returnTo) return abi.result(cpu);
    if (sys.threadEnded !== null) {
      sys.threadEnded = null;
      return 0n;
    }
    if (!sys.pending.length && !sys.exiting) {
      sys.stop(ended(cpu, code, pc, limits, deadline));
      return null;
    }
    // An API asked for guest code to run before it returns: run it, then complete the return.
    const result = abi.result(cpu);
    const pops = sys.returnPops;
    for (const c of sys.pending.splice(0))
      if (runGuest(sys, c, deadline, returnTo) === null && sys.stopped) return null;
    if (sys.exiting) {
      sys.stop(sys.exiting);
      return null;
    }
    abi.setResult(cpu, result);
    abi.leave(cpu, pops);
    pc = cpu.reg(abi.pc);
  }
}

/** Why Unicorn returned when nothing in the system stopped it. */
function ended(cpu: Cpu, code: number, pc: bigint, limits: RunLimits, deadline: number): RunStop {
  if (code !== 0) return { reason: 'fault', detail: `emulation error ${code} at 0x${pc.toString(16)}` };
  if (cpu.read(pc - 1n, 1)?.[0] === 0xf4)
    return { reason: 'fault', detail: `privileged instruction hlt at 0x${(pc - 1n).toString(16)}` };
  if (performance.now() >= deadline) return { reason: 'time', detail: `${limits.wallMs} ms` };
  return { reason: 'instructions', detail: `${limits.instructions} instructions` };
}

/** The image at its preferred base: headers and sections, every page readable, writable and executable. */
function load(cpu: Cpu, memory: AddressSpace, bytes: Uint8Array, plan: PeLoadPlan): void {
  // Windows protects each section; here the whole image is open, as a packer's VirtualProtect would make it.
  memory.map(BigInt(plan.imageBase), Number(pageUp(BigInt(plan.sizeOfImage))), UC.prot.all);
  for (const s of plan.segments)
    cpu.write(BigInt(s.vaddr), bytes.subarray(s.fileOffset, s.fileOffset + Math.min(s.fileSize, s.memSize)));
}

/** Fills each import slot: a function's thunk, a variable's address (msvcrt's _iob). */
function bindImports(sys: WinSystem, plan: PeLoadPlan, thunkOf: (dll: string, name: string) => bigint | null): void {
  for (const imp of plan.imports) {
    const dll = (imp.library ?? '').toLowerCase();
    const api = apiOf(dll, imp.name);
    const at = api && 'data' in api ? api.data(sys) : thunkOf(dll, imp.name);
    if (at !== null) sys.writePointer(BigInt(imp.slot), at);
  }
}

/** The main thread's stack, its TEB, the PEB after it and a scratch page for the CPU's tables. */
function environment(sys: WinSystem, plan: PeLoadPlan, teb: bigint): void {
  const { cpu, memory, abi } = sys;
  memory.map(STACK_TOP - BigInt(STACK_SIZE), STACK_SIZE, UC.prot.read | UC.prot.write);
  cpu.setReg(abi.sp, STACK_TOP - 0x100n);
  memory.map(teb, 0x3000, UC.prot.read | UC.prot.write);
  const peb = teb + 0x1000n;
  sys.peb = peb;
  const at = (offset: number) => teb + BigInt(offset);
  // The end of the SEH chain (x86 code walks it from fs:[0]).
  sys.writePointer(teb, -1n);
  sys.writePointer(at(abi.teb.stackBase), STACK_TOP);
  sys.writePointer(at(abi.teb.stackLimit), STACK_TOP - BigInt(STACK_SIZE));
  sys.writePointer(at(abi.teb.self), teb);
  sys.writePointer(at(abi.teb.pid), BigInt(sys.pid));
  sys.writePointer(at(abi.teb.tid), BigInt(sys.tid));
  sys.writePointer(at(abi.teb.peb), peb);
  // PEB: not being debugged; the image base (the loader data is mapModules').
  sys.writePointer(peb + BigInt(abi.pebImageBase), BigInt(plan.imageBase));
  abi.setTeb(cpu, teb, teb + 0x2000n);
  // Windows starts threads with the x87 at double precision.
  initFloatingPoint(cpu, 0x27f);
}

function finish(world: WinWorld, stop: RunStop): EmulationRun {
  return {
    stop,
    events: world.events,
    output: world.output.map((b) => Buffer.from(b).toString('latin1')).join(''),
    files: world.fs.all(),
    calls: world.calls,
    // Mapped at its preferred base: the static analysis's addresses are the guest's.
    base: 0,
    dumps: [
      ...world.dumps,
      ...[...world.processes.values()].flatMap((p) =>
        [...p.started].map(([at, bytes]) => ({
          pid: p.pid,
          process: p.name,
          address: Number(at),
          why: 'injected' as const,
          bytes,
        })),
      ),
    ],
  };
}
