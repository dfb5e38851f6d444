// Table-driven Thumb/Thumb-2 decoder for what the CFG needs. The length comes from the first halfword
// (0b11101/0b11110/0b11111 in bits 15:11 start a 32-bit instruction); branches, returns (BX LR, POP/LDM
// with PC, LDR PC, [SP], #4), indirect jumps (BX, TBB/TBH, LDR PC, MOV/ADD PC), PC-relative literals,
// ADR and IT blocks are decoded, everything else is Sequential.
import { addr32, fits, signExtend, u16le } from './bits.js';
import { Flow, clearDecoded, invalid, type Decoded, type Decoder, type InstructionText } from './instruction.js';

/** ARM condition "always". */
export const AL = 14;
const SP = 13;
const LR = 14;
const PC = 15;

/** Thumb reads PC as the instruction's address + 4; literal addressing uses it rounded down to 4. */
const pcOf = (vaddr: number): number => vaddr + 4;
const alignedPc = (vaddr: number): number => addr32(pcOf(vaddr) - (pcOf(vaddr) % 4));

/**
 * Decodes one Thumb instruction executed under condition `cond` (AL outside IT blocks; inside one, the
 * block's condition for this slot). Conditional transfers get `conditional`; an unconditional B inside an
 * IT block becomes a Branch. BKPT and UDF stop whatever the condition (they ignore it).
 */
export function decodeThumb(bytes: Uint8Array, offset: number, vaddr: number, cond: number, out: Decoded): boolean {
  if (!fits(bytes, offset, 2)) return invalid(out);
  const hw1 = u16le(bytes, offset);
  if (hw1 >>> 11 < 0x1d) {
    clearDecoded(out, 2);
    if (!thumb16(hw1, vaddr, out)) return invalid(out);
  } else {
    if (!fits(bytes, offset, 4)) return invalid(out);
    clearDecoded(out, 4);
    if (!thumb32(hw1, u16le(bytes, offset + 2), vaddr, out)) return invalid(out);
  }
  if (cond !== AL && out.flow !== Flow.Sequential && out.flow !== Flow.Halt) {
    if (out.flow === Flow.Jump) out.flow = Flow.Branch;
    out.conditional = true;
  }
  return true;
}

function thumb16(hw: number, vaddr: number, out: Decoded): boolean {
  const top4 = hw >>> 12;
  if (hw >>> 11 === 0x1c) {
    // B T2: imm11
    out.flow = Flow.Jump;
    out.target = addr32(pcOf(vaddr) + signExtend((hw & 0x7ff) << 1, 12));
    out.targetThumb = true;
    return true;
  }
  if (top4 === 0xd) {
    const c = (hw >>> 8) & 0xf;
    if (c === 0xe)
      out.flow = Flow.Halt; // UDF T1
    else if (c !== 0xf) {
      // B T1: conditional, imm8 (0xf is SVC: Sequential)
      out.flow = Flow.Branch;
      out.conditional = true;
      out.target = addr32(pcOf(vaddr) + signExtend((hw & 0xff) << 1, 9));
      out.targetThumb = true;
    }
    return true;
  }
  if ((hw & 0xff00) === 0x4700) {
    // BX Rm / BLX Rm; bit 2 makes them BXNS/BLXNS (Armv8-M), bits 1:0 should be zero (UNPREDICTABLE).
    const rm = (hw >>> 3) & 0xf;
    if (hw & 0x80) {
      out.flow = Flow.IndirectCall;
      out.writeReg = LR;
    } else if (rm === LR) out.flow = Flow.Return;
    else if (rm === PC) {
      // BX PC: to the ARM code at the next word (PLT entries of Thumb callers).
      out.flow = Flow.Jump;
      out.target = alignedPc(vaddr);
    } else out.flow = Flow.IndirectJump;
    return true;
  }
  if ((hw & 0xf500) === 0xb100) {
    // CBZ/CBNZ: i:imm5:'0', forward only
    out.flow = Flow.Branch;
    out.conditional = true;
    out.target = addr32(pcOf(vaddr) + ((((hw >>> 9) & 1) << 6) | (((hw >>> 3) & 0x1f) << 1)));
    out.targetThumb = true;
    return true;
  }
  if ((hw & 0xfe00) === 0xbc00) {
    // POP T1: P (bit 8) is PC
    if (hw & 0x100) out.flow = Flow.Return;
    return true;
  }
  if ((hw & 0xff00) === 0xbe00 || (hw & 0xffc0) === 0xba80) {
    out.flow = Flow.Halt; // BKPT, HLT
    return true;
  }
  if ((hw & 0xf000) === 0x4000 && (hw & 0x0c00) === 0x0400) {
    // Special data processing: ADD/CMP/MOV with high registers (BX/BLX handled above).
    const op = (hw >>> 8) & 3;
    const rd = ((hw >>> 4) & 8) | (hw & 7);
    const rm = (hw >>> 3) & 0xf;
    if (op === 1) return true; // CMP
    if (rd === PC) out.flow = op === 2 && rm === LR ? Flow.Return : Flow.IndirectJump;
    else {
      out.writeReg = rd;
      if (op === 0 && rm === PC) {
        // ADD Rd, PC: completes `ldr rD, =offset` PIC address arithmetic.
        out.loReg = rd;
        out.loImm = pcOf(vaddr);
      }
    }
    return true;
  }
  if (hw >>> 11 === 0x09) {
    // LDR (literal) T1
    out.ref = alignedPc(vaddr) + (hw & 0xff) * 4;
    out.refIsMemory = true;
    out.writeReg = (hw >>> 8) & 7;
    return true;
  }
  if (hw >>> 11 === 0x14) {
    // ADR T1
    out.ref = alignedPc(vaddr) + (hw & 0xff) * 4;
    out.hiReg = (hw >>> 8) & 7;
    out.hiValue = out.ref;
    out.writeReg = out.hiReg;
    return true;
  }
  out.writeReg = writtenLowReg(hw);
  return true;
}

/** The low register a 16-bit data-processing or load instruction writes (stores and compares included). */
function writtenLowReg(hw: number): number {
  const top4 = hw >>> 12;
  if (top4 <= 1 || hw >>> 10 === 0x10 || top4 === 5 || top4 === 6 || top4 === 7 || top4 === 8) return hw & 7;
  if (top4 === 2 || top4 === 3 || top4 === 9 || top4 === 0xa) return (hw >>> 8) & 7;
  return -1;
}

function thumb32(hw1: number, hw2: number, vaddr: number, out: Decoded): boolean {
  if ((hw1 & 0xf800) === 0xf000 && hw2 & 0x8000) return branchOrMisc(hw1, hw2, vaddr, out);
  const rt = hw2 >>> 12;
  if ((hw1 & 0xfe50) === 0xe810 && (hw1 & 0x0180) !== 0 && (hw1 & 0x0180) !== 0x0180) {
    // LDM/LDMDB (POP.W): PC in the register list
    if (hw2 & 0x8000) out.flow = (hw1 & 0xf) === SP ? Flow.Return : Flow.IndirectJump;
    return true;
  }
  if ((hw1 & 0xfff0) === 0xe8d0 && (hw2 & 0xffe0) === 0xf000) {
    // TBB/TBH [Rn, Rm]: with Rn = PC the table follows the instruction.
    out.flow = Flow.IndirectJump;
    if ((hw1 & 0xf) === PC) {
      out.ref = pcOf(vaddr);
      out.refIsMemory = true;
    }
    return true;
  }
  if ((hw1 & 0xff7f) === 0xf85f) {
    // LDR.W (literal)
    literal(vaddr, hw1, hw2 & 0xfff, out);
    if (rt === PC) out.flow = Flow.IndirectJump;
    else out.writeReg = rt;
    return true;
  }
  if ((hw1 & 0xfe5f) === 0xf81f) {
    // LDRB/LDRSB/LDRH/LDRSH (literal); Rt = PC is PLD/PLI.
    literal(vaddr, hw1, hw2 & 0xfff, out);
    if (rt !== PC) out.writeReg = rt;
    return true;
  }
  if ((hw1 & 0xff7f) === 0xe95f) {
    // LDRD (literal)
    literal(vaddr, hw1, (hw2 & 0xff) * 4, out);
    out.refSize = 8;
    out.writeReg = rt;
    return true;
  }
  if ((hw1 & 0xff3f) === 0xed1f && (hw2 & 0x0e00) === 0x0a00) {
    // VLDR (literal): imm8 words; .64 (bit 8) reads a double
    literal(vaddr, hw1, (hw2 & 0xff) * 4, out);
    out.refSize = hw2 & 0x100 ? 8 : 4;
    return true;
  }
  if ((hw1 & 0xff30) === 0xed10 && (hw2 & 0x0e00) === 0x0a00) {
    // VLDR Dd/Sd, [Rn, #±imm8*4]: after `adr rN, pool` the load reads a literal that no PC-relative
    // operand names (pairRef adds the two).
    throughRegister(hw1, (hw2 & 0xff) * 4, hw2 & 0x100 ? 8 : 4, out);
    return true;
  }
  if ((hw1 & 0xff3f) === 0xed1f && (hw2 & 0x0f00) === 0x0900) {
    // VLDR.16 (literal): imm8 halfwords
    literal(vaddr, hw1, (hw2 & 0xff) * 2, out);
    return true;
  }
  if ((hw1 & 0xfff0) === 0xf8d0 || (hw1 & 0xfff0) === 0xf850) {
    // LDR.W Rt, [Rn, #imm12] / [Rn, #±imm8] / [Rn, Rm]
    if (rt === PC) {
      const popPc = hw1 === 0xf85d && (hw2 & 0x0f00) === 0x0b00; // LDR PC, [SP], #imm
      out.flow = popPc ? Flow.Return : Flow.IndirectJump;
    } else out.writeReg = rt;
    return true;
  }
  if ((hw1 & 0xfbff) === 0xf20f || (hw1 & 0xfbff) === 0xf2af) {
    // ADR T3 (add) / T2 (sub): i:imm3:imm8 (hw2 bit 15 is clear: set, it would be a branch above)
    const imm = (((hw1 >>> 10) & 1) << 11) | (((hw2 >>> 12) & 7) << 8) | (hw2 & 0xff);
    const rd = (hw2 >>> 8) & 0xf;
    out.ref = addr32(alignedPc(vaddr) + (hw1 & 0x00a0 ? -imm : imm));
    out.hiReg = rd;
    out.hiValue = out.ref;
    out.writeReg = rd;
    return true;
  }
  if ((hw1 & 0xfe10) === 0xf810) {
    // Other loads. Rt = PC: PLD/PLI, except the UNPREDICTABLE writeback forms, which do load PC.
    if (rt !== PC) out.writeReg = rt;
    else if ((hw1 & 0x0080) === 0 && (hw2 & 0x0900) === 0x0900) out.flow = Flow.IndirectJump;
  } else if ((hw1 & 0xfe50) === 0xe850 && (hw1 & 0x0120) !== 0) {
    // LDRD (immediate): Rt or Rt2 = PC is UNPREDICTABLE but loads PC. The offset form (P = 1, W = 0)
    // after `adr rN, pool` reads an 8-byte literal: gcc loads double constants so.
    if ((hw1 & 0x0120) === 0x0100) throughRegister(hw1, (hw2 & 0xff) * 4, 8, out);
    if (rt === PC || ((hw2 >>> 8) & 0xf) === PC) out.flow = Flow.IndirectJump;
    else out.writeReg = rt;
  } else if ((hw1 & 0xfe00) === 0xea00 || (hw1 & 0xff00) === 0xfa00 || ((hw1 & 0xf800) === 0xf000 && !(hw2 & 0x8000))) {
    // Data processing (shifted register, register, immediate): Rd in hw2 11:8. Rd = PC is the encoding
    // of TST/TEQ/CMN/CMP when flags are set, otherwise UNPREDICTABLE (it writes PC).
    const rd = (hw2 >>> 8) & 0xf;
    if (rd !== PC) out.writeReg = rd;
    else if (!isCompare(hw1)) out.flow = Flow.IndirectJump;
  }
  return true;
}

/** TST, TEQ, CMN, CMP (.W): AND/EOR/ADD/SUB with S = 1 in the shifted-register and modified-immediate forms. */
function isCompare(hw1: number): boolean {
  const shiftedOrModified = (hw1 & 0xfe00) === 0xea00 || (hw1 & 0xfa00) === 0xf000;
  const op = (hw1 >>> 5) & 0xf;
  return shiftedOrModified && (hw1 & 0x10) !== 0 && (op === 0 || op === 4 || op === 8 || op === 13);
}

function literal(vaddr: number, hw1: number, imm: number, out: Decoded): void {
  out.ref = addr32(alignedPc(vaddr) + (hw1 & 0x80 ? imm : -imm));
  out.refIsMemory = true;
}

/** A load of `size` bytes at Rn (hw1 3:0) ± imm (U, hw1 bit 7): the lo half of an address pair. */
function throughRegister(hw1: number, imm: number, size: number, out: Decoded): void {
  out.loReg = hw1 & 0xf;
  out.loImm = hw1 & 0x80 ? imm : -imm;
  out.loMemory = true;
  out.refSize = size;
}

/** hw1 = 11110xxx…, hw2 bit 15 set: B, BL, BLX, conditional B, and miscellaneous control. */
function branchOrMisc(hw1: number, hw2: number, vaddr: number, out: Decoded): boolean {
  const op1 = (hw2 >>> 12) & 5;
  const s = (hw1 >>> 10) & 1;
  const j1 = (hw2 >>> 13) & 1;
  const j2 = (hw2 >>> 11) & 1;
  if (op1 === 0) {
    if (((hw1 >>> 7) & 7) !== 7) {
      // B T3: conditional, S:J2:J1:imm6:imm11:'0'
      const imm = (s << 20) | (j2 << 19) | (j1 << 18) | ((hw1 & 0x3f) << 12) | ((hw2 & 0x7ff) << 1);
      out.flow = Flow.Branch;
      out.conditional = true;
      out.target = addr32(pcOf(vaddr) + signExtend(imm, 21));
      out.targetThumb = true;
      return true;
    }
    if ((hw1 & 0xfff0) === 0xf7f0 && (hw2 & 0xf000) === 0xa000) {
      out.flow = Flow.Halt; // UDF T2
      return true;
    }
    if (hw1 === 0xf3de && (hw2 & 0xff00) === 0x8f00)
      out.flow = Flow.Return; // SUBS PC, LR, #imm (ERET)
    else if ((hw1 & 0xfff0) === 0xf3c0 && (hw2 & 0xff00) === 0x8f00)
      out.flow = Flow.IndirectJump; // BXJ
    else if ((hw1 & 0xffe0) === 0xf3e0) out.writeReg = (hw2 >>> 8) & 0xf; // MRS
    return true;
  }
  const i1 = ~(j1 ^ s) & 1;
  const i2 = ~(j2 ^ s) & 1;
  const imm = signExtend((s << 24) | (i1 << 23) | (i2 << 22) | ((hw1 & 0x3ff) << 12) | ((hw2 & 0x7ff) << 1), 25);
  if (op1 === 1) {
    out.flow = Flow.Jump; // B T4
    out.target = addr32(pcOf(vaddr) + imm);
    out.targetThumb = true;
    return true;
  }
  out.flow = Flow.Call;
  out.writeReg = LR;
  if (op1 === 5) {
    out.target = addr32(pcOf(vaddr) + imm); // BL
    out.targetThumb = true;
    return true;
  }
  if (hw2 & 1) return false; // BLX with H = 1 is UNDEFINED
  out.target = addr32(alignedPc(vaddr) + imm); // BLX: to ARM state
  return true;
}

/** ITSTATE after one instruction of the block (ARM ARM ITAdvance). */
const itAdvance = (it: number): number => ((it & 7) === 0 ? 0 : (it & 0xe0) | ((it << 1) & 0x1f));

/**
 * IT-block state over instructions decoded one after another: an IT instruction at address A makes the
 * instructions decoded next at A+2, A+2+len… conditional; decoding anywhere else ends the block (a CFG walk
 * that jumps into the middle of an IT block sees unconditional instructions).
 */
export class ItBlock {
  private state = 0;
  private next = -1;

  /** The instruction at `vaddr` is inside an IT block (it follows the block's previous instruction). */
  inside(vaddr: number): boolean {
    return this.state !== 0 && vaddr === this.next;
  }

  /** The condition the instruction at `vaddr` executes under: the block's for its slot, else AL. */
  conditionAt(vaddr: number): number {
    return this.inside(vaddr) ? this.state >>> 4 : AL;
  }

  /** Moves past the instruction decoded at `vaddr` (`out` as the decoder left it; `hw` its first halfword). */
  step(vaddr: number, hw: number, ok: boolean, out: Decoded): void {
    const inIt = this.inside(vaddr);
    this.state = inIt && ok ? itAdvance(this.state) : 0;
    this.next = vaddr + out.length;
    if (ok && !inIt && out.length === 2 && (hw & 0xff00) === 0xbf00 && (hw & 0xf) !== 0) this.state = hw & 0xff;
  }
}

/** The Thumb decoder of the engine: `decodeThumb` plus IT-block state. */
export class ThumbDecoder implements Decoder {
  readonly mode = 'thumb' as const;
  private readonly it = new ItBlock();

  constructor(private readonly textOf: (bytes: Uint8Array, offset: number, vaddr: number) => InstructionText | null) {}

  decode(bytes: Uint8Array, offset: number, vaddr: number, out: Decoded): boolean {
    const ok = decodeThumb(bytes, offset, vaddr, this.it.conditionAt(vaddr), out);
    this.it.step(vaddr, ok ? u16le(bytes, offset) : 0, ok, out);
    return ok;
  }

  text(bytes: Uint8Array, offset: number, vaddr: number): InstructionText | null {
    return this.textOf(bytes, offset, vaddr);
  }
}
