// The instruction being lifted, as the MIPS groups see it: the engine decoder's fields (flow, target),
// the statements it gathers, operand helpers that know the register file's rules ($0 reads as 0 and takes
// no writes; a single-precision write is a partial write of its 64-bit FPR), and `finish`, which turns the
// decoder's flow into the transfer. Delay slots are the driver's: it lifts the slot before the transfer.
import { Flow, newDecoded } from '../../disasm/instruction.js';
import { InsnEmitter } from '../emitter.js';
import { bin, konst, reg, type Cond, type Expr, type Stmt } from '../ir.js';
import { F0, FCC, MIPS_REGISTERS, TEMP } from './registers.js';

/** 1 when `cc` holds of the comparison of `a` with `b`, `w` bytes wide. */
export const compare = (cc: Cond, a: Expr, b: Expr, w = 1): Expr => ({
  k: 'cond',
  cc,
  flags: { k: 'flags', op: 'sub', a, b, w: 4 },
  w,
});

/** The FPU condition code set (`whenSet`) or clear, as a branch or move condition. */
export const fpCondition = (whenSet: number): Expr => (whenSet ? reg(FCC, 1) : compare('eq', reg(FCC, 4), konst(0, 4)));

export class MipsInsn {
  readonly e = new InsnEmitter(TEMP);
  readonly d = newDecoded();
  vaddr = 0;
  /** A conditional branch's condition. */
  branchCondition: Expr | null = null;
  /** What an indirect jump or call goes to. */
  target: Expr | null = null;

  begin(vaddr: number): void {
    this.vaddr = vaddr;
    this.branchCondition = null;
    this.target = null;
    this.e.begin(vaddr);
  }

  r(n: number): Expr {
    return n === 0 ? konst(0, 4) : reg(n, 4);
  }

  setR(n: number, v: Expr): void {
    if (n !== 0) this.e.set(n, v);
  }

  /** $f`n` read at 4 (single, word) or 8 (double, long) bytes. */
  f(n: number, bytes: number): Expr {
    return reg(F0 + n, bytes);
  }

  setF(n: number, v: Expr): void {
    this.e.set(F0 + n, v.w === 8 ? v : bin('deposit', reg(F0 + n, 8), v, 8));
  }

  finish(out: Stmt[]): void {
    const { flow, target } = this.d;
    const at = this.vaddr;
    const none = { args: [], writes: [], vers: [], at, tail: false };
    switch (flow) {
      case Flow.Branch:
        this.e.transfer({ k: 'branch', c: this.branchCondition ?? konst(1, 1), at });
        break;
      case Flow.Jump:
        this.e.transfer({ k: 'jump', target: konst(target, 4), at });
        break;
      case Flow.Call:
        this.e.transfer({ k: 'call', target: konst(target, 4), ...none });
        break;
      case Flow.IndirectJump:
        this.e.transfer({ k: 'jump', target: this.indirectTarget(), at });
        break;
      case Flow.IndirectCall:
        this.e.transfer({ k: 'call', target: this.indirectTarget(), ...none });
        break;
      case Flow.Return:
        this.e.transfer({ k: 'ret', reads: [], pop: 0, at });
        break;
      case Flow.Halt:
        this.e.transfer({ k: 'effect', name: 'break', reads: [], writes: [], vers: [], at });
        break;
    }
    this.e.commit(out, MIPS_REGISTERS.widths);
  }

  /** The register jumped through, read into the scratch register when its link write (jalr rd = rs) replaces it. */
  private indirectTarget(): Expr {
    const v = this.target ?? konst(0, 4);
    if (!this.e.overwrites(v)) return v;
    this.e.set(TEMP + 1, v);
    return reg(TEMP + 1, 4);
  }
}
