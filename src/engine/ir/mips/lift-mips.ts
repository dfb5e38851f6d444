// MIPS32 (release 2, either byte order) → IR. The engine's decoder (disasm/mips-decoder.ts) says whether a
// word is valid and gives flow and targets; the lifter reads the fields (op, rs, rt, rd, sa, funct,
// immediate) itself (docs/decisions.md, "IR lifters"): integer ALU and shifts, lui/ori/addiu, hi/lo
// multiplies and divides, conditional moves, loads and stores (lwl/lwr/swl/swr as ops over the word),
// branches with their comparison as the condition, traps and syscall as effects, and the FPU (fpu.ts).
import { signExtend } from '../../disasm/bits.js';
import { decodeMips, mipsWord } from '../../disasm/mips-decoder.js';
import { bin, konst, load, reg, un, type BinOp, type Expr, type Stmt } from '../ir.js';
import type { Lifter } from '../lifter.js';
import { coprocessor1, coprocessor1x } from './fpu.js';
import { MipsInsn, compare, fpCondition } from './insn.js';
import { HI, LO, RA, SYS, TEMP, V0 } from './registers.js';

export class MipsLifter implements Lifter {
  private readonly x = new MipsInsn();

  constructor(private readonly bigEndian: boolean) {}

  lift(bytes: Uint8Array, offset: number, vaddr: number, out: Stmt[]): number {
    const x = this.x;
    if (!decodeMips(bytes, offset, vaddr, this.bigEndian, x.d)) return 0;
    x.begin(vaddr);
    if (!liftWord(x, mipsWord(bytes, offset, this.bigEndian))) return 0;
    x.finish(out);
    return 4;
  }
}

/** Loads by opcode: bytes, sign extension. */
const LOADS: Record<number, [number, boolean]> = {
  32: [1, true],
  33: [2, true],
  35: [4, false],
  36: [1, false],
  37: [2, false],
  48: [4, false],
};
const STORES: Record<number, number> = { 40: 1, 41: 2, 43: 4 };

function liftWord(x: MipsInsn, w: number): boolean {
  const op = w >>> 26;
  const rs = (w >>> 21) & 31;
  const rt = (w >>> 16) & 31;
  const imm = w & 0xffff;
  const simm = konst(signExtend(imm, 16), 4);
  const addr = rs === 0 ? simm : bin('add', x.r(rs), simm);
  const ld = LOADS[op];
  if (ld) {
    const v = load(addr, ld[0]);
    x.setR(rt, ld[0] < 4 ? un(ld[1] ? 'sext' : 'zext', v, 4) : v);
    return true;
  }
  const st = STORES[op];
  if (st) {
    x.e.store(addr, st === 4 ? x.r(rt) : rt === 0 ? konst(0, st) : reg(rt, st));
    return true;
  }
  switch (op) {
    case 0:
      return special(x, w, rs, rt);
    case 1:
      return regimm(x, rs, rt, simm);
    case 2:
    case 3:
    case 29:
      return true; // J, JAL, JALX: the flow and target
    case 4:
    case 20:
    case 5:
    case 21:
      // BEQ/BNE (and the likely forms): `b` is beq $0, $0, whose flow is a jump.
      x.branchCondition = compare(op === 4 || op === 20 ? 'eq' : 'ne', x.r(rs), x.r(rt));
      return true;
    case 6:
    case 22:
    case 7:
    case 23:
      x.branchCondition = compare(op === 6 || op === 22 ? 'sle' : 'sgt', x.r(rs), konst(0, 4));
      return true;
    case 8:
    case 9:
      x.setR(rt, rs === 0 ? simm : bin('add', x.r(rs), simm));
      return true;
    case 10:
    case 11:
      x.setR(rt, compare(op === 10 ? 'slt' : 'ult', x.r(rs), simm, 4));
      return true;
    case 12:
      x.setR(rt, bin('and', x.r(rs), konst(imm, 4)));
      return true;
    case 13:
      x.setR(rt, rs === 0 ? konst(imm, 4) : bin('or', x.r(rs), konst(imm, 4)));
      return true;
    case 14:
      x.setR(rt, bin('xor', x.r(rs), konst(imm, 4)));
      return true;
    case 15:
      x.setR(rt, konst(imm << 16, 4));
      return true;
    case 16:
      return coprocessor0(x, w, rs, rt);
    case 17:
      return coprocessor1(x, w);
    case 18:
      if (rs !== 8) return false;
      x.branchCondition = { k: 'op', name: 'bc2', args: [reg(SYS, 4)], w: 1 };
      return true;
    case 19:
      return coprocessor1x(x, w);
    case 28:
      return special2(x, w, rs, rt);
    case 31:
      return special3(x, w, rs, rt);
    case 34:
    case 38:
      // LWL/LWR: the word's bytes on one side of the address merged into rt.
      x.setR(rt, { k: 'op', name: op === 34 ? 'lwl' : 'lwr', args: [x.r(rt), load(addr, 4)], w: 4 });
      return true;
    case 42:
    case 46:
      x.e.store(addr, { k: 'op', name: op === 42 ? 'swl' : 'swr', args: [load(addr, 4), x.r(rt)], w: 4 });
      return true;
    case 56:
      // SC: stores, and rt reports whether it did.
      x.e.store(addr, x.r(rt));
      x.setR(rt, { k: 'op', name: 'sc_status', args: [], w: 4 });
      return true;
    case 49:
    case 53:
      x.setF(rt, load(addr, op === 49 ? 4 : 8));
      return true;
    case 57:
    case 61:
      x.e.store(addr, x.f(rt, op === 57 ? 4 : 8));
      return true;
    case 47:
    case 51:
      return true; // CACHE, PREF
    default:
      return false; // LWC2/SWC2/LDC2/SDC2
  }
}

const SHIFTS: Record<number, BinOp> = { 0: 'shl', 2: 'shr', 3: 'sar' };
const ALU: Record<number, 'add' | 'sub' | 'and' | 'or' | 'xor'> = {
  0x20: 'add',
  0x21: 'add',
  0x22: 'sub',
  0x23: 'sub',
  0x24: 'and',
  0x25: 'or',
  0x26: 'xor',
};

function special(x: MipsInsn, w: number, rs: number, rt: number): boolean {
  const rd = (w >>> 11) & 31;
  const sa = (w >>> 6) & 31;
  const funct = w & 0x3f;
  const alu = ALU[funct];
  if (alu) {
    // move (addu/or with $0), negu (subu from $0)
    if (rt === 0 && alu !== 'and') x.setR(rd, x.r(rs));
    else if (rs === 0 && alu === 'sub') x.setR(rd, un('neg', x.r(rt), 4));
    else x.setR(rd, bin(alu, x.r(rs), x.r(rt)));
    return true;
  }
  switch (funct) {
    case 0x00:
    case 0x02:
    case 0x03:
      // SLL (nop, ssnop, ehb when all zero), SRL (ROTR when rs bit 0), SRA
      if (rd === 0) return true;
      x.setR(rd, bin(funct === 2 && rs & 1 ? 'ror' : SHIFTS[funct]!, x.r(rt), konst(sa, 4)));
      return true;
    case 0x04:
    case 0x06:
    case 0x07:
      x.setR(rd, bin(funct === 6 && sa & 1 ? 'ror' : SHIFTS[funct - 4]!, x.r(rt), bin('and', x.r(rs), konst(31, 4))));
      return true;
    case 0x08:
      x.target = x.r(rs); // JR (jr $ra: the flow says return)
      return true;
    case 0x09:
      // JALR: the call clobbers $ra; another link register gets the return address.
      x.target = x.r(rs);
      if (rd !== RA) x.setR(rd, konst(x.vaddr + 8, 4));
      return true;
    case 0x01:
      x.setR(rd, { k: 'select', c: fpCondition(rt & 1), a: x.r(rs), b: x.r(rd), w: 4 }); // MOVF, MOVT
      return true;
    case 0x0a:
    case 0x0b:
      x.setR(rd, {
        k: 'select',
        c: compare(funct === 0x0a ? 'eq' : 'ne', x.r(rt), konst(0, 4)),
        a: x.r(rs),
        b: x.r(rd),
        w: 4,
      });
      return true;
    case 0x0c: {
      // SYSCALL: Linux o32 takes the number in v0 and arguments in a0–a3; v0/v1 and a3 (the error flag) return.
      const reads = [V0, 4, 5, 6, 7].map((r) => reg(r, 4));
      x.e.transfer({ k: 'effect', name: 'syscall', reads, writes: [V0, V0 + 1, 7], vers: [-1, -1, -1], at: x.vaddr });
      return true;
    }
    case 0x0d:
    case 0x0f:
      return true; // BREAK (the flow), SYNC
    case 0x10:
      x.setR(rd, reg(HI, 4));
      return true;
    case 0x11:
      x.e.set(HI, x.r(rs));
      return true;
    case 0x12:
      x.setR(rd, reg(LO, 4));
      return true;
    case 0x13:
      x.e.set(LO, x.r(rs));
      return true;
    case 0x18:
    case 0x19:
      product(
        x,
        bin('mul', un(funct === 0x18 ? 'sext' : 'zext', x.r(rs), 8), un(funct === 0x18 ? 'sext' : 'zext', x.r(rt), 8)),
      );
      return true;
    case 0x1a:
    case 0x1b:
      x.e.set(LO, bin(funct === 0x1a ? 'sdiv' : 'udiv', x.r(rs), x.r(rt)));
      x.e.set(HI, bin(funct === 0x1a ? 'srem' : 'urem', x.r(rs), x.r(rt)));
      return true;
    case 0x27:
      x.setR(rd, un('not', bin('or', x.r(rs), x.r(rt)), 4));
      return true;
    case 0x2a:
    case 0x2b:
      x.setR(rd, compare(funct === 0x2a ? 'slt' : 'ult', x.r(rs), x.r(rt), 4));
      return true;
    default: {
      // TGE, TGEU, TLT, TLTU, TEQ, TNE: a trap when the comparison holds (`trap_<comparison>` over rs, rt).
      const cond = TRAPS[funct - 0x30];
      if (!cond) return false;
      x.e.transfer({ k: 'effect', name: `trap_${cond}`, reads: [x.r(rs), x.r(rt)], writes: [], vers: [], at: x.vaddr });
      return true;
    }
  }
}

/** The trap instructions' comparisons, by funct − 0x30 (register forms) or rt − 8 (immediate forms). */
const TRAPS = ['ge', 'geu', 'lt', 'ltu', 'eq', undefined, 'ne'];

/** hi:lo ← a 64-bit value, computed once into the scratch register. */
function product(x: MipsInsn, v: Expr): void {
  x.e.first({ k: 'set', r: TEMP + 1, ver: -1, e: v, at: x.vaddr });
  x.e.set(LO, un('trunc', reg(TEMP + 1, 8), 4));
  x.e.set(HI, un('trunc', bin('shr', reg(TEMP + 1, 8), konst(32, 8)), 4));
}

function regimm(x: MipsInsn, rs: number, rt: number, simm: Expr): boolean {
  const zero = konst(0, 4);
  switch (rt) {
    case 0:
    case 2:
    case 16:
    case 18:
      // BLTZ(L), BLTZAL(L); NAL (bltzal $0) only sets $ra.
      if (rt === 16 && rs === 0) x.setR(RA, konst(x.vaddr + 8, 4));
      else x.branchCondition = compare('slt', x.r(rs), zero);
      return true;
    case 1:
    case 3:
    case 17:
    case 19:
      x.branchCondition = compare('sge', x.r(rs), zero); // BGEZ(L), BGEZAL(L) (bal: always, a call)
      return true;
    case 31:
      return true; // SYNCI
    default: {
      // TGEI, TGEIU, TLTI, TLTIU, TEQI, TNEI: against the sign-extended immediate.
      const cond = rt >= 8 ? TRAPS[rt - 8] : undefined;
      if (!cond) return false;
      x.e.transfer({ k: 'effect', name: `trap_${cond}`, reads: [x.r(rs), simm], writes: [], vers: [], at: x.vaddr });
      return true;
    }
  }
}

function coprocessor0(x: MipsInsn, w: number, rs: number, rt: number): boolean {
  if (rs & 0x10) return true; // TLB operations, ERET, WAIT
  const sys = reg(SYS, 4);
  if (rs === 0 || rs === 0x0b)
    x.setR(rt, { k: 'op', name: rs ? 'di_ei' : 'mfc0', args: [konst(w & 0xffff, 4), sys], w: 4 });
  else if (rs === 4) x.e.set(SYS, { k: 'op', name: 'mtc0', args: [konst(w & 0xffff, 4), x.r(rt), sys], w: 4 });
  else return false;
  return true;
}

/** MADD/MADDU/MSUB/MSUBU (hi:lo ± rs × rt), MUL, CLZ, CLO; SDBBP traps. */
function special2(x: MipsInsn, w: number, rs: number, rt: number): boolean {
  const rd = (w >>> 11) & 31;
  const funct = w & 0x3f;
  switch (funct) {
    case 0:
    case 1:
    case 4:
    case 5: {
      const name = ['madd', 'maddu', '', '', 'msub', 'msubu'][funct]!;
      product(x, { k: 'op', name, args: [reg(HI, 4), reg(LO, 4), x.r(rs), x.r(rt)], w: 8 });
      return true;
    }
    case 2:
      x.setR(rd, bin('mul', x.r(rs), x.r(rt)));
      return true;
    case 0x20:
    case 0x21:
      x.setR(rd, { k: 'op', name: funct === 0x20 ? 'clz' : 'clo', args: [x.r(rs)], w: 4 });
      return true;
    default:
      return funct === 0x3f;
  }
}

/** EXT, INS, SEB/SEH/WSBH, RDHWR. */
function special3(x: MipsInsn, w: number, rs: number, rt: number): boolean {
  const rd = (w >>> 11) & 31;
  const sa = (w >>> 6) & 31;
  switch (w & 0x3f) {
    case 0x00: {
      // EXT rt, rs, pos (sa), size (rd + 1)
      const mask = konst(rd === 31 ? 0xffffffffn : (1n << BigInt(rd + 1)) - 1n, 4);
      x.setR(rt, bin('and', sa ? bin('shr', x.r(rs), konst(sa, 4)) : x.r(rs), mask));
      return true;
    }
    case 0x04: {
      // INS rt, rs, pos (sa), size (rd − sa + 1): rt's other bits stay.
      if (rd < sa) return false;
      const field = ((1n << BigInt(rd - sa + 1)) - 1n) << BigInt(sa);
      const kept = bin('and', x.r(rt), konst(~field & 0xffffffffn, 4));
      x.setR(rt, bin('or', kept, bin('and', bin('shl', x.r(rs), konst(sa, 4)), konst(field, 4))));
      return true;
    }
    case 0x20:
      if (sa === 0x10 || sa === 0x18)
        x.setR(rd, un('sext', rt === 0 ? konst(0, sa === 0x10 ? 1 : 2) : reg(rt, sa === 0x10 ? 1 : 2), 4));
      else if (sa === 0x02) x.setR(rd, { k: 'op', name: 'wsbh', args: [x.r(rt)], w: 4 });
      else return false;
      return true;
    case 0x3b:
      x.setR(rt, { k: 'op', name: 'rdhwr', args: [konst(rd, 4), reg(SYS, 4)], w: 4 });
      return true;
    default:
      return false;
  }
}
