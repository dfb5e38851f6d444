// MIPS32 (release 2) decoder for what the CFG needs; capstone-wasm is built without MIPS. Fixed 32-bit
// words in either byte order: opcode (31:26), rs (25:21), rt (20:16), rd (15:11), funct (5:0), imm16.
// Branches and jumps have a delay slot (`delaySlot`): the next word runs before the transfer. Branch-
// likely forms (BEQL…) run it only when taken; they are reported like the plain ones.
import { addr32, fits, signExtend, u32be, u32le } from './bits.js';
import { Flow, clearDecoded, invalid, type Decoded } from './instruction.js';

const ZERO = 0;
const RA = 31;

/** Valid SPECIAL functs in MIPS32r2 (the others are MIPS64 or reserved). */
const SPECIAL_VALID = new Uint8Array(64);
for (const f of [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x18,
  0x19, 0x1a, 0x1b, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2a, 0x2b, 0x30, 0x31, 0x32, 0x33, 0x34, 0x36,
]) {
  SPECIAL_VALID[f] = 1;
}
/** SPECIAL functs that write rd (shifts, ALU, moves from HI/LO, conditional moves, JALR). */
const SPECIAL_WRITES_RD = new Uint8Array(64);
for (const f of [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x09, 0x0a, 0x0b, 0x10, 0x12, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
  0x27, 0x2a, 0x2b,
]) {
  SPECIAL_WRITES_RD[f] = 1;
}

export const mipsWord = (bytes: Uint8Array, offset: number, bigEndian: boolean): number =>
  bigEndian ? u32be(bytes, offset) : u32le(bytes, offset);

export function decodeMips(
  bytes: Uint8Array,
  offset: number,
  vaddr: number,
  bigEndian: boolean,
  out: Decoded,
): boolean {
  if (!fits(bytes, offset, 4)) return invalid(out);
  const w = mipsWord(bytes, offset, bigEndian);
  clearDecoded(out, 4);
  const op = w >>> 26;
  const rs = (w >>> 21) & 31;
  const rt = (w >>> 16) & 31;
  const simm = signExtend(w & 0xffff, 16);
  switch (op) {
    case 0:
      return special(w, rs, rt, out);
    case 1:
      return regimm(w, rs, rt, vaddr, out);
    case 2: // J
    case 3: // JAL
    case 29: {
      // JALX: JAL that toggles the ISA mode (MIPS16e/microMIPS), reported through targetThumb.
      const next = vaddr + 4;
      out.target = addr32(next - (next % 0x10000000) + (w & 0x3ffffff) * 4);
      out.flow = op === 2 ? Flow.Jump : Flow.Call;
      if (op !== 2) out.writeReg = RA;
      out.targetThumb = op === 29;
      out.delaySlot = true;
      return true;
    }
    case 4: // BEQ (rs = rt: B)
    case 20: // BEQL
      return branch(vaddr, simm, rs === rt, out);
    case 5: // BNE
    case 21: // BNEL
      return branch(vaddr, simm, false, out);
    case 6: // BLEZ (rs = 0: always)
    case 7: // BGTZ
    case 22: // BLEZL
    case 23: // BGTZL
      if (rt !== 0) return invalid(out);
      return branch(vaddr, simm, rs === ZERO && (op === 6 || op === 22), out);
    case 8: // ADDI
    case 9: // ADDIU
    case 13: // ORI: LUI's low half is zero, so OR adds the zero-extended immediate
      out.writeReg = rt;
      if (rs !== ZERO) {
        out.loReg = rs;
        out.loImm = op === 13 ? w & 0xffff : simm;
      }
      return true;
    case 10: // SLTI
    case 11: // SLTIU
    case 12: // ANDI
    case 14: // XORI
      out.writeReg = rt;
      return true;
    case 15: // LUI
      out.writeReg = rt;
      out.hiReg = rt;
      out.hiValue = ((w & 0xffff) << 16) >>> 0;
      return true;
    case 16:
      return cop0(w, rs, rt, out);
    case 17: // COP1: BC1F/BC1T(L) on rs = 8; MFC1/CFC1/MFHC1 write rt
    case 18: // COP2: BC2F/BC2T(L)
      if (rs === 8) return branch(vaddr, simm, false, out);
      if (op === 17 && (rs === 0 || rs === 2 || rs === 3)) out.writeReg = rt;
      return true;
    case 19: // COP1X (indexed FP loads/stores, madd.fmt)
      return true;
    case 28: // SPECIAL2: MUL/CLZ/CLO write rd; SDBBP traps
      if ((w & 0x3f) === 0x3f) out.flow = Flow.Halt;
      else out.writeReg = (w >>> 11) & 31;
      return true;
    case 31: // SPECIAL3: EXT/INS/RDHWR write rt, BSHFL (SEB/SEH/WSBH) writes rd
      out.writeReg = (w & 0x3f) === 0x20 ? (w >>> 11) & 31 : rt;
      return true;
    case 32: // LB
    case 33: // LH
    case 34: // LWL
    case 35: // LW
    case 36: // LBU
    case 37: // LHU
    case 38: // LWR
    case 48: // LL
      out.writeReg = rt;
      return memory(rs, simm, out);
    case 56: // SC writes its success flag
      out.writeReg = rt;
      return memory(rs, simm, out);
    case 40: // SB
    case 41: // SH
    case 42: // SWL
    case 43: // SW
    case 46: // SWR
    case 49: // LWC1
    case 50: // LWC2
    case 53: // LDC1
    case 54: // LDC2
    case 57: // SWC1
    case 58: // SWC2
    case 61: // SDC1
    case 62: // SDC2
      return memory(rs, simm, out);
    case 47: // CACHE
    case 51: // PREF
      return true;
    default:
      return invalid(out); // MIPS64, MSA and release-6 encodings
  }
}

/** A base+offset access: the CFG's pairRef adds `loImm` to a LUI value or to $gp (register 28). */
function memory(base: number, simm: number, out: Decoded): true {
  if (base !== ZERO) {
    out.loReg = base;
    out.loImm = simm;
    out.loMemory = true;
  }
  return true;
}

function branch(vaddr: number, simm: number, always: boolean, out: Decoded): true {
  out.target = addr32(vaddr + 4 + simm * 4);
  out.delaySlot = true;
  if (always) out.flow = Flow.Jump;
  else {
    out.flow = Flow.Branch;
    out.conditional = true;
  }
  return true;
}

function special(w: number, rs: number, rt: number, out: Decoded): boolean {
  const funct = w & 0x3f;
  if (!SPECIAL_VALID[funct]) return invalid(out);
  const rd = (w >>> 11) & 31;
  if (SPECIAL_WRITES_RD[funct]) out.writeReg = rd;
  switch (funct) {
    case 0x08: // JR ($ra: return)
      out.flow = rs === RA ? Flow.Return : Flow.IndirectJump;
      out.delaySlot = true;
      break;
    case 0x09: // JALR (rd = 0 is a plain jump)
      out.flow = rd !== ZERO ? Flow.IndirectCall : rs === RA ? Flow.Return : Flow.IndirectJump;
      out.delaySlot = true;
      break;
    case 0x0d: // BREAK: division-by-zero and __builtin_trap
      out.flow = Flow.Halt;
      break;
    case 0x30: // TGE
    case 0x31: // TGEU
    case 0x34: // TEQ: conditional traps continue, unless the condition compares a register with itself
      if (rs === rt) out.flow = Flow.Halt;
      break;
  }
  return true;
}

function regimm(w: number, rs: number, rt: number, vaddr: number, out: Decoded): boolean {
  const simm = signExtend(w & 0xffff, 16);
  switch (rt) {
    case 0: // BLTZ
    case 2: // BLTZL
      return branch(vaddr, simm, false, out);
    case 1: // BGEZ ($zero: always)
    case 3: // BGEZL
      return branch(vaddr, simm, rs === ZERO, out);
    case 16: // BLTZAL ($zero: NAL, never branches, only sets $ra)
    case 17: // BGEZAL ($zero: BAL)
    case 18: // BLTZALL
    case 19: // BGEZALL
      out.writeReg = RA;
      if (rt === 16 && rs === ZERO) return true;
      branch(vaddr, simm, false, out);
      out.flow = Flow.Call;
      out.conditional = !(rs === ZERO && rt === 17);
      return true;
    case 8: // TGEI
    case 9: // TGEIU
    case 10: // TLTI
    case 11: // TLTIU
    case 12: // TEQI
    case 14: // TNEI
    case 31: // SYNCI
      return true;
    default:
      return invalid(out);
  }
}

function cop0(w: number, rs: number, rt: number, out: Decoded): boolean {
  if (rs & 0x10) {
    const funct = w & 0x3f;
    if (funct === 0x18 || funct === 0x1f) out.flow = Flow.Return; // ERET, DERET (no delay slot)
    return true;
  }
  if (rs === 0 || rs === 0x0b) out.writeReg = rt; // MFC0, DI/EI
  return true;
}
