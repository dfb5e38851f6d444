// How Windows code calls an API on each CPU: where the arguments are, where the result goes, how the call
// returns, and where the thread's TEB is. x86-64 only so far (the Microsoft x64 convention): 32-bit PE
// programs are refused until their stdcall returns and FS-based TEB are in.
import type { Cpu } from '../unicorn.js';
import { X64 } from '../x86.js';

export interface WinAbi {
  /** Bytes of a pointer (and of an argument slot). */
  pointer: 4 | 8;
  pc: number;
  sp: number;
  result: number;
  /** Argument `i` of a call whose return address is on top of the stack. */
  arg(cpu: Cpu, i: number): bigint;
  /** Puts arguments of a call the host makes into guest code (a callback, a thread), its return address pushed. */
  enter(cpu: Cpu, sp: bigint, args: bigint[], returnTo: bigint): void;
  /** Returns from an API entered with the return address on top, popping `stackArgs` arguments (stdcall). */
  leave(cpu: Cpu, stackArgs: number): void;
  /** Points the thread's segment at its TEB. */
  setTeb(cpu: Cpu, teb: bigint): void;
}

const ARGS64 = [X64.rcx, X64.rdx, X64.r8, X64.r9];

const word = (cpu: Cpu, at: bigint) => {
  const b = cpu.read(at, 8);
  return b ? new DataView(b.buffer).getBigUint64(0, true) : 0n;
};

export const X64_WINDOWS: WinAbi = {
  pointer: 8,
  pc: X64.rip,
  sp: X64.rsp,
  result: X64.rax,
  arg: (cpu, i) => (i < 4 ? cpu.reg(ARGS64[i]!) : word(cpu, cpu.reg(X64.rsp) + 8n + 8n * BigInt(i))),
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
    cpu.setReg(X64.rip, word(cpu, sp));
  },
  setTeb: (cpu, teb) => cpu.setReg(X64.gsBase, teb),
};
