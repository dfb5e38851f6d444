// Decoders for ARM, Thumb and AArch64 that take flow, targets and refs from Capstone's detail (condition
// code, operands, instruction ids). They are the reference the table-driven decoders are tested against
// and the baseline of the benchmark, not the engine's hot path: one `cs_disasm` call per instruction
// costs microseconds where the table-driven decoders take nanoseconds (docs/decisions.md has the numbers).
// Capstone 5's groups are incomplete for ARM (POP {pc}, LDR pc and UDF carry no jump/return group), so
// the rules below go by instruction name and operands.
import { addr32, addr64 } from './bits.js';
import { CapstoneHandle, DETAIL, type CapstoneMode, type CapstoneModule } from './capstone-runtime.js';
import {
  Flow,
  clearDecoded,
  invalid,
  newDecoded,
  type Decoded,
  type Decoder,
  type InstructionText,
} from './instruction.js';

const rotr = (v: number, r: number): number => (r === 0 ? v : ((v >>> r) | (v << (32 - r))) >>> 0);

const OP_REG = 1;
const OP_IMM = 2;
const OP_MEM = 3;
const ACCESS_WRITE = 2;
/** arm_cc / arm64_cc: 0 is "invalid" (none), 15 is AL, 16 (AArch64 only) NV. */
const CC_AL = 15;

/**
 * cs_arm: cc @20, update_flags @24, writeback @25, op_count @32, operands[36] @40 of 48 bytes each (type @12,
 * reg/imm/mem.base @16, mem.index @20, mem.disp @28, subtracted @40, access @41).
 */
const ARM = {
  cc: 20,
  updateFlags: 24,
  writeback: 25,
  opCount: 32,
  ops: 40,
  opSize: 48,
  type: 12,
  value: 16,
  index: 20,
  disp: 28,
  subtracted: 40,
  access: 41,
};
/** cs_arm64: cc @0, op_count @6, operands[8] @8 of 48 bytes (type @20, value/mem.base @24, disp @32). */
const A64 = { cc: 0, opCount: 6, ops: 8, opSize: 48, type: 20, value: 24, disp: 32 };

const A64_INDIRECT_JUMPS = new Set(['br', 'braa', 'brab', 'braaz', 'brabz']);
const A64_INDIRECT_CALLS = new Set(['blr', 'blraa', 'blrab', 'blraaz', 'blrabz']);
const A64_RETURNS = new Set(['ret', 'retaa', 'retab', 'eret', 'eretaa', 'eretab', 'drps']);
const HALTS = new Set(['brk', 'hlt', 'udf', 'bkpt', 'trap']);
const ARM_LDM = new Set(['ldm', 'ldmda', 'ldmdb', 'ldmib']);
const ARM_LDM_STM = /^(ldm|stm)/;
const STORES = /^(st|vst|push|srs)/;
/** Loads whose `[pc, #imm]` operand is a literal (when last, i.e. not post-indexed, and without writeback). */
const LOADS = /^(ldr|ldrb|ldrh|ldrsb|ldrsh|ldrd|vldr|pld|pli)$/;

export class CapstoneDecoder implements Decoder {
  private readonly cs: CapstoneHandle;
  private readonly textHandle: CapstoneHandle;
  private readonly pc: number;
  private readonly lr: number;
  private readonly sp: number;
  private readonly step: number;

  constructor(
    module: CapstoneModule,
    readonly mode: CapstoneMode,
  ) {
    this.cs = new CapstoneHandle(module, mode, true);
    this.textHandle = new CapstoneHandle(module, mode, false);
    this.pc = this.cs.regId('pc');
    this.lr = this.cs.regId(mode === 'arm64' ? 'x30' : 'lr');
    this.sp = this.cs.regId('sp');
    this.step = mode === 'thumb' ? 2 : 4;
  }

  /** One `cs_disasm` call per instruction. Thumb IT blocks are not tracked across calls: use decodeRange. */
  decode(bytes: Uint8Array, offset: number, vaddr: number, out: Decoded): boolean {
    if (!Number.isInteger(offset) || offset < 0 || offset >= bytes.length) return invalid(out);
    let ok = false;
    this.cs.disasm(bytes, offset, Math.min(4, bytes.length - offset), vaddr, 1, (insn) => {
      this.fill(insn, vaddr, out);
      ok = true;
    });
    return ok || invalid(out);
  }

  /**
   * Decodes [start, end) linearly in batches of 4 KiB (Capstone keeps IT state within a batch; batches are
   * cut only outside IT blocks). Bytes Capstone rejects are reported as Invalid and skipped by the
   * instruction alignment (2 bytes in Thumb, 4 otherwise). `visit` gets the record, valid for the call.
   */
  decodeRange(
    bytes: Uint8Array,
    start: number,
    end: number,
    vaddr: number,
    visit: (offset: number, out: Decoded) => void,
  ): void {
    const out = newDecoded();
    let pos = start;
    while (pos < end) {
      const limit = Math.min(end, pos + 4096);
      const soft = limit === end ? end : limit - 16;
      let cursor = pos;
      let accepting = true;
      let itLeft = 0;
      this.cs.disasm(bytes, pos, limit - pos, vaddr + (pos - start), 0, (insn) => {
        if (!accepting) return;
        if (cursor >= soft && itLeft === 0) {
          accepting = false;
          return;
        }
        this.fill(insn, vaddr + (cursor - start), out);
        visit(cursor, out);
        const mnemonic = this.cs.mnemonic(insn);
        if (this.mode === 'thumb' && /^it[te]{0,3}$/.test(mnemonic)) itLeft = mnemonic.length - 1;
        else if (itLeft > 0) itLeft--;
        cursor += out.length;
      });
      if (accepting && cursor < limit) {
        // Capstone stopped at bytes it does not decode.
        invalid(out);
        visit(cursor, out);
        cursor = Math.min(end, cursor + this.step);
      }
      pos = cursor;
    }
  }

  text(bytes: Uint8Array, offset: number, vaddr: number): InstructionText | null {
    return this.textHandle.text(bytes, offset, vaddr);
  }

  private fill(insn: number, vaddr: number, out: Decoded): void {
    clearDecoded(out, this.cs.length(insn));
    const name = this.cs.insnName(this.cs.id(insn));
    if (this.mode === 'arm64') this.fillArm64(this.cs.detail(insn) + DETAIL.arch, name, out);
    else this.fillArm(insn, this.cs.detail(insn) + DETAIL.arch, name, vaddr, out);
    if (out.flow === Flow.Branch) out.conditional = true;
  }

  private fillArm64(a: number, name: string, out: Decoded): void {
    const cs = this.cs;
    const cc = cs.i32(a + A64.cc);
    const opCount = cs.u8(a + A64.opCount);
    let lastImm = -1;
    let op1Type = 0;
    for (let k = 0; k < opCount; k++) {
      const o = a + A64.ops + k * A64.opSize;
      const type = cs.i32(o + A64.type);
      if (k === 1) op1Type = type;
      if (type === OP_IMM) lastImm = cs.i64(o + A64.value);
    }
    if (name === 'b' || name === 'bc') {
      out.flow = cc >= 1 && cc < CC_AL ? Flow.Branch : Flow.Jump;
      out.target = addr64(lastImm);
    } else if (name === 'bl') {
      out.flow = Flow.Call;
      out.target = addr64(lastImm);
    } else if (name === 'cbz' || name === 'cbnz' || name === 'tbz' || name === 'tbnz') {
      out.flow = Flow.Branch;
      out.target = addr64(lastImm);
    } else if (A64_INDIRECT_JUMPS.has(name)) out.flow = Flow.IndirectJump;
    else if (A64_INDIRECT_CALLS.has(name)) out.flow = Flow.IndirectCall;
    else if (A64_RETURNS.has(name)) out.flow = Flow.Return;
    else if (HALTS.has(name)) out.flow = Flow.Halt;
    else if (name === 'adr') out.ref = addr64(lastImm);
    else if ((name === 'ldr' || name === 'ldrsw' || name === 'prfm') && op1Type === OP_IMM) {
      out.ref = addr64(lastImm);
      out.refIsMemory = true;
    }
  }

  private fillArm(insn: number, a: number, name: string, vaddr: number, out: Decoded): void {
    const cs = this.cs;
    const thumb = this.mode === 'thumb';
    const pcValue = vaddr + (thumb ? 4 : 8);
    const alignedPc = addr32(pcValue - (pcValue % 4));
    const cc = cs.i32(a + ARM.cc);
    const opCount = cs.u8(a + ARM.opCount);
    const op = (k: number) => a + ARM.ops + k * ARM.opSize;
    const type = (k: number) => cs.i32(op(k) + ARM.type);
    const value = (k: number) => cs.i32(op(k) + ARM.value);
    let pcInList = false;
    let writesPc = false;
    let immOp = -1;
    for (let k = 0; k < opCount; k++) {
      if (type(k) === OP_REG && value(k) === this.pc && k > 0) pcInList = true;
      // Capstone 5 marks the source register of some stores as written: stores never write PC here.
      const written = type(k) === OP_REG && value(k) === this.pc && cs.u8(op(k) + ARM.access) & ACCESS_WRITE;
      if (written && !STORES.test(name)) writesPc = true;
      if (type(k) === OP_IMM) immOp = k;
      const literalLoad = k === opCount - 1 && LOADS.test(name) && !cs.u8(a + ARM.writeback);
      if (literalLoad && type(k) === OP_MEM && value(k) === this.pc && cs.i32(op(k) + ARM.index) === 0) {
        let disp = cs.i32(op(k) + ARM.disp);
        // Capstone 5 leaves `subtracted` clear for LDRD (literal) with U = 0; its text has the sign.
        if (cs.u8(op(k) + ARM.subtracted) || (disp > 0 && this.cs.opStr(insn).includes('#-'))) disp = -Math.abs(disp);
        out.ref = addr32(alignedPc + disp);
        out.refIsMemory = true;
      }
    }
    const reg0 = opCount > 0 && type(0) === OP_REG ? value(0) : -1;
    const imm = immOp >= 0 ? value(immOp) >>> 0 : -1;
    const conditional = cc !== 0 && cc !== CC_AL;
    switch (name) {
      case 'b':
        out.flow = conditional ? Flow.Branch : Flow.Jump;
        out.target = imm;
        out.targetThumb = thumb;
        break;
      case 'bl':
        out.flow = Flow.Call;
        out.target = imm;
        out.targetThumb = thumb;
        break;
      case 'blx':
        if (immOp >= 0) {
          out.flow = Flow.Call;
          out.target = imm;
          out.targetThumb = !thumb;
        } else out.flow = Flow.IndirectCall;
        break;
      case 'bx':
        if (reg0 === this.lr) out.flow = Flow.Return;
        else if (reg0 === this.pc) {
          out.flow = Flow.Jump;
          out.target = thumb ? alignedPc : addr32(pcValue);
        } else out.flow = Flow.IndirectJump;
        break;
      case 'bxj':
        out.flow = Flow.IndirectJump;
        break;
      case 'bxns':
        out.flow = reg0 === this.lr ? Flow.Return : Flow.IndirectJump;
        break;
      case 'blxns':
        out.flow = Flow.IndirectCall;
        break;
      case 'cbz':
      case 'cbnz':
        out.flow = Flow.Branch;
        out.target = imm;
        out.targetThumb = true;
        break;
      case 'tbb':
      case 'tbh':
        out.flow = Flow.IndirectJump;
        out.ref = -1;
        out.refIsMemory = false;
        if (type(0) === OP_MEM && value(0) === this.pc) {
          out.ref = addr32(pcValue);
          out.refIsMemory = true;
        }
        break;
      case 'pop':
        if (pcInList || reg0 === this.pc) out.flow = Flow.Return;
        break;
      case 'adr':
        out.ref = addr32(alignedPc + (imm | 0));
        break;
      case 'add':
      case 'addw':
      case 'sub':
      case 'subw':
        // ADD/SUB Rd, PC, #imm is ADR (Capstone names it so only for some encodings).
        if (reg0 !== this.pc && type(1) === OP_REG && value(1) === this.pc && immOp >= 2) {
          // A32 prints the immediate as `#imm8, #rotation` when the rotation is not canonical.
          const rot = opCount === 4 && immOp === 3 ? value(3) : 0;
          const v = opCount === 4 && immOp === 3 ? rotr(value(2) >>> 0, rot) : imm;
          out.ref = addr32(alignedPc + (name.startsWith('add') ? v : -v));
        } else if (writesPc) {
          out.flow = this.writesPcFlow(name, opCount, type, value, cs.u8(a + ARM.updateFlags) !== 0);
        }
        break;
      case 'eret':
      case 'rfeia':
      case 'rfeib':
      case 'rfeda':
      case 'rfedb':
        out.flow = Flow.Return;
        break;
      default:
        if (HALTS.has(name)) out.flow = Flow.Halt;
        else if (ARM_LDM.has(name) && pcInList) out.flow = reg0 === this.sp ? Flow.Return : Flow.IndirectJump;
        else if (writesPc || (ARM_LDM_STM.test(name) && reg0 === this.pc && cs.u8(a + ARM.writeback))) {
          out.flow = this.writesPcFlow(name, opCount, type, value, cs.u8(a + ARM.updateFlags) !== 0);
        }
    }
    if (conditional && out.flow !== Flow.Sequential && out.flow !== Flow.Branch) out.conditional = true;
  }

  /** An instruction other than a branch that writes PC: a return when it restores LR or pops the stack. */
  private writesPcFlow(
    name: string,
    opCount: number,
    type: (k: number) => number,
    value: (k: number) => number,
    setsFlags: boolean,
  ): Flow {
    if ((name === 'mov' || name === 'movs') && opCount === 2 && type(1) === OP_REG && value(1) === this.lr) {
      return Flow.Return;
    }
    const fromLr = type(1) === OP_REG && value(1) === this.lr && type(2) === OP_IMM;
    if ((name === 'subs' || (name === 'sub' && setsFlags)) && fromLr) {
      return Flow.Return; // SUBS PC, LR, #imm: exception return
    }
    const pop = name === 'ldr' && opCount === 3 && type(1) === OP_MEM && value(1) === this.sp;
    if (pop && type(2) === OP_IMM && value(2) === 4) return Flow.Return; // LDR PC, [SP], #4
    return Flow.IndirectJump;
  }
}
