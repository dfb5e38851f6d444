// How Windows code calls an API on each CPU: where the arguments are, where the result goes, how the call
// returns (a 32-bit stdcall API pops its arguments), and where the thread's TEB is and what it holds.
import { UC, type Cpu } from '../unicorn.js';
import { dataDescriptor, flatSegments, X64, X86 } from '../x86.js';

export interface WinAbi {
  unicorn: { arch: number; mode: number };
  /** Bytes of a pointer (and of an argument slot). */
  pointer: 4 | 8;
  pc: number;
  sp: number;
  /** The registers CPUID answers in: eax, ebx, ecx, edx. */
  cpuid: readonly number[];
  /** Argument `i` of a call whose return address is on top of the stack. */
  arg(cpu: Cpu, i: number): bigint;
  /** The return value (a 64-bit one in edx:eax on x86). */
  setResult(cpu: Cpu, value: bigint): void;
  /** The return register as the API left it. */
  result(cpu: Cpu): bigint;
  /** Puts arguments of a call the host makes into guest code (a callback, a thread), its return address pushed. */
  enter(cpu: Cpu, sp: bigint, args: bigint[], returnTo: bigint): void;
  /** Returns from an API entered with the return address on top, popping `stackArgs` arguments (stdcall). */
  leave(cpu: Cpu, stackArgs: number): void;
  /** Points the thread's segment at its TEB; `scratch` is a page the CPU may keep tables in. */
  setTeb(cpu: Cpu, teb: bigint, scratch: bigint): void;
  /** Offsets in the TEB: stack base and limit, itself, process and thread ids, the PEB; and the PEB's image base. */
  teb: { stackBase: number; stackLimit: number; self: number; pid: number; tid: number; peb: number };
  pebImageBase: number;
}

const ARGS64 = [X64.rcx, X64.rdx, X64.r8, X64.r9];

const readWord = (cpu: Cpu, at: bigint, bytes: 4 | 8) => {
  const b = cpu.read(at, bytes);
  if (!b) return 0n;
  const v = new DataView(b.buffer);
  return bytes === 8 ? v.getBigUint64(0, true) : BigInt(v.getUint32(0, true));
};

export const X64_WINDOWS: WinAbi = {
  unicorn: { arch: UC.arch.x86, mode: UC.mode.mode64 },
  pointer: 8,
  pc: X64.rip,
  sp: X64.rsp,
  cpuid: [X64.rax, X64.rbx, X64.rcx, X64.rdx],
  arg: (cpu, i) => (i < 4 ? cpu.reg(ARGS64[i]!) : readWord(cpu, cpu.reg(X64.rsp) + 8n + 8n * BigInt(i), 8)),
  setResult: (cpu, value) => cpu.setReg(X64.rax, value),
  result: (cpu) => cpu.reg(X64.rax),
  enter(cpu, sp, args, returnTo) {
    // 32 bytes of home space above the return address; rsp ≡ 8 (mod 16) at the first instruction.
    const top = (sp - 8n * BigInt(Math.max(args.length, 4)) - 0x40n) & ~0xfn;
    const frame = new Uint8Array(8 * (1 + Math.max(args.length, 4)));
    const v = new DataView(frame.buffer);
    v.setBigUint64(0, returnTo, true);
    args.forEach((a, i) => {
      if (i < 4) cpu.setReg(ARGS64[i]!, a);
      else v.setBigUint64(8 * (1 + i), a, true);
    });
    cpu.write(top - 8n, frame);
    cpu.setReg(X64.rsp, top - 8n);
  },
  leave(cpu) {
    const sp = cpu.reg(X64.rsp);
    cpu.setReg(X64.rsp, sp + 8n);
    cpu.setReg(X64.rip, readWord(cpu, sp, 8));
  },
  setTeb: (cpu, teb) => cpu.setReg(X64.gsBase, teb),
  teb: { stackBase: 0x08, stackLimit: 0x10, self: 0x30, pid: 0x40, tid: 0x48, peb: 0x60 },
  pebImageBase: 0x10,
};

export const X86_WINDOWS: WinAbi = {
  unicorn: { arch: UC.arch.x86, mode: UC.mode.mode32 },
  pointer: 4,
  pc: X86.eip,
  sp: X86.esp,
  cpuid: [X86.eax, X86.ebx, X86.ecx, X86.edx],
  arg: (cpu, i) => readWord(cpu, cpu.reg(X86.esp) + 4n + 4n * BigInt(i), 4),
  setResult(cpu, value) {
    cpu.setReg(X86.eax, BigInt.asUintN(32, value));
    cpu.setReg(X86.edx, BigInt.asUintN(32, value >> 32n));
  },
  result: (cpu) => cpu.reg(X86.eax) & 0xffff_ffffn,
  enter(cpu, sp, args, returnTo) {
    const top = (sp - 4n * BigInt(args.length) - 0x40n) & ~0xfn;
    const frame = new Uint8Array(4 * (1 + args.length));
    const v = new DataView(frame.buffer);
    [returnTo, ...args].forEach((a, i) => v.setUint32(4 * i, Number(BigInt.asUintN(32, a)), true));
    cpu.write(top - 4n, frame);
    cpu.setReg(X86.esp, top - 4n);
  },
  leave(cpu, stackArgs) {
    const sp = cpu.reg(X86.esp);
    cpu.setReg(X86.esp, sp + 4n + 4n * BigInt(stackArgs));
    cpu.setReg(X86.eip, readWord(cpu, sp, 4));
  },
  setTeb(cpu, teb, scratch) {
    // FS is selector 8 of a GDT, based at the TEB.
    cpu.write(scratch + 8n, dataDescriptor(teb, 0xfff));
    flatSegments(cpu, scratch);
    cpu.setReg(X86.fs, 8n);
  },
  teb: { stackBase: 0x04, stackLimit: 0x08, self: 0x18, pid: 0x20, tid: 0x24, peb: 0x30 },
  pebImageBase: 0x08,
};
