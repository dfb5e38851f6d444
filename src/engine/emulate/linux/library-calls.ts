// Calls of a dynamically linked executable into the C library that no system call shows (getenv reads the
// environment in memory) or whose system call is shared with the library's own work (gethostname asks
// uname, as the resolver does for every lookup): a hook on the executable's own import stub of each watched
// function records the call, its site and its string argument. Only stub entries are hooked, so JavaScript
// runs per watched call, never per instruction; calls the library makes itself are not the program's.
import { parseElf } from '../../formats/elf/index.js';
import type { Cpu } from '../unicorn.js';
import type { LinuxCpu } from './cpu.js';
import type { Kernel } from './kernel.js';

/** Watched functions, and which argument (by position) is a string worth recording. */
const WATCHED: Record<string, number | null> = {
  getenv: 0,
  secure_getenv: 0,
  gethostname: null,
  uname: null,
  getlogin: null,
  getlogin_r: null,
  cuserid: null,
  getpwuid: null,
  getpwnam: 0,
  system: 0,
  popen: 0,
};

/** Hooks the watched imports' stubs of the executable loaded at `base`. */
export function watchLibraryCalls(cpu: Cpu, linux: LinuxCpu, kernel: Kernel, bytes: Uint8Array, base: bigint): void {
  for (const imp of parseElf(bytes).imports) {
    const name = imp.name.replace(/@.*$/, '');
    if (!(name in WATCHED)) continue;
    const arg = WATCHED[name]!;
    for (const stub of imp.stubs)
      cpu.onExecute(BigInt(stub) + base, BigInt(stub) + base, () => {
        // At the stub's first instruction the return address is the program's: the call before it made
        // this one.
        const ret = linux.returnAddress(cpu);
        const site = ret === null ? null : linux.callSite(cpu, ret);
        const detail: Record<string, string> = { name };
        const value = arg === null ? null : kernel.string(linux.callArg(cpu, arg));
        if (value !== null) detail.argument = value;
        kernel.libraryCall(name, detail, site ?? Number(cpu.reg(linux.pc)));
      });
  }
}
