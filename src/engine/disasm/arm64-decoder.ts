// Table-driven AArch64 decoder for what the CFG needs (length, flow, target, ref, pair fields). Every
// instruction is 4 bytes; only branches, exception generation, PC-relative addressing and the
// add/load forms that complete an ADRP are looked at in detail, everything else is Sequential.
// Capstone in WebAssembly costs ~1.1 µs per instruction with detail on (0.7 µs batched); this costs
// 25–40 ns (`npm run bench:disasm`, docs/decisions.md) and agrees with Capstone on every instruction of
// the corpus that Capstone decodes (capstone-agreement.test.ts).
import { addr64, fits, signExtend, u32le } from './bits.js';
import { Flow, clearDecoded, invalid, type Decoded } from './instruction.js';

const LR = 30;
/** Register number 31 is SP or XZR depending on the instruction: never a pair register. */
const ZR_SP = 31;

/** B.cond / BC.cond condition codes 14 and 15 (AL, NV) both mean "always". */
const ALWAYS = 14;

export function decodeArm64(bytes: Uint8Array, offset: number, vaddr: number, out: Decoded): boolean {
  if (!fits(bytes, offset, 4)) return invalid(out);
  const w = u32le(bytes, offset);
  clearDecoded(out, 4);
  const op0 = (w >>> 25) & 0xf;
  if ((op0 & 0xe) === 0xa) return branchOrSystem(w, vaddr, out);
  if ((op0 & 0xe) === 0x8) return dataImmediate(w, vaddr, out);
  if ((op0 & 0x5) === 0x4) return loadStore(w, vaddr, out);
  if ((op0 & 0x7) === 0x5 || (op0 & 0x7) === 0x7) {
    // Data processing (register, SIMD/FP): Rd is bits 4:0 for nearly all of them.
    out.writeReg = w & 31;
    return true;
  }
  if (op0 === 0x2) return true; // SVE: no control flow, no general-register pairs
  // op0 0000: UDF #imm16 when bits 31:16 are zero, else reserved (SME is not decoded); 0001, 0011 unallocated.
  if (op0 === 0 && w >>> 16 === 0) {
    out.flow = Flow.Halt;
    return true;
  }
  return invalid(out);
}

function branchOrSystem(w: number, vaddr: number, out: Decoded): boolean {
  const top6 = w >>> 26;
  if (top6 === 0x05 || top6 === 0x25) {
    // B / BL imm26
    out.target = addr64(vaddr + signExtend(w & 0x3ffffff, 26) * 4);
    if (top6 === 0x25) {
      out.flow = Flow.Call;
      out.writeReg = LR;
    } else out.flow = Flow.Jump;
    return true;
  }
  if ((w & 0xff000000) >>> 0 === 0x54000000) {
    // B.cond (bit 4 = 0) and BC.cond (bit 4 = 1, FEAT_HBC) imm19
    out.target = addr64(vaddr + signExtend((w >>> 5) & 0x7ffff, 19) * 4);
    if ((w & 0xf) >= ALWAYS) out.flow = Flow.Jump;
    else {
      out.flow = Flow.Branch;
      out.conditional = true;
    }
    return true;
  }
  if ((w & 0x7c000000) === 0x34000000) {
    // CBZ/CBNZ imm19 (bit 25 = 0), TBZ/TBNZ imm14 (bit 25 = 1)
    const disp = w & 0x02000000 ? signExtend((w >>> 5) & 0x3fff, 14) : signExtend((w >>> 5) & 0x7ffff, 19);
    out.target = addr64(vaddr + disp * 4);
    out.flow = Flow.Branch;
    out.conditional = true;
    return true;
  }
  const top8 = w >>> 24;
  if (top8 === 0xd4) return exception(w, out);
  if (top8 === 0xd5) {
    // System: hints (incl. BTI, PACIASP), barriers, MSR/MRS; MRS/SYSL (L = bit 21) write Rt.
    if ((w & 0xffc00000) >>> 0 !== 0xd5000000) return invalid(out);
    if (w & (1 << 21)) out.writeReg = w & 31;
    return true;
  }
  if ((w & 0xfe1f0000) >>> 0 === 0xd61f0000) return branchRegister(w, out);
  return invalid(out);
}

/** SVC/HVC/SMC and DCPSn continue; BRK and HLT stop. */
function exception(w: number, out: Decoded): boolean {
  const opc = (w >>> 21) & 7;
  const ll = w & 3;
  if (w & 0x1c) return invalid(out);
  if (opc === 0 && ll !== 0) return true;
  if ((opc === 1 || opc === 2) && ll === 0) {
    out.flow = Flow.Halt;
    return true;
  }
  if (opc === 3 && ll === 0) return true; // TCANCEL
  if (opc === 5 && ll !== 0) return true; // DCPS1..3
  return invalid(out);
}

/**
 * BR/BLR/RET/ERET and their pointer-authenticating forms (BRAA, BLRAAZ, RETAA, ERETAA…): opc in bits
 * 24:21, op3 in 15:10 (0 plain, 2/3 PAC with key A/B), op4 in 4:0.
 */
function branchRegister(w: number, out: Decoded): boolean {
  const opc = (w >>> 21) & 0xf;
  const op3 = (w >>> 10) & 0x3f;
  const rn = (w >>> 5) & 31;
  const op4 = w & 31;
  const plain = op3 === 0 && op4 === 0;
  const pacZero = (op3 === 2 || op3 === 3) && op4 === 31;
  switch (opc) {
    case 0:
    case 1:
      if (!plain && !pacZero) break;
      out.flow = opc === 0 ? Flow.IndirectJump : Flow.IndirectCall;
      if (opc === 1) out.writeReg = LR;
      return true;
    case 2:
      if (plain || (pacZero && rn === 31)) {
        out.flow = Flow.Return;
        return true;
      }
      break;
    case 4:
    case 5:
      // ERET (4), DRPS (5): Rn is 31; ERETAA/ERETAB only for ERET.
      if (rn === 31 && (plain || (opc === 4 && pacZero))) {
        out.flow = Flow.Return;
        return true;
      }
      break;
    case 8:
    case 9:
      // BRAA/BRAB, BLRAA/BLRAB: the modifier register is op4.
      if (op3 !== 2 && op3 !== 3) break;
      out.flow = opc === 8 ? Flow.IndirectJump : Flow.IndirectCall;
      if (opc === 9) out.writeReg = LR;
      return true;
  }
  return invalid(out);
}

function dataImmediate(w: number, vaddr: number, out: Decoded): boolean {
  const rd = w & 31;
  out.writeReg = rd;
  const op = (w >>> 23) & 7;
  if (op <= 1) {
    const imm = signExtend((((w >>> 5) & 0x7ffff) << 2) | ((w >>> 29) & 3), 21);
    if (w & 0x80000000) {
      // ADRP: the 4 KiB page alone is no reference; pairRef adds the ADD/LDR offset that follows.
      out.hiValue = addr64(Math.floor(vaddr / 4096) * 4096 + imm * 4096);
    } else {
      out.hiValue = addr64(vaddr + imm);
      out.ref = out.hiValue;
    }
    if (rd !== ZR_SP && out.hiValue >= 0) out.hiReg = rd;
    return true;
  }
  if ((w & 0x7f800000) === 0x11000000) {
    // ADD (immediate), 32 or 64 bit, no flags: imm12, optionally shifted by 12.
    const rn = (w >>> 5) & 31;
    if (rn !== ZR_SP) {
      out.loReg = rn;
      out.loImm = ((w >>> 10) & 0xfff) * (w & (1 << 22) ? 4096 : 1);
    }
  }
  return true;
}

function loadStore(w: number, vaddr: number, out: Decoded): boolean {
  const rt = w & 31;
  const rn = (w >>> 5) & 31;
  const v = (w >>> 26) & 1;
  if ((w & 0x3b000000) === 0x18000000) {
    // LDR (literal): LDR Wt/Xt, LDRSW, PRFM, LDR St/Dt/Qt; opc 11 with V = 1 is unallocated.
    const opc = w >>> 30;
    if (opc === 3 && v === 1) return invalid(out);
    out.ref = addr64(vaddr + signExtend((w >>> 5) & 0x7ffff, 19) * 4);
    out.refIsMemory = true;
    if (v === 0 && opc !== 3) out.writeReg = rt;
    return true;
  }
  if ((w & 0x3b000000) === 0x39000000) {
    // Load/store register (unsigned immediate): the offset is imm12 scaled by the access size.
    const size = w >>> 30;
    const opc = (w >>> 22) & 3;
    let scale = size;
    if (v === 1 && opc >= 2) {
      if (size !== 0) return invalid(out);
      scale = 4; // 128-bit Q register
    }
    if (v === 0 && opc === 3 && size >= 2) return invalid(out);
    if (rn !== ZR_SP) {
      out.loReg = rn;
      out.loImm = ((w >>> 10) & 0xfff) * 2 ** scale;
      out.loMemory = true;
    }
    const isLoad = opc !== 0 && !(v === 0 && size === 3 && opc === 2); // PRFM loads nothing
    if (v === 0 && isLoad) out.writeReg = rt;
    return true;
  }
  // Other loads and stores: writeback forms (pre/post-index, pairs with bit 23) change the base, others Rt.
  const pairWriteback = (w & 0x3a000000) === 0x28000000 && (w & (1 << 23)) !== 0;
  const singleWriteback = (w & 0x3b200000) === 0x38000000 && (w & 0x400) !== 0;
  out.writeReg = pairWriteback || singleWriteback ? rn : rt;
  return true;
}
