// i386 Linux: system call numbers (arch/x86/entry/syscalls/syscall_32.tbl), `int 0x80` with the number in
// eax and arguments in ebx, ecx, edx, esi, edi, ebp; struct stat64 for the stat family; 4-byte words; and
// the calls only 32-bit x86 has: socketcall, and set_thread_area, whose TLS segment is a
// descriptor in a GDT the guest's %gs selects.
import { callBefore } from '../call-site.js';
import { UC, type Cpu } from '../unicorn.js';
import { callLength, cpuid, dataDescriptor, flatSegments, initFloatingPoint, X86 } from '../x86.js';
import { LINUX_FPU, type LinuxCpu } from './cpu.js';
import { LEGACY_32 } from './legacy-32.js';
import { Kernel, kernelAbi32, type Handler, type StatLayout } from './kernel.js';
import { SYSCALLS } from './syscalls.js';

const NUMBERS: [number, string][] = [
  ...LEGACY_32,
  [7, 'waitpid'],
  [13, 'time'],
  [27, 'alarm'],
  [102, 'socketcall'],
  [219, 'madvise'],
  [243, 'set_thread_area'],
  [252, 'exit_group'],
  [258, 'set_tid_address'],
  [265, 'clock_gettime'],
  [267, 'clock_nanosleep'],
  [270, 'tgkill'],
  [295, 'openat'],
  [296, 'mkdirat'],
  [300, 'newfstatat'],
  [301, 'unlinkat'],
  [302, 'renameat'],
  [305, 'readlinkat'],
  [307, 'faccessat'],
  [311, 'set_robust_list'],
  [330, 'dup3'],
  [331, 'pipe2'],
  [340, 'prlimit64'],
  [345, 'sendmmsg'],
  [353, 'renameat2'],
  [355, 'getrandom'],
  [358, 'execveat'],
  [359, 'socket'],
  [361, 'bind'],
  [362, 'connect'],
  [363, 'listen'],
  [365, 'getsockopt'],
  [366, 'setsockopt'],
  [369, 'sendto'],
  [370, 'sendmsg'],
  [371, 'recvfrom'],
  [373, 'shutdown'],
  [383, 'statx'],
  [386, 'rseq'],
];

/** struct stat64 (arch/x86/include/uapi/asm/stat.h, 32-bit): the 64-bit inode is at its end. */
const STAT64: StatLayout = {
  bytes: 96,
  ino: 88,
  nlink: { at: 20, width: 4 },
  mode: 16,
  uid: 24,
  gid: 28,
  size: 44,
  blksize: 52,
  blocks: 56,
};

/** socketcall's call numbers (linux/net.h) and the system calls they stand for. */
const SOCKETCALLS: Record<number, [string, number]> = {
  1: ['socket', 3],
  2: ['bind', 3],
  3: ['connect', 3],
  4: ['listen', 2],
  9: ['sendto', 4],
  10: ['recvfrom', 4],
  11: ['sendto', 6],
  12: ['recvfrom', 6],
  13: ['shutdown', 2],
  14: ['setsockopt', 5],
  15: ['getsockopt', 5],
  16: ['sendmsg', 3],
  20: ['sendmmsg', 4],
};

/** The GDT entry Linux gives the first TLS segment asked for (GDT_ENTRY_TLS_MIN). */
const TLS_ENTRY = 6;
const ARGS = [X86.ebx, X86.ecx, X86.edx, X86.esi, X86.edi, X86.ebp];
/** Unicorn's interrupt number for `int 0x80`. */
const INT80 = 0x80;

const EXTRA: Record<string, Handler> = {
  // The socket calls in one: a call number and a pointer to its arguments (words).
  socketcall: (k, a) => {
    const call = SOCKETCALLS[k.int(a[0])];
    if (!call) return k.fail(Kernel.E.NOSYS);
    const args = Array.from({ length: 6 }, (_, i) => (i < call[1] ? (k.word(a[1]!, i) ?? 0n) : 0n));
    return SYSCALLS[call[0]]!(k, args);
  },
  set_thread_area: (k, a) => {
    // struct user_desc: entry number (-1: pick one), base, limit, flags (bit 4: limit in pages).
    const desc = k.cpu.read(a[0]!, 16);
    if (!desc) return k.fail(Kernel.E.FAULT);
    const v = new DataView(desc.buffer);
    const entry = v.getInt32(0, true) === -1 ? TLS_ENTRY : v.getInt32(0, true);
    if (entry < TLS_ENTRY || entry > TLS_ENTRY + 2) return k.fail(Kernel.E.INVAL);
    v.setUint32(0, entry, true);
    k.cpu.write(a[0]!, desc);
    const gdt = gdtOf(k);
    if (gdt === null) return k.fail(Kernel.E.NOMEM);
    const pages = (v.getUint32(12, true) & 0x10) !== 0;
    k.cpu.write(
      gdt + BigInt(entry * 8),
      dataDescriptor(BigInt(v.getUint32(4, true)), v.getUint32(8, true), { pages, dpl: 3 }),
    );
    return 0n;
  },
};

/** Each run's GDT page, set up (flat segments loaded) the first time TLS asks for it: i386's alone. */
const tables = new WeakMap<Kernel, bigint>();
function gdtOf(k: Kernel): bigint | null {
  let at = tables.get(k);
  if (at === undefined) {
    at = k.memory.find(4096);
    try {
      k.memory.map(at, 4096, UC.prot.read | UC.prot.write);
    } catch {
      return null;
    }
    flatSegments(k.cpu, at);
    tables.set(k, at);
  }
  return at;
}

export const I386_LINUX: LinuxCpu = {
  unicorn: { arch: UC.arch.x86, mode: UC.mode.mode32 },
  platform: 'i686',
  bits: 32,
  pc: X86.eip,
  sp: X86.esp,
  callArg: (cpu: Cpu, i: number) => {
    const b = cpu.read(cpu.reg(X86.esp) + 4n + 4n * BigInt(i), 4);
    return b ? BigInt(new DataView(b.buffer).getUint32(0, true)) : 0n;
  },
  syscall: { nr: X86.eax, args: ARGS, result: X86.eax, names: new Map(NUMBERS) },
  abi: () => kernelAbi32('i686', STAT64),
  syscalls: EXTRA,
  hooks(cpu, syscall) {
    initFloatingPoint(cpu, LINUX_FPU);
    cpu.onInterrupt((n) => (n === INT80 ? syscall() : cpu.stop()));
    cpu.onCpuid(() => {
      const r = cpuid(Number(cpu.reg(X86.eax) & 0xffff_ffffn));
      [X86.eax, X86.ebx, X86.ecx, X86.edx].forEach((reg, i) => cpu.setReg(reg, BigInt(r[i]!)));
    });
  },
  callSite: (cpu, ret) => callBefore(cpu, callLength, ret),
  returnAddress: (cpu) => {
    const top = cpu.read(cpu.reg(X86.esp), 4);
    return top ? BigInt(new DataView(top.buffer).getUint32(0, true)) : null;
  },
  halt: 0xf4,
};
