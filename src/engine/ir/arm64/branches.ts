// AArch64 branches, exception generation and system instructions: b/bl (the decoder's target), b.cond
// (the flags), cbz/cbnz and tbz/tbnz (a register tested, no flags), br/blr/ret and their pointer-
// authenticating forms, svc, brk, hints (nop, bti; pac/aut rewrite x30 or x17), mrs/msr, barriers.
import { Flow } from '../../disasm/instruction.js';
import { konst, reg, type Expr } from '../ir.js';
import { LR, SP, SYS, FLAGS } from './registers.js';
import type { Arm64Insn } from './insn.js';

/** The system register number of NZCV (op0 3, op1 3, CRn 4, CRm 2, op2 0) in bits 19:5. */
const NZCV = 0x5a10;

export function branchOrSystem(x: Arm64Insn, w: number): boolean {
  const at = x.e.at;
  const { flow, target } = x.d;
  const direct = konst(target, 8);
  if ((w & 0x7c000000) === 0x14000000) {
    // B, BL
    x.e.transfer(
      flow === Flow.Call
        ? { k: 'call', target: direct, args: [], writes: [], vers: [], at, tail: false }
        : { k: 'jump', target: direct, at },
    );
    return true;
  }
  if ((w & 0xff000000) >>> 0 === 0x54000000) {
    // B.cond: al and nv are plain jumps (the decoder says which).
    if (flow === Flow.Jump) x.e.transfer({ k: 'jump', target: direct, at });
    else x.e.transfer({ k: 'branch', c: x.cond(w & 0xf), at });
    return true;
  }
  if ((w & 0x7c000000) === 0x34000000) {
    const rt = w & 31;
    const nonZero = (w >>> 24) & 1;
    let tested: Expr;
    if (w & 0x02000000) {
      // TBZ/TBNZ: bit b5:b40 of Rt.
      const bit = ((w >>> 26) & 0x20) | ((w >>> 19) & 0x1f);
      const width = bit >= 32 ? 8 : 4;
      tested = { k: 'flags', op: 'and', a: x.x(rt, width), b: konst(1n << BigInt(bit), width), w: width };
    } else {
      const width = w >>> 31 ? 8 : 4;
      tested = { k: 'flags', op: 'sub', a: x.x(rt, width), b: konst(0, width), w: width };
    }
    x.e.transfer({ k: 'branch', c: { k: 'cond', cc: nonZero ? 'ne' : 'eq', flags: tested, w: 1 }, at });
    return true;
  }
  if ((w & 0xfe000000) >>> 0 === 0xd6000000) return branchRegister(x, w);
  if (w >>> 24 === 0xd4) return exception(x, w);
  return system(x, w);
}

/** BR, BLR, RET (and BRAA…, RETAA…: the target authenticated with a modifier). */
function branchRegister(x: Arm64Insn, w: number): boolean {
  const at = x.e.at;
  const rn = (w >>> 5) & 31;
  const pac = (w >>> 11) & 1;
  const modifier = w & (1 << 24) ? x.x(w & 31, 8, true) : reg(SP, 8);
  const target: Expr = pac ? { k: 'op', name: 'aut', args: [x.x(rn, 8), modifier], w: 8 } : x.x(rn, 8);
  switch (x.d.flow) {
    case Flow.IndirectCall:
      x.e.transfer({ k: 'call', target, args: [], writes: [], vers: [], at, tail: false });
      return true;
    case Flow.IndirectJump:
      x.e.transfer({ k: 'jump', target, at });
      return true;
    default:
      x.e.transfer({ k: 'ret', reads: [], pop: 0, at }); // RET, and ERET/DRPS
      return true;
  }
}

/** SVC/HVC/SMC: Linux takes the call number in x8 and arguments in x0–x5, and returns in x0. BRK, HLT: traps. */
function exception(x: Arm64Insn, w: number): boolean {
  const at = x.e.at;
  const opc = (w >>> 21) & 7;
  const call = opc === 0;
  const reads = call ? [8, 0, 1, 2, 3, 4, 5].map((r) => reg(r, 8)) : [];
  const writes = call ? [0] : [];
  const name = call ? (['svc', 'svc', 'hvc', 'smc'][w & 3] ?? 'svc') : (['', 'brk', 'hlt'][opc] ?? 'dcps');
  x.e.transfer({ k: 'effect', name, reads, writes, vers: writes.map(() => -1), at });
  return true;
}

function system(x: Arm64Insn, w: number): boolean {
  if ((w & 0xfffff01f) >>> 0 === 0xd503201f) return hint(x, (w >>> 5) & 0x7f);
  const rt = w & 31;
  const sysreg = (w >>> 5) & 0x7fff;
  if ((w & 0xfff00000) >>> 0 === 0xd5300000) {
    // MRS Xt, <sysreg>: tpidr_el0 (the thread pointer) and the rest are one location; nzcv is the flags.
    x.setX(rt, sysreg === NZCV ? reg(FLAGS, 8) : { k: 'op', name: 'mrs', args: [konst(sysreg, 4), reg(SYS, 8)], w: 8 });
    return true;
  }
  if ((w & 0xfff00000) >>> 0 === 0xd5100000) {
    if (sysreg === NZCV) x.e.set(FLAGS, x.x(rt, 8));
    else x.e.set(SYS, { k: 'op', name: 'msr', args: [konst(sysreg, 4), x.x(rt, 8), reg(SYS, 8)], w: 8 });
    return true;
  }
  if ((w & 0xfff80000) >>> 0 === 0xd5080000) {
    // SYS (dc zva, ic ivau…): reads Xt.
    x.e.transfer({ k: 'effect', name: 'sys', reads: [x.x(rt, 8)], writes: [], vers: [], at: x.e.at });
    return true;
  }
  if ((w & 0xfff80000) >>> 0 === 0xd5280000) {
    x.opX(rt, 'sysl', [reg(SYS, 8)], 8);
    return true;
  }
  return true; // barriers, clrex, MSR (immediate) to PSTATE fields: no register data flow
}

/**
 * Hints by CRm:op2. Pointer authentication rewrites x17 (with x16), or x30 (with sp or zero); xpaclri strips
 * x30; nop, yield, bti, esb, csdb… do nothing the IR sees.
 */
function hint(x: Arm64Insn, code: number): boolean {
  const name = PAC_HINTS[code];
  if (!name) return true;
  if (code < 0x10) x.e.set(17, { k: 'op', name, args: [reg(17, 8), reg(16, 8)], w: 8 });
  else {
    const args = code & 1 && code !== 0x07 ? [reg(LR, 8), reg(SP, 8)] : [reg(LR, 8)];
    x.e.set(LR, { k: 'op', name, args, w: 8 });
  }
  return true;
}

const PAC_HINTS: Record<number, string> = {
  0x07: 'xpaclri',
  0x08: 'pacia1716',
  0x0a: 'pacib1716',
  0x0c: 'autia1716',
  0x0e: 'autib1716',
  0x18: 'paciaz',
  0x19: 'paciasp',
  0x1a: 'pacibz',
  0x1b: 'pacibsp',
  0x1c: 'autiaz',
  0x1d: 'autiasp',
  0x1e: 'autibz',
  0x1f: 'autibsp',
};
