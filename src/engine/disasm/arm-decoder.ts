// Table-driven A32 (ARM state) decoder for what the CFG needs. Every instruction is 4 bytes with a
// condition in bits 31:28; B/BL/BLX, BX/BLX register, loads of PC (LDR, LDM/POP), data processing into PC
// (`mov pc, lr`, `addls pc, pc, r3, lsl #2` switch dispatch), ADR, PC-relative literals, BKPT/UDF are
// decoded, everything else is Sequential.
import { addr32, fits, signExtend, u32le } from './bits.js';
import { Flow, clearDecoded, invalid, type Decoded } from './instruction.js';

const AL = 14;
const SP = 13;
const LR = 14;
const PC = 15;

/** Coprocessors of Armv7-A/Armv8 AArch32: FP16 (9), VFP/NEON (10, 11), debug (14), system (15). */
const COPROCESSORS = new Set([9, 10, 11, 14, 15]);

/** ARM state reads PC as the instruction's address + 8 (always word aligned for aligned code). */
const pcOf = (vaddr: number): number => vaddr + 8;
const alignedPc = (vaddr: number): number => addr32(pcOf(vaddr) - (pcOf(vaddr) % 4));

/** ARMExpandImm: an 8-bit value rotated right by twice the 4-bit rotation field. */
const expandImm = (w: number): number => {
  const imm8 = w & 0xff;
  const rot = ((w >>> 8) & 0xf) * 2;
  return rot === 0 ? imm8 : ((imm8 >>> rot) | (imm8 << (32 - rot))) >>> 0;
};

export function decodeArm(bytes: Uint8Array, offset: number, vaddr: number, out: Decoded): boolean {
  if (!fits(bytes, offset, 4)) return invalid(out);
  const w = u32le(bytes, offset);
  clearDecoded(out, 4);
  const cond = w >>> 28;
  if (cond === 0xf) return unconditional(w, vaddr, out);
  switch ((w >>> 25) & 7) {
    case 0:
    case 1:
      dataProcessing(w, vaddr, out);
      break;
    case 2:
    case 3:
      loadStore(w, vaddr, out);
      break;
    case 4: {
      // LDM/STM: a load with PC in the list returns when the base is SP (POP), else jumps; writeback
      // into a PC base (UNPREDICTABLE) jumps too.
      const rn = (w >>> 16) & 0xf;
      if (w & (1 << 20) && w & 0x8000) out.flow = rn === SP ? Flow.Return : Flow.IndirectJump;
      else if (w & (1 << 21)) {
        if (rn === PC) out.flow = Flow.IndirectJump;
        else out.writeReg = rn;
      }
      break;
    }
    case 5: {
      // B/BL imm24
      out.target = addr32(pcOf(vaddr) + signExtend(w & 0xffffff, 24) * 4);
      if (w & (1 << 24)) {
        out.flow = Flow.Call;
        out.writeReg = LR;
      } else out.flow = cond === AL ? Flow.Jump : Flow.Branch;
      break;
    }
    case 6:
      // VLDR (literal): imm8 words (single/double), or halfwords (FP16, coprocessor 1001)
      if ((w & 0x0f3f0e00) === 0x0d1f0a00) literal(vaddr, w, (w & 0xff) * 4, out);
      else if ((w & 0x0f3f0f00) === 0x0d1f0900) literal(vaddr, w, (w & 0xff) * 2, out);
      else if ((w & 0x0ff00000) === 0x0c500000) {
        // MRRC / VMOV to two core registers (Rt 15:12, Rt2 19:16)
        if (((w >>> 12) & 0xf) === PC || ((w >>> 16) & 0xf) === PC) out.flow = Flow.IndirectJump;
        else out.writeReg = (w >>> 12) & 0xf;
      }
      break;
    default:
      break; // coprocessor, SVC
  }
  if ((w & 0x0c000000) === 0x0c000000 && (w & 0x0f000000) !== 0x0f000000 && !COPROCESSORS.has((w >>> 8) & 0xf)) {
    return invalid(out); // LDC/STC/MCR/MRC/CDP to a coprocessor AArch32 Armv8 does not have
  }
  if (cond !== AL && out.flow !== Flow.Sequential) out.conditional = true;
  return true;
}

function literal(vaddr: number, w: number, imm: number, out: Decoded): void {
  out.ref = addr32(alignedPc(vaddr) + (w & (1 << 23) ? imm : -imm));
  out.refIsMemory = true;
}

function dataProcessing(w: number, vaddr: number, out: Decoded): void {
  const immForm = (w & (1 << 25)) !== 0;
  const rn = (w >>> 16) & 0xf;
  const rd = (w >>> 12) & 0xf;
  if (!immForm && (w & 0x90) === 0x90) {
    extraLoadStore(w, vaddr, out);
    return;
  }
  const op = (w >>> 21) & 0xf;
  const setFlags = (w & (1 << 20)) !== 0;
  if ((op & 0xc) === 0x8) {
    if (!setFlags) miscellaneous(w, vaddr, immForm, rd, out);
    return; // TST/TEQ/CMP/CMN write no register
  }
  if (rd === PC) {
    const movLr = op === 0xd && !immForm && (w & 0xfff) === LR; // MOV(S) PC, LR
    const subsLr = op === 0x2 && setFlags && immForm && rn === LR; // SUBS PC, LR, #imm (exception return)
    out.flow = movLr || subsLr ? Flow.Return : Flow.IndirectJump;
    return;
  }
  out.writeReg = rd;
  if (rn === PC && immForm && (op === 0x4 || op === 0x2)) {
    // ADR: ADD/SUB Rd, PC, #imm
    const imm = expandImm(w);
    out.ref = addr32(alignedPc(vaddr) + (op === 0x4 ? imm : -imm));
    out.hiReg = rd;
    out.hiValue = out.ref;
  } else if (op === 0x4 && !immForm && (w & 0xff0) === 0) {
    // ADD Rd, PC, Rm / ADD Rd, Rm, PC: completes `ldr rM, =offset` PIC address arithmetic.
    const rm = w & 0xf;
    if (rn === PC && rm !== PC) {
      out.loReg = rm;
      out.loImm = pcOf(vaddr);
    } else if (rm === PC && rn !== PC) {
      out.loReg = rn;
      out.loImm = pcOf(vaddr);
    }
  }
}

/** op 10xx without S: BX, BLX, BXJ, BKPT, HLT, ERET, CLZ, MRS/MSR; MOVW/MOVT in the immediate form. */
function miscellaneous(w: number, vaddr: number, immForm: boolean, rd: number, out: Decoded): void {
  if (immForm) {
    if (((w >>> 21) & 0xd) === 0x8) writeRd(rd, out); // MOVW (op 1000), MOVT (op 1010)
    return;
  }
  if ((w & 0x90) === 0x80) {
    // Halfword multiplies SMLA<x><y>, SMLAW/SMULW, SMLAL<x><y> (RdLo in 15:12 too), SMUL<x><y>: Rd in 19:16.
    const lo = ((w >>> 21) & 3) === 2 ? (w >>> 12) & 0xf : -1;
    if (lo === PC) out.flow = Flow.IndirectJump;
    else writeRd((w >>> 16) & 0xf, out);
    return;
  }
  if ((w & 0xf0) === 0x50) {
    writeRd(rd, out); // QADD, QSUB, QDADD, QDSUB
    return;
  }
  const rm = w & 0xf;
  switch (w & 0x0ffffff0) {
    case 0x012fff10: // BX
      if (rm === LR) out.flow = Flow.Return;
      else if (rm === PC) {
        out.flow = Flow.Jump; // BX PC: stays in ARM state, 8 bytes on
        out.target = addr32(pcOf(vaddr));
      } else out.flow = Flow.IndirectJump;
      return;
    case 0x012fff30: // BLX register
      out.flow = Flow.IndirectCall;
      out.writeReg = LR;
      return;
    case 0x012fff20: // BXJ
      out.flow = Flow.IndirectJump;
      return;
  }
  const op2 = w & 0x0ff000f0;
  if (op2 === 0x01200070 || op2 === 0x01000070)
    out.flow = Flow.Halt; // BKPT, HLT
  else if ((w & 0x0fffffff) === 0x0160006e)
    out.flow = Flow.Return; // ERET
  else if ((w & 0x0fb000f0) === 0x01000000 || (w & 0x0ff000f0) === 0x01600010) writeRd(rd, out); // MRS, CLZ
}

/** A data-processing result register: PC makes it an (UNPREDICTABLE, but executed) indirect jump. */
function writeRd(rd: number, out: Decoded): void {
  if (rd === PC) out.flow = Flow.IndirectJump;
  else out.writeReg = rd;
}

/** Halfword, signed-byte and doubleword loads/stores, and multiplies (bits 7 and 4 set). */
function extraLoadStore(w: number, vaddr: number, out: Decoded): void {
  const op2 = (w >>> 5) & 3;
  if (op2 === 0) {
    // Multiplies (bit 24 = 0) write Rd/RdHi in 19:16 and, when long, RdLo in 15:12; swaps and exclusives.
    if (!(w & (1 << 24))) {
      const long = (w & (1 << 23)) !== 0 || ((w >>> 21) & 7) === 2; // UMULL…SMLAL, UMAAL
      if (((w >>> 16) & 0xf) === PC || (long && ((w >>> 12) & 0xf) === PC)) out.flow = Flow.IndirectJump;
      else out.writeReg = (w >>> 16) & 0xf;
    }
    return;
  }
  const load = w & (1 << 20) ? true : op2 === 2; // LDRD/STRD have L = 0 and op2 10/11
  const rn = (w >>> 16) & 0xf;
  const pre = (w & (1 << 24)) !== 0;
  const writeback = !pre || (w & (1 << 21)) !== 0;
  if (rn === PC && w & (1 << 22) && pre && !(w & (1 << 21)) && load) {
    literal(vaddr, w, ((w >>> 4) & 0xf0) | (w & 0xf), out);
  }
  const rt = (w >>> 12) & 0xf;
  const doubleword = !(w & (1 << 20));
  if (load && (rt === PC || (doubleword && rt === LR))) {
    out.flow = Flow.IndirectJump; // loads PC (LDRD Rt = LR loads PC as Rt2); UNPREDICTABLE
    return;
  }
  out.writeReg = writeback ? rn : load ? rt : -1;
}

function loadStore(w: number, vaddr: number, out: Decoded): void {
  if (w & (1 << 25) && w & 0x10) {
    // Media instructions; UDF is the permanently undefined corner of them. Signed multiplies and USAD8
    // (bits 24:23 = 10, or 24:20 = 11000) write bits 19:16, the others 15:12.
    if ((w & 0x0ff000f0) === 0x07f000f0) out.flow = Flow.Halt;
    else {
      const op1 = (w >>> 20) & 0x1f;
      const rdLo = (w >>> 12) & 0xf;
      if (op1 === 0x14 && rdLo === PC)
        out.flow = Flow.IndirectJump; // SMLALD/SMLSLD: RdLo too
      else writeRd((op1 & 0x18) === 0x10 || op1 === 0x18 ? (w >>> 16) & 0xf : rdLo, out);
    }
    return;
  }
  const load = (w & (1 << 20)) !== 0;
  const byte = (w & (1 << 22)) !== 0;
  const pre = (w & (1 << 24)) !== 0;
  const writeback = !pre || (w & (1 << 21)) !== 0;
  const rn = (w >>> 16) & 0xf;
  const rt = (w >>> 12) & 0xf;
  if (load && rn === PC && pre && !writeback && !(w & (1 << 25))) literal(vaddr, w, w & 0xfff, out);
  if (load && rt === PC) {
    // LDR PC, [SP], #4 is POP {PC}; any other load of PC jumps through memory (LDRB: UNPREDICTABLE).
    out.flow = !byte && (w & 0x0fffffff) === 0x049df004 ? Flow.Return : Flow.IndirectJump;
    return;
  }
  if (writeback) out.writeReg = rn;
  else if (load) out.writeReg = rt;
}

/** cond = 1111: BLX (immediate) switches to Thumb; RFE returns from an exception; the rest continues. */
function unconditional(w: number, vaddr: number, out: Decoded): boolean {
  if ((w & 0xfe000000) >>> 0 === 0xfa000000) {
    out.flow = Flow.Call;
    out.writeReg = LR;
    out.targetThumb = true;
    out.target = addr32(pcOf(vaddr) + signExtend(((w & 0xffffff) << 2) | ((w >>> 23) & 2), 26));
    return true;
  }
  if ((w & 0xfe500000) >>> 0 === 0xf8100000)
    out.flow = Flow.Return; // RFE
  else if ((w & 0x0c000000) === 0x0c000000 && ((w >>> 9) & 7) !== 5) {
    return invalid(out); // LDC2/MCR2/CDP2…: undefined in Armv8 except the FP forms (VSEL, VRINTA…) on 10/11
  }
  return true;
}
