// 32-bit ARM → IR: one lifter for A32 words, one for Thumb (16- and 32-bit), sharing the operations, VFP
// and the instruction context. The engine's decoders say whether a word is valid and give the flow and
// targets (decodeThumb under the condition of the IT block the lifter tracks, as the Thumb decoder does);
// the lifters read the operand fields (docs/decisions.md, "IR lifters").
import { decodeArm } from '../../disasm/arm-decoder.js';
import { u16le, u32le } from '../../disasm/bits.js';
import { AL, ItBlock, decodeThumb } from '../../disasm/thumb-decoder.js';
import type { Stmt } from '../ir.js';
import type { Lifter } from '../lifter.js';
import { liftA32 } from './a32.js';
import { ArmInsn } from './insn.js';
import { liftThumb16 } from './thumb16.js';
import { liftThumb32 } from './thumb32.js';

export class A32Lifter implements Lifter {
  private readonly x = new ArmInsn();

  lift(bytes: Uint8Array, offset: number, vaddr: number, out: Stmt[]): number {
    const x = this.x;
    if (!decodeArm(bytes, offset, vaddr, x.d)) return 0;
    const w = u32le(bytes, offset);
    x.begin(vaddr, false, w >>> 28 === 15 ? AL : w >>> 28, false);
    if (!liftA32(x, w)) return 0;
    x.finish(out);
    return 4;
  }
}

export class ThumbLifter implements Lifter {
  private readonly x = new ArmInsn();
  private readonly it = new ItBlock();

  lift(bytes: Uint8Array, offset: number, vaddr: number, out: Stmt[]): number {
    const x = this.x;
    const inIt = this.it.inside(vaddr);
    const cond = this.it.conditionAt(vaddr);
    const ok = decodeThumb(bytes, offset, vaddr, cond, x.d);
    this.it.step(vaddr, ok ? u16le(bytes, offset) : 0, ok, x.d);
    if (!ok) return 0;
    x.begin(vaddr, true, cond, inIt);
    const hw1 = u16le(bytes, offset);
    if (!(x.d.length === 2 ? liftThumb16(x, hw1) : liftThumb32(x, hw1, u16le(bytes, offset + 2)))) return 0;
    x.finish(out);
    return x.d.length;
  }
}
