// The instruction being lifted, as the AArch64 groups see it: its decode, the statements it gathers and
// operand helpers that know the register file's rules (register 31 is sp or zero, W writes zero-extend,
// scalar vector writes zero the rest).
import { newDecoded } from '../../disasm/instruction.js';
import { armCondition } from '../arm-common.js';
import { InsnEmitter } from '../emitter.js';
import { konst, reg, un, type Expr, type FlagOp } from '../ir.js';
import { FLAGS, TEMP, V0 } from './registers.js';

/** Register field value 31: sp in some operand positions, the zero register in the others. */
export const R31 = 31;

export class Arm64Insn {
  readonly e = new InsnEmitter(TEMP);
  /** What the engine's decoder says of the current instruction (validity, flow, branch target, ADRP page). */
  readonly d = newDecoded();

  /** General register `n` read at `w` bytes; 31 is sp where `sp` says so, else the zero register. */
  x(n: number, w: number, sp = false): Expr {
    if (n === R31 && !sp) return konst(0, w);
    return reg(n, w);
  }

  /** General register `n` ← `v`: narrower values (W registers) zero the upper bytes; the zero register drops it. */
  setX(n: number, v: Expr, sp = false): void {
    if (n === R31 && !sp) return;
    this.e.set(n, v.w < 8 ? un('zext', v, 8) : v);
  }

  v(n: number, w: number): Expr {
    return reg(V0 + n, w);
  }

  /** Vector register `n` ← `v`: a scalar write zeroes the bytes above it. */
  setV(n: number, v: Expr): void {
    this.e.set(V0 + n, v.w < 16 ? un('zext', v, 16) : v);
  }

  setFlags(op: FlagOp, a: Expr, b: Expr): void {
    this.e.set(FLAGS, { k: 'flags', op, a, b, w: a.w });
  }

  /** Condition `code` over the flags register. */
  cond(code: number, w = 1): Expr {
    return armCondition(code, reg(FLAGS, 8), w);
  }

  /** `rd` (a general register, sp where `sp`) ← an operation the IR does not model over `args`. */
  opX(rd: number, name: string, args: Expr[], w: number, sp = false): void {
    this.setX(rd, { k: 'op', name, args, w }, sp);
  }
}
