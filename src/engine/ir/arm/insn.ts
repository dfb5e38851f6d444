// The instruction being lifted, as the A32 and Thumb decoders below see it: the engine decoder's view of it
// (flow, branch target), its condition, the statements it gathers, and operand helpers that know the
// register file's rules (pc reads as a constant, a write to pc is a transfer, s registers are halves of d
// registers). `finish` turns the decoder's flow into the transfer and guards a conditional instruction.
import { AL } from '../../disasm/thumb-decoder.js';
import { Flow, newDecoded } from '../../disasm/instruction.js';
import { armCondition } from '../arm-common.js';
import { InsnEmitter } from '../emitter.js';
import { bin, konst, ref, reg, un, type Expr, type FlagOp, type Stmt } from '../ir.js';
import { ARM_REGISTERS, D0, FLAGS, PC, TEMP } from './registers.js';

const LOW_HALF = 0xffffffffn;

export class ArmInsn {
  readonly e = new InsnEmitter(TEMP);
  /** The engine decoder's fields for this instruction (flow, target, conditional). */
  readonly d = newDecoded();
  thumb = false;
  vaddr = 0;
  /** The condition it executes under (its field in A32, its IT slot in Thumb); AL when always. */
  cond = AL;
  /** Inside an IT block, 16-bit Thumb data processing does not set the flags. */
  inIt = false;
  /** What it writes to pc (bx, mov pc, ldr pc, pop {pc}, blx register). */
  private pcValue: Expr | null = null;
  /** A conditional branch's own condition (B<c> in Thumb, CBZ/CBNZ), else its condition field. */
  branchCondition: Expr | null = null;

  begin(vaddr: number, thumb: boolean, cond: number, inIt: boolean): void {
    this.vaddr = vaddr;
    this.thumb = thumb;
    this.cond = cond;
    this.inIt = inIt;
    this.pcValue = null;
    this.branchCondition = null;
    this.e.begin(vaddr);
  }

  /** pc as an operand: the instruction's address + 8 (ARM) or + 4 (Thumb). */
  get pc(): number {
    return (this.vaddr + (this.thumb ? 4 : 8)) >>> 0;
  }

  /** pc rounded down to a word: the base of literal loads and adr. */
  get pcAligned(): number {
    return (this.pc & ~3) >>> 0;
  }

  r(n: number): Expr {
    return n === PC ? ref(this.pc, 4) : reg(n, 4);
  }

  /** A base register for addressing: pc is the aligned pc. */
  base(n: number): Expr {
    return n === PC ? ref(this.pcAligned, 4) : reg(n, 4);
  }

  setR(n: number, v: Expr): void {
    if (n === PC) this.pcValue = v;
    else this.e.set(n, v.w < 4 ? un('zext', v, 4) : v);
  }

  setFlags(op: FlagOp, a: Expr, b: Expr): void {
    this.e.set(FLAGS, { k: 'flags', op, a, b, w: 4 });
  }

  /** Condition `code` over the cpsr flags. */
  condition(code: number, w = 1): Expr {
    return armCondition(code, reg(FLAGS, 4), w);
  }

  dReg(n: number): Expr {
    return reg(D0 + n, 8);
  }

  setD(n: number, v: Expr): void {
    this.e.set(D0 + n, v);
  }

  /** s`n`: the low half of d`n/2` when even, the high half when odd. */
  sReg(n: number): Expr {
    const d = reg(D0 + (n >>> 1), 8);
    return n & 1 ? un('trunc', bin('shr', d, konst(32, 8)), 4) : reg(D0 + (n >>> 1), 4);
  }

  /** s`n` ← `v`: a partial write of its d register. */
  setS(n: number, v: Expr): void {
    const d = reg(D0 + (n >>> 1), 8);
    if (n & 1)
      this.e.set(
        D0 + (n >>> 1),
        bin('or', bin('and', d, konst(LOW_HALF, 8)), bin('shl', un('zext', v, 8), konst(32, 8))),
      );
    else this.e.set(D0 + (n >>> 1), bin('deposit', d, v, 8));
  }

  /** Appends the instruction's statements: its writes (guarded by its condition) and its transfer. */
  finish(out: Stmt[]): void {
    const { flow, target } = this.d;
    const at = this.vaddr;
    if (flow === Flow.Branch) {
      this.e.transfer({ k: 'branch', c: this.branchCondition ?? this.condition(this.cond), at });
    } else {
      // A conditional call or return keeps its transfer unconditional: the IR has none that is not a branch.
      if (this.cond !== AL) this.e.predicate(this.condition(this.cond));
      const none = { args: [], writes: [], vers: [], at, tail: false };
      switch (flow) {
        case Flow.Call:
          this.e.transfer({ k: 'call', target: konst(target, 4), ...none });
          break;
        case Flow.IndirectCall:
          this.e.transfer({ k: 'call', target: this.jumpTarget(), ...none });
          break;
        case Flow.Jump:
          this.e.transfer({ k: 'jump', target: konst(target, 4), at });
          break;
        case Flow.IndirectJump:
          this.e.transfer({ k: 'jump', target: this.jumpTarget(), at });
          break;
        case Flow.Return:
          this.e.transfer({ k: 'ret', reads: [], pop: 0, at });
          break;
        case Flow.Halt:
          this.e.transfer({ k: 'effect', name: 'trap', reads: [], writes: [], vers: [], at });
          break;
      }
    }
    this.e.commit(out, ARM_REGISTERS.widths);
  }

  /** The value written to pc, through the scratch register when the instruction also changes what it reads. */
  private jumpTarget(): Expr {
    const v = this.pcValue ?? konst(0, 4);
    if (!this.e.overwrites(v)) return v;
    this.e.set(TEMP + 1, v);
    return reg(TEMP + 1, 4);
  }
}
