// VFP, Advanced SIMD and coprocessor instructions, in the A32 layout (Thumb-2 shares it: a VFP word is the
// A32 word with condition 1110; Thumb's Advanced SIMD words are moved into the A32 layout by the caller).
// VFP: vldr/vstr, vldm/vstm (vpush/vpop), moves between core and s/d registers, arithmetic (vadd… vmla,
// vfma), vcmp (the fpscr flags; vmrs APSR_nzcv copies them), conversions; Advanced SIMD data processing as
// an op over the d registers its fields name (q registers are pairs); vld1–4/vst1–4; mrc/mcr.
import { expandFpImmediate } from '../arm-common.js';
import { bin, konst, load, reg, un, type Expr } from '../ir.js';
import type { ArmInsn } from './insn.js';
import { offsetFrom } from './operations.js';
import { FLAGS, FPSCR, PC, SP, SYS } from './registers.js';

/** A d register (D:Vd style: the high bit first) or an s register (Vd:D: the low bit last). */
const field = (w: number, shift: number, bit: number, double: boolean): number =>
  double ? (((w >>> bit) & 1) << 4) | ((w >>> shift) & 0xf) : (((w >>> shift) & 0xf) << 1) | ((w >>> bit) & 1);

const vd = (w: number, bytes: number) => field(w, 12, 22, bytes === 8);
const vn = (w: number, bytes: number) => field(w, 16, 7, bytes === 8);
const vm = (w: number, bytes: number) => field(w, 0, 5, bytes === 8);

/** Operand bytes by coprocessor number (bits 11:8): 9 half, 10 single, 11 double precision. */
const sizeOf = (w: number): number => [2, 4, 8][((w >>> 8) & 0xf) - 9] ?? 0;

/** A d register, an s register, or the low half of an s register (half precision). */
function read(x: ArmInsn, n: number, bytes: number): Expr {
  if (bytes === 8) return x.dReg(n);
  return bytes === 4 ? x.sReg(n) : un('trunc', x.sReg(n), 2);
}

function write(x: ArmInsn, n: number, v: Expr, bytes: number): void {
  if (bytes === 8) x.setD(n, v);
  else x.setS(n, bytes === 4 ? v : un('zext', v, 4));
}

/** Coprocessor space of A32 (bits 27:25 = 110 or 111, condition not 1111) and Thumb's VFP words. */
export function coprocessor(x: ArmInsn, w: number): boolean {
  const coproc = (w >>> 8) & 0xf;
  if ((w & 0x0f000000) === 0x0f000000) return supervisorCall(x);
  if ((w & 0x0fe00e00) === 0x0c400a00) return coreRegisterPair(x, w);
  if (coproc >= 9 && coproc <= 11) {
    if (!(w & 0x02000000)) return loadStore(x, w);
    if (!(w & 0x10)) return dataProcessing(x, w);
    return transfer(x, w);
  }
  if ((w & 0x0f000010) === 0x0e000010) {
    // MRC (a read of cp15's thread pointer, c13) and MCR.
    const rt = (w >>> 12) & 0xf;
    if (w & (1 << 20)) {
      const v: Expr = { k: 'op', name: 'mrc', args: [konst(w & 0x00ef00ef, 4), reg(SYS, 4)], w: 4 };
      if (rt === PC) x.e.set(FLAGS, v);
      else x.setR(rt, v);
    } else x.e.set(SYS, { k: 'op', name: 'mcr', args: [konst(w & 0x00ef00ef, 4), x.r(rt), reg(SYS, 4)], w: 4 });
    return true;
  }
  if ((w & 0x0fe00000) === 0x0c400000) {
    // MCRR/MRRC: two core registers to or from a coprocessor.
    const rt = (w >>> 12) & 0xf;
    const rt2 = (w >>> 16) & 0xf;
    if (w & (1 << 20)) {
      x.setR(rt, { k: 'op', name: 'mrrc', args: [reg(SYS, 4)], w: 4 });
      x.setR(rt2, { k: 'op', name: 'mrrc_hi', args: [reg(SYS, 4)], w: 4 });
    } else x.e.set(SYS, { k: 'op', name: 'mcrr', args: [x.r(rt), x.r(rt2), reg(SYS, 4)], w: 4 });
    return true;
  }
  return false; // LDC/STC, CDP: no coprocessor but VFP in code a compiler emits
}

/**
 * The unconditional floating-point instructions (1111 1110, Armv8): vsel (a choice on the flags), vmaxnm
 * and vminnm, vrint* and vcvta/n/p/m (one source; the conversions to a 32-bit integer in an s register).
 */
export function floatingPointUnconditional(x: ArmInsn, w: number): boolean {
  const bytes = sizeOf(w);
  if ((w & 0xff000010) >>> 0 !== 0xfe000000 || !bytes) return false;
  const d = vd(w, bytes);
  const m = read(x, vm(w, bytes), bytes);
  if (!(w & (1 << 23))) {
    const c = x.condition([0, 6, 10, 12][(w >>> 20) & 3]!);
    write(x, d, { k: 'select', c, a: read(x, vn(w, bytes), bytes), b: m, w: bytes }, bytes);
  } else if (((w >>> 20) & 3) !== 3) {
    const name = w & 0x40 ? 'vminnm' : 'vmaxnm';
    write(x, d, { k: 'op', name, args: [read(x, vn(w, bytes), bytes), m], w: bytes }, bytes);
  } else if (w & (1 << 18)) x.setS(vd(w, 4), un('ftoi', m, 4));
  else write(x, d, { k: 'op', name: 'vrint', args: [m], w: bytes }, bytes);
  return true;
}

/** SVC: Linux EABI takes the call number in r7 and arguments in r0–r6, and returns in r0. */
export function supervisorCall(x: ArmInsn): boolean {
  const reads = [7, 0, 1, 2, 3, 4, 5, 6].map((r) => reg(r, 4));
  x.e.transfer({ k: 'effect', name: 'svc', reads, writes: [0], vers: [-1], at: x.vaddr });
  return true;
}

/** VLDR/VSTR, VLDM/VSTM (vpush is vstmdb sp!, vpop vldmia sp!). */
function loadStore(x: ArmInsn, w: number): boolean {
  const bytes = sizeOf(w);
  const pre = (w >>> 24) & 1;
  const up = (w >>> 23) & 1;
  const writeback = (w >>> 21) & 1;
  const isLoad = (w >>> 20) & 1;
  const rn = (w >>> 16) & 0xf;
  const imm = (w & 0xff) * (bytes === 2 ? 2 : 4);
  const base = x.base(rn);
  const first = vd(w, bytes);
  if (pre && !writeback) {
    const addr = offsetFrom(base, konst(imm, 4), !!up);
    if (isLoad) write(x, first, load(addr, bytes), bytes);
    else x.e.store(addr, read(x, first, bytes));
    return true;
  }
  if (pre === up || bytes === 2) return false;
  const count = bytes === 8 ? (w & 0xff) >>> 1 : w & 0xff;
  const start = up ? base : bin('sub', base, konst(imm, 4));
  for (let i = 0; i < count && first + i < 32; i++) {
    const addr = i ? bin('add', start, konst(i * bytes, 4)) : start;
    if (isLoad) write(x, first + i, load(addr, bytes), bytes);
    else x.e.store(addr, read(x, first + i, bytes));
  }
  if (writeback && rn !== PC) x.setR(rn, bin(up ? 'add' : 'sub', base, konst(imm, 4)));
  return true;
}

/** VMOV between two core registers and a d register or two consecutive s registers. */
function coreRegisterPair(x: ArmInsn, w: number): boolean {
  const rt = (w >>> 12) & 0xf;
  const rt2 = (w >>> 16) & 0xf;
  const double = sizeOf(w) === 8;
  const m = field(w, 0, 5, double);
  const toCore = (w >>> 20) & 1;
  if (double) {
    if (toCore) {
      x.setR(rt, un('trunc', x.dReg(m), 4));
      x.setR(rt2, un('trunc', bin('shr', x.dReg(m), konst(32, 8)), 4));
    } else x.setD(m, bin('or', un('zext', x.r(rt), 8), bin('shl', un('zext', x.r(rt2), 8), konst(32, 8))));
    return true;
  }
  if (toCore) {
    x.setR(rt, x.sReg(m));
    x.setR(rt2, x.sReg(m + 1));
  } else if (m & 1) {
    x.setS(m, x.r(rt));
    x.setS(m + 1, x.r(rt2));
  } else x.setD(m >>> 1, bin('or', un('zext', x.r(rt), 8), bin('shl', un('zext', x.r(rt2), 8), konst(32, 8))));
  return true;
}

/** VFP data processing (bits 27:24 = 1110, bit 4 = 0). */
function dataProcessing(x: ArmInsn, w: number): boolean {
  const bytes = sizeOf(w);
  const d = vd(w, bytes);
  const n = read(x, vn(w, bytes), bytes);
  const m = read(x, vm(w, bytes), bytes);
  const negate = (w >>> 6) & 1;
  const opc = ((w >>> 21) & 4) | ((w >>> 20) & 3); // bits 23, 21, 20
  const old = () => read(x, d, bytes);
  const product = bin('fmul', n, m);
  switch (opc) {
    case 0: // VMLA, VMLS
      write(x, d, bin(negate ? 'fsub' : 'fadd', old(), product), bytes);
      return true;
    case 1: // VNMLS, VNMLA
      write(x, d, negate ? un('fneg', bin('fadd', old(), product), bytes) : bin('fsub', product, old()), bytes);
      return true;
    case 2: // VMUL, VNMUL
      write(x, d, negate ? un('fneg', product, bytes) : product, bytes);
      return true;
    case 3: // VADD, VSUB
      write(x, d, bin(negate ? 'fsub' : 'fadd', n, m), bytes);
      return true;
    case 4: // VDIV
      write(x, d, bin('fdiv', n, m), bytes);
      return true;
    case 5: // VFNMA, VFNMS
    case 6: // VFMA, VFMS
      write(x, d, { k: 'op', name: opc === 6 ? 'vfma' : 'vfnma', args: [old(), n, m], w: bytes }, bytes);
      return true;
    default:
      return negate ? twoRegister(x, w, bytes, d) : immediate(x, w, bytes, d);
  }
}

function immediate(x: ArmInsn, w: number, bytes: number, d: number): boolean {
  const imm8 = ((w >>> 12) & 0xf0) | (w & 0xf);
  write(x, d, konst(expandFpImmediate(imm8, bytes * 8), bytes), bytes);
  return true;
}

/** VMOV, VABS, VNEG, VSQRT, VCMP, and the conversions (opc2 in bits 19:16, op in bit 7). */
function twoRegister(x: ArmInsn, w: number, bytes: number, d: number): boolean {
  const opc2 = (w >>> 16) & 0xf;
  const op7 = (w >>> 7) & 1;
  const m = read(x, vm(w, bytes), bytes);
  switch (opc2) {
    case 0:
      write(x, d, op7 ? { k: 'op', name: 'fabs', args: [m], w: bytes } : m, bytes);
      return true;
    case 1:
      write(x, d, op7 ? { k: 'op', name: 'fsqrt', args: [m], w: bytes } : un('fneg', m, bytes), bytes);
      return true;
    case 4:
    case 5:
      x.e.set(FPSCR, { k: 'flags', op: 'fcmp', a: read(x, d, bytes), b: opc2 === 5 ? konst(0, bytes) : m, w: 4 });
      return true;
    case 7:
      // VCVT between double and single: the destination is the other size.
      if (!op7 || bytes === 2) return false;
      write(x, vd(w, 12 - bytes), un('fconv', m, 12 - bytes), 12 - bytes);
      return true;
    case 8:
      // VCVT to floating point from a 32-bit integer in an s register.
      write(x, d, un('itof', x.sReg(vm(w, 4)), bytes), bytes);
      return true;
    case 12:
    case 13:
      // VCVT(R) to a 32-bit integer in an s register.
      x.setS(vd(w, 4), un('ftoi', m, 4));
      return true;
    case 2:
    case 3:
    case 10:
    case 11:
    case 14:
    case 15:
      // Half precision (vcvtb/vcvtt) and fixed point: in place on Vd.
      write(x, d, { k: 'op', name: 'vcvt', args: [read(x, d, bytes), m], w: bytes }, bytes);
      return true;
    default:
      return false;
  }
}

/** Core ↔ s register, core ↔ scalar, vdup, vmrs/vmsr (bit 4 = 1). */
function transfer(x: ArmInsn, w: number): boolean {
  const rt = (w >>> 12) & 0xf;
  const toCore = (w >>> 20) & 1;
  if ((w & 0x0fe00f10) === 0x0e000a10) {
    const n = vn(w, 4);
    if (toCore) x.setR(rt, x.sReg(n));
    else x.setS(n, x.r(rt));
    return true;
  }
  if ((w & 0x0fe00f10) === 0x0ee00a10) {
    const special = (w >>> 16) & 0xf;
    if (special !== 1) {
      // FPSID, MVFR, FPEXC: identification and control.
      if (toCore) x.setR(rt, { k: 'op', name: 'vmrs', args: [konst(special, 4)], w: 4 });
      return true;
    }
    if (!toCore) x.e.set(FPSCR, x.r(rt));
    else if (rt === PC) x.e.set(FLAGS, reg(FPSCR, 4));
    else x.setR(rt, reg(FPSCR, 4));
    return true;
  }
  if ((w & 0x0f000f10) === 0x0e000b10) {
    const dn = vn(w, 8);
    if (toCore) x.setR(rt, { k: 'op', name: 'vmov_lane', args: [x.dReg(dn)], w: 4 });
    else if (w & (1 << 23)) {
      // VDUP (core): every lane of d (q: both halves of the pair).
      const v: Expr = { k: 'op', name: 'vdup', args: [x.r(rt)], w: 8 };
      x.setD(dn, v);
      if (w & (1 << 21) && dn < 31) x.setD(dn + 1, v);
    } else x.setD(dn, { k: 'op', name: 'vmov_lane', args: [x.dReg(dn), x.r(rt)], w: 8 });
    return true;
  }
  return false;
}

/**
 * Advanced SIMD data processing (A32 layout: 1111 001U): Dd (and Dd+1 for a q operation) ← an op over
 * Dn, Dm and Dd (pairs for q); vmov/vmvn of an immediate define Dd without reading it, #0 as zero.
 */
export function simd(x: ArmInsn, w: number): boolean {
  const q = (w >>> 6) & 1;
  const d = vd(w, 8);
  const pair = (r: number) => (q && r < 31 ? [x.dReg(r), x.dReg(r + 1)] : [x.dReg(r)]);
  let v: Expr;
  if ((w & 0x00b80090) === 0x00800010) {
    // One register and a modified immediate.
    const imm8 = ((w >>> 17) & 0x80) | ((w >>> 12) & 0x70) | (w & 0xf);
    const cmode = (w >>> 8) & 0xf;
    const op = (w >>> 5) & 1;
    const orrBic = cmode < 12 && cmode & 1;
    if (orrBic) v = { k: 'op', name: op ? 'vbic' : 'vorr', args: [...pair(d), konst(imm8, 1)], w: 8 };
    else {
      const zero = imm8 === 0 && (op ? cmode === 14 : cmode !== 15);
      v = zero ? konst(0, 8) : { k: 'op', name: 'vmov_imm', args: [konst(imm8, 1), konst(cmode, 1)], w: 8 };
    }
  } else v = { k: 'op', name: 'neon', args: [...pair(vn(w, 8)), ...pair(vm(w, 8)), ...pair(d)], w: 8 };
  x.setD(d, v);
  if (q && d < 31) x.setD(d + 1, v);
  return true;
}

/** Registers of VLD1–4/VST1–4 (multiple elements) by type (bits 11:8). */
const STRUCTURE_REGISTERS: Record<number, number> = {
  0: 4,
  1: 4,
  2: 4,
  3: 4,
  4: 3,
  5: 3,
  6: 3,
  7: 1,
  8: 2,
  9: 2,
  10: 2,
};

/**
 * VLD1–4/VST1–4 (A32 layout: 1111 0100): d registers from Dd up as one block of memory at Rn (lanes and
 * interleaving are below what the IR tracks), then Rn += the size (Rm = 13) or Rm (Rm ≠ 15).
 */
export function simdLoadStore(x: ArmInsn, w: number): boolean {
  const isLoad = (w >>> 21) & 1;
  const rn = (w >>> 16) & 0xf;
  const rm = w & 0xf;
  const d = vd(w, 8);
  const lanes = (w >>> 23) & 1;
  let count: number;
  let bytes: number;
  if (!lanes) {
    const n = STRUCTURE_REGISTERS[(w >>> 8) & 0xf];
    if (!n) return false;
    count = n;
    bytes = 8;
  } else {
    const size = (w >>> 10) & 3;
    count = ((w >>> 8) & 3) + 1;
    bytes = size === 3 ? 1 << ((w >>> 6) & 3) : 1 << size;
  }
  const base = x.r(rn);
  for (let i = 0; i < count && d + i < 32; i++) {
    const addr = i ? bin('add', base, konst(i * bytes, 4)) : base;
    if (!isLoad) x.e.store(addr, lanes ? { k: 'op', name: 'vlane', args: [x.dReg(d + i)], w: bytes } : x.dReg(d + i));
    else if (lanes) x.setD(d + i, { k: 'op', name: 'vld_lane', args: [x.dReg(d + i), load(addr, bytes)], w: 8 });
    else x.setD(d + i, load(addr, 8));
  }
  if (rm !== PC && rn !== PC) x.setR(rn, bin('add', base, rm === SP ? konst(count * bytes, 4) : x.r(rm)));
  return true;
}
